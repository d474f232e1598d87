package handlers_test

import (
	"net/http"
	"testing"

	"lk/gateway/sandbox"
	"lk/views"
)

// Every answer, pages and what the installed app and the documents need
// alike, carries the isolation headers, and each of those still works.
func TestIsolationHeadersOnEveryAnswer(t *testing.T) {
	a := signedIn(t)
	want := map[string]string{
		"Cross-Origin-Opener-Policy":   "same-origin",
		"Cross-Origin-Resource-Policy": "same-origin",
		"Permissions-Policy":           "accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), payment=(), usb=()",
	}
	for path, ctype := range map[string]string{
		"/login":              "text/html; charset=UTF-8",
		"/orders":             "text/html; charset=UTF-8",
		views.PathManifest:    "application/manifest+json",
		views.PathWorker:      "text/javascript; charset=utf-8",
		views.PathOffline:     "text/html; charset=UTF-8",
		"/static/css/app.css": "text/css; charset=utf-8",
		"/orders/aqua/" + sandbox.DemoAquaPaid + "/ticket.pdf":    "application/pdf",
		"/orders/hotel/" + sandbox.DemoHotelPaid + "/voucher.pdf": "application/pdf",
		"/no-such-page": "text/html; charset=UTF-8",
	} {
		c := a.client
		if path == "/login" { // a signed-in customer is sent home
			c = a.newClient()
		}
		r := a.getWith(c, path)
		if r.StatusCode != http.StatusOK && !(path == "/no-such-page" && r.StatusCode == http.StatusNotFound) {
			t.Errorf("%s: %d", path, r.StatusCode)
		}
		if got := r.Header.Get("Content-Type"); got != ctype {
			t.Errorf("%s: Content-Type %q, want %q", path, got, ctype)
		}
		for h, v := range want {
			if got := r.Header.Get(h); got != v {
				t.Errorf("%s: %s %q, want %q", path, h, got, v)
			}
		}
	}
}
