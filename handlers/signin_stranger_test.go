package handlers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// A stranger's code request between the owner's request and entry: it
// cannot come at once (the owner's wait is the stranger's too), and when
// it comes after the wait and replaces the owner's code, the owner's entry
// of the code he was sent first counts nothing against his browser and is
// told why. Three such rounds (three entries that a known browser's daily
// limit of 3 would have turned into a day's lock) leave the owner's browser
// free to sign in.
func TestStrangersCodeNeverCountsAgainstTheOwner(t *testing.T) {
	t.Run("memory", func(t *testing.T) { strangersCode(t, newApp(t)) })
	t.Run("redis", func(t *testing.T) { strangersCode(t, newAppSetup(t, setup{limiter: openRedis(t, startRedis(t))})) })
}

func strangersCode(t *testing.T, a *app) {
	a.signIn(a.client, demoPhone) // the owner's browser, now known
	a.post("/logout", nil)
	stranger := a.newClient()
	for round := range 3 {
		if r := a.post("/login", url.Values{"phone": {demoPhone}}); r.StatusCode != http.StatusSeeOther {
			t.Fatalf("round %d: the owner's code request: %d %q", round, r.StatusCode, r.text("#error-summary"))
		}
		owners := a.code(demoPhone)
		r := a.postWith(stranger, "/login", url.Values{"phone": {demoPhone}}, nil)
		if r.StatusCode != http.StatusTooManyRequests || r.Header.Get("Retry-After") == "" {
			t.Fatalf("round %d: a stranger replaced the owner's code at once: %d", round, r.StatusCode)
		}
		a.clock.Add(61 * time.Second)
		if r := a.postWith(stranger, "/login", url.Values{"phone": {demoPhone}}, nil); r.StatusCode != http.StatusSeeOther {
			t.Fatalf("round %d: the stranger's code request after the wait: %d", round, r.StatusCode)
		}
		r = a.post("/login/code", url.Values{"code": {owners}})
		if r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(r.text("#error-summary"), "запросили новый код") {
			t.Fatalf("round %d: the owner's entry of the replaced code: %d %q", round, r.StatusCode, r.text("#error-summary"))
		}
		a.clock.Add(61 * time.Second)
	}
	// The owner was sent the stranger's code too: it signs him in.
	if r := a.post("/login/code", url.Values{"code": {a.code(demoPhone)}}); r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/" {
		t.Fatalf("the owner with the latest code: %d %q", r.StatusCode, r.text("main"))
	}
	// And a code of his own, later, too: nothing was counted against him.
	a.post("/logout", nil)
	a.clock.Add(61 * time.Second)
	a.signIn(a.client, demoPhone)
}
