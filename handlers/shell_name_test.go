package handlers_test

import (
	"testing"
	"time"

	"lk/gateway/sandbox"
	"lk/handlers"
)

// The shell names the customer as the resort's profile does on every page,
// not only once home was opened: a name changed at the resort shows within
// the time a read is shared, and that read is one per customer for all the
// pages opened meanwhile.
func TestShellNameOnEveryPage(t *testing.T) {
	fio := &resortName{}
	a := newAppWith(t, func(p handlers.Provider) handlers.Provider { return renamedAtResort{p, fio} })
	a.signIn(a.client, demoPhone)
	pages := []string{"/orders", "/orders/aqua/" + sandbox.DemoAquaPaid, "/orders/glk/" + sandbox.DemoLessonTransferable + "/transfer", "/profile/edit"}
	a.sb.Reset()
	for _, p := range pages {
		if got := a.get(p).text(".who"); got != "Иван" {
			t.Errorf("%s: %q", p, got)
		}
	}
	// Sign-in read the profile: the pages after it within the shared time
	// asked nothing more of it but the profile form, which reads its own.
	if n := a.sb.AllCalls()["auth/getClientInfo"]; n != 1 {
		t.Errorf("the profile read %d times for %d pages, want 1 (the profile form's)", n, len(pages))
	}

	fio.set("Иванова Ольга Петровна")
	a.clock.Add(5*time.Minute + time.Second)
	a.sb.Reset()
	for i, p := range pages[:3] {
		if got := a.get(p).text(".who"); got != "Ольга" {
			t.Errorf("%s after the resort renamed: %q", p, got)
		}
		if n := a.sb.AllCalls()["auth/getClientInfo"]; n != 1 {
			t.Errorf("after %d pages the profile read %d times, want 1", i+1, n)
		}
	}
	// A page whose read fails shows the last name known.
	fio.set("Петрова Анна Сергеевна")
	a.clock.Add(5*time.Minute + time.Second)
	a.sb.SetFault("auth/getClientInfo", sandbox.Fault{Status: 500})
	if r := a.get("/orders"); r.StatusCode != 200 || r.text(".who") != "Ольга" {
		t.Errorf("with the profile failing: %d %q", r.StatusCode, r.text(".who"))
	}
}
