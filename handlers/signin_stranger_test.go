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
	t.Run("redis", func(t *testing.T) { strangersCode(t, newAppSetup(t, setup{limiter: startRedis(t).Open()})) })
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

// Strangers who spent their day's wrong entries and then replace the
// owner's code: the owner's entry meets the strangers' lock, is told to
// ask for a code of his own, and that code signs him in.
func TestStrangersLockedDayDoesNotLockTheOwner(t *testing.T) {
	a := newApp(t)
	a.signIn(a.client, demoPhone) // the owner's browser, now known
	a.post("/logout", nil)
	stranger := a.newClient()
	for range 3 { // 3 codes × 3 wrong entries: more than the strangers' 7 a day
		a.clock.Add(61 * time.Second)
		if r := a.postWith(stranger, "/login", url.Values{"phone": {demoPhone}}, nil); r.StatusCode != http.StatusSeeOther {
			t.Fatalf("stranger's code request: %d", r.StatusCode)
		}
		for _, c := range wrongCodes(a.code(demoPhone), 3) {
			a.postWith(stranger, "/login/code", url.Values{"code": {c}}, nil)
		}
	}
	a.clock.Add(61 * time.Second)
	a.post("/login", url.Values{"phone": {demoPhone}})
	owners := a.code(demoPhone)
	a.clock.Add(61 * time.Second)
	a.postWith(stranger, "/login", url.Values{"phone": {demoPhone}}, nil)
	r := a.post("/login/code", url.Values{"code": {owners}})
	if r.StatusCode != http.StatusTooManyRequests || r.Header.Get("Retry-After") == "" ||
		!strings.Contains(r.text("#error-summary"), "Запросите код ещё раз") {
		t.Fatalf("the owner's entry after the strangers' lock: %d %q", r.StatusCode, r.text("#error-summary"))
	}
	if r := a.post("/login/resend", nil); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("the owner's new code: %d %q", r.StatusCode, r.text("#error-summary"))
	}
	if r := a.post("/login/code", url.Values{"code": {a.code(demoPhone)}}); r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/" {
		t.Fatalf("the owner with a code of his own: %d %q", r.StatusCode, r.text("main"))
	}
}
