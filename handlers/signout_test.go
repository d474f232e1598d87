package handlers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"lk/store/redistest"
)

// A sign-out is reported only when its revocation is stored. With Redis
// down the customer is told that the sign-out did not happen and keeps the
// cookie; once Redis is back that cookie still works, which is what the
// customer was told. A sign-out that was reported survives a crash and
// restart of Redis in the operations manual's configuration (append-only file): a
// copy of the cookie stays out.
func TestSignOutIsReportedOnlyWhenStored(t *testing.T) {
	redis := startRedis(t)
	rs := redis.Open()
	a := newAppSetup(t, setup{revoker: rs})
	a.signIn(a.client, demoPhone)
	u, _ := url.Parse(a.srv.URL)
	copied := a.newClient()
	copied.Jar.SetCookies(u, a.client.Jar.Cookies(u))

	redis.Stop()
	// One server down is an outage, not a failover: the store does not wait
	// it out (store's TestReadWaitsOutFailoversOnlyWithSentinel), so the
	// customer is told at once.
	r := a.post("/logout", nil)
	if r.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("sign-out with Redis down: %d → %q", r.StatusCode, r.Header.Get("Location"))
	}
	if got := r.text("main"); !strings.Contains(got, "Выход не выполнен") || !strings.Contains(got, "Попробуйте выйти ещё раз") {
		t.Errorf("sign-out with Redis down says %q", got)
	}
	if r.Header.Get("Retry-After") == "" {
		t.Error("no Retry-After on the refused sign-out")
	}
	for _, c := range r.Cookies() {
		if strings.Contains(c.Name, "lk_session") {
			t.Errorf("the refused sign-out touched the session cookie: %v", c)
		}
	}
	if got := r.Header.Get("Clear-Site-Data"); got != "" {
		t.Errorf("the refused sign-out cleared the offline copies: %q", got)
	}

	redis.Restart()
	redistest.Ready(t, rs)
	if r := a.get("/orders"); r.StatusCode != http.StatusOK {
		t.Fatalf("after the refused sign-out, Redis back: /orders %d; the customer was told the sign-out did not happen", r.StatusCode)
	}

	r = a.post("/logout", nil)
	if r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/login" || r.Header.Get("Clear-Site-Data") == "" {
		t.Fatalf("sign-out with Redis up: %d → %q", r.StatusCode, r.Header.Get("Location"))
	}
	redis.Stop() // a crash right after the answer
	redis.Restart()
	redistest.Ready(t, rs)
	if r := a.getWith(copied, "/orders"); r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/login" {
		t.Errorf("after a Redis restart a copy of the signed-out cookie opens /orders: %d", r.StatusCode)
	}
}
