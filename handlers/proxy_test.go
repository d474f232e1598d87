package handlers_test

import (
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"

	ics "github.com/arran4/golang-ical"

	"lk/gateway/sandbox"
	"lk/handlers"
)

// hsts asks base (plain http) for /login with the given X-Forwarded-Proto
// and says whether the answer carries Strict-Transport-Security.
func hsts(t *testing.T, base, proto string) bool {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, base+"/login", nil)
	if proto != "" {
		req.Header.Set("X-Forwarded-Proto", proto)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("/login: %d", res.StatusCode)
	}
	return res.Header.Get("Strict-Transport-Security") != ""
}

// HSTS goes only over https as the server knows it: its own TLS, or a
// trusted reverse proxy's X-Forwarded-Proto. Any other client's word for
// the scheme is not taken.
func TestForwardedSchemeIsBelievedOnlyFromTrustedProxies(t *testing.T) {
	a := newApp(t)
	if r := a.get("/login"); r.Header.Get("Strict-Transport-Security") == "" {
		t.Error("no HSTS over TLS")
	}
	if hsts(t, a.plain().URL, "https") {
		t.Error("X-Forwarded-Proto: https from an untrusted client added HSTS over plain http")
	}

	_, loopback, _ := net.ParseCIDR("127.0.0.0/8")
	b := newAppSetup(t, setup{options: func(o *handlers.Options) { o.TrustedProxies = []*net.IPNet{loopback} }})
	behind := b.plain()
	if !hsts(t, behind.URL, "https") {
		t.Error("a trusted proxy's X-Forwarded-Proto: https did not add HSTS")
	}
	if hsts(t, behind.URL, "http") || hsts(t, behind.URL, "") {
		t.Error("HSTS over plain http behind a trusted proxy")
	}
}

// The calendar file's link back to the order starts with the configured
// public address, whatever Host the request names.
func TestForgedHostDoesNotReachTheCalendar(t *testing.T) {
	a := signedIn(t)
	page := "/orders/hotel/" + sandbox.DemoHotelPaid
	req, _ := http.NewRequest(http.MethodGet, a.srv.URL+page+"/calendar.ics", nil)
	req.Host = "evil.example"
	// The jar would file cookies under the forged Host: send them by hand.
	u, _ := url.Parse(a.srv.URL)
	for _, c := range a.client.Jar.Cookies(u) {
		req.AddCookie(c)
	}
	r := a.do(a.srv.Client(), req)
	if r.StatusCode != http.StatusOK {
		t.Fatalf("calendar.ics with a forged Host: %d %q", r.StatusCode, r.Header.Get("Location"))
	}
	if strings.Contains(r.body, "evil.example") {
		t.Errorf("the forged Host is in the calendar file:\n%s", r.body)
	}
	cal, err := ics.ParseCalendar(strings.NewReader(r.body))
	if err != nil || len(cal.Events()) != 1 {
		t.Fatalf("calendar: %v", err)
	}
	if got := cal.Events()[0].GetProperty(ics.ComponentPropertyUrl).Value; got != publicURL+page {
		t.Errorf("URL %q, want %q", got, publicURL+page)
	}
}
