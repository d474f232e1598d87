package handlers_test

import (
	"net/http"
	"net/url"
	"testing"
)

// A sign-up refused because the phone is registered already sent no code:
// the customer who then signs in gets a code at once, not a wait.
func TestRefusedSignupLeavesNoWait(t *testing.T) {
	a := newApp(t)
	r := a.post("/signup", url.Values{"phone": {demoPhone}, "firstName": {"Иван"}, "lastName": {"Иванов"}})
	if r.StatusCode != http.StatusUnprocessableEntity || r.text(".summary li") == "" {
		t.Fatalf("sign-up of a registered phone: %d %q", r.StatusCode, r.text(".summary li"))
	}
	if n := a.sb.Calls("auth/login2f"); n != 0 {
		t.Fatalf("a code was sent for a refused sign-up (%d)", n)
	}
	if r := a.post("/login", url.Values{"phone": {demoPhone}}); r.StatusCode != http.StatusSeeOther {
		t.Errorf("sign-in right after: %d %q, want a code at once", r.StatusCode, r.text(".summary li"))
	}
}
