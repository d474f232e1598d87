package handlers_test

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"testing"

	"lk/handlers"
)

// The 429 of three wrong entries says when a new code may be asked for:
// Retry-After, a second at least, on the page and in an island's JSON.
func TestThreeWrongEntriesSayWhenToComeBack(t *testing.T) {
	a := newApp(t)
	a.post("/login", url.Values{"phone": {demoPhone}})
	right := a.code(demoPhone)
	for _, wrong := range wrongCodes(right, 3) {
		a.post("/login/code", url.Values{"code": {wrong}})
	}
	r := a.post("/login/code", url.Values{"code": {right}})
	if r.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("the 4th entry: %d", r.StatusCode)
	}
	if n, err := strconv.Atoi(r.Header.Get("Retry-After")); err != nil || n < 1 || n > 60 {
		t.Errorf("Retry-After %q, want the seconds until a new code (1…60)", r.Header.Get("Retry-After"))
	}
	j := a.postWith(a.client, "/login/code", url.Values{"code": {right}}, asIsland)
	if j.StatusCode != http.StatusTooManyRequests || j.Header.Get("Retry-After") == "" {
		t.Errorf("island: %d Retry-After %q", j.StatusCode, j.Header.Get("Retry-After"))
	}
}

// The per-IP limit counts an IPv6 /64 as one address: 40 parallel code
// requests from 40 addresses of one /64 (for 40 phones, so no per-phone
// limit is met) pass 30 times; another /64 is another address.
func TestIPv6NetworkIsOneAddress(t *testing.T) {
	_, loopback, _ := net.ParseCIDR("127.0.0.0/8")
	a := newAppSetup(t, setup{options: func(o *handlers.Options) { o.TrustedProxies = []*net.IPNet{loopback} }})
	var got statuses
	parallel(40, func(i int) {
		from := http.Header{"X-Forwarded-For": {fmt.Sprintf("2001:db8:1:2:%x::%x", i, i+1)}}
		r := a.postWith(a.newClient(), "/login", url.Values{"phone": {fmt.Sprintf("7901%07d", i)}}, from)
		if r.StatusCode == http.StatusTooManyRequests && r.Header.Get("Retry-After") == "" {
			t.Error("a 429 without Retry-After")
		}
		got.add(r.StatusCode)
	})
	if got.m[http.StatusTooManyRequests] != 10 {
		t.Errorf("answers %v, want 10 refusals of 40 from one /64", got.m)
	}
	r := a.postWith(a.newClient(), "/login", url.Values{"phone": {demoPhone}}, http.Header{"X-Forwarded-For": {"2001:db8:1:3::1"}})
	if r.StatusCode != http.StatusSeeOther {
		t.Errorf("another /64: %d %q", r.StatusCode, r.text("#error-summary"))
	}
}
