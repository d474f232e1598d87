package handlers_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"lk/handlers"
	"lk/handlers/web"
	"lk/store/redistest"
)

// restartable is an instance behind a fixed address whose server can be
// replaced, as a rolling update replaces it with new configuration.
type restartable struct {
	h   atomic.Pointer[http.Handler]
	url string
}

func (r *restartable) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	(*r.h.Load()).ServeHTTP(w, req)
}

// The cookie keys rotated in two steps through two instances on one Redis
// while customers browse, each page from either instance: first the new
// key is accepted everywhere while the old one still signs, then the new
// one signs. No page sends a customer to /login, and a sign-in split
// between the instances (the code asked on one, entered on the other) is
// let in at every stage.
func TestKeyRotationInTwoStepsSignsNobodyOut(t *testing.T) {
	rs := redistest.Start(t, redistest.Volatile...).Open()
	var opts handlers.Options
	a := newAppSetup(t, setup{revoker: rs, limiter: rs, options: func(o *handlers.Options) {
		o.Once, o.Leases, o.Files, o.Moves = rs, rs.Leases(), rs.Files(), rs
		opts = *o
	}})
	old, fresh := web.RandomKey(), web.RandomKey()
	instances := [2]*restartable{{}, {}}
	restart := func(i int, keys ...web.Key) {
		t.Helper()
		o := opts
		s, err := web.NewSessions(keys, "", rs, a.clock.Now)
		if err != nil {
			t.Fatal(err)
		}
		o.Sessions, o.Registry = s, nil
		e, err := handlers.New(o)
		if err != nil {
			t.Fatal(err)
		}
		var h http.Handler = e
		instances[i].h.Store(&h)
	}
	for i, inst := range instances {
		restart(i, old)
		srv := httptest.NewTLSServer(inst)
		t.Cleanup(srv.Close)
		inst.url = srv.URL
	}
	// A sign-in split between the instances, in both directions.
	splitSignIn := func(stage string) {
		t.Helper()
		for from, to := range []int{1, 0} {
			a.clock.Add(2 * time.Hour) // the phone may have a new code
			c := a.newClient()
			r := a.postTo(c, instances[from].url, "/login", url.Values{"phone": {demoPhone}}, nil)
			if r.StatusCode != http.StatusSeeOther {
				t.Fatalf("%s: code asked on %d: %d %q", stage, from, r.StatusCode, r.text("#error-summary"))
			}
			r = a.postTo(c, instances[to].url, "/login/code", url.Values{"code": {a.code(demoPhone)}}, nil)
			if r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/" {
				t.Errorf("%s: code entered on %d: %d %s %q", stage, to, r.StatusCode, r.Header.Get("Location"), r.text("#error-summary"))
			}
			req, _ := http.NewRequest(http.MethodGet, instances[from].url+"/", nil)
			if r := a.do(c, req); r.StatusCode != http.StatusOK {
				t.Errorf("%s: home on %d after the split sign-in: %d %s", stage, from, r.StatusCode, r.Header.Get("Location"))
			}
		}
	}
	// Customers signed in before the rotation, each in several browsers.
	signedIn := a.newClient()
	a.postTo(signedIn, instances[0].url, "/login", url.Values{"phone": {demoPhone}}, nil)
	if r := a.postTo(signedIn, instances[0].url, "/login/code", url.Values{"code": {a.code(demoPhone)}}, nil); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("sign-in: %d %q", r.StatusCode, r.text("#error-summary"))
	}
	var browsers []*http.Client
	for range 16 {
		c := a.newClient()
		for _, inst := range instances {
			u, _ := url.Parse(inst.url)
			c.Jar.SetCookies(u, signedIn.Jar.Cookies(u))
		}
		browsers = append(browsers, c)
	}
	var pages, lost, failed atomic.Int32
	var mu sync.Mutex
	var failures []string
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for i, c := range browsers {
		wg.Go(func() {
			for n := 0; ; n++ {
				select {
				case <-stop:
					return
				default:
				}
				res, err := c.Get(instances[(i+n)%2].url + "/")
				if err != nil {
					failed.Add(1)
					continue
				}
				res.Body.Close()
				pages.Add(1)
				switch {
				case res.StatusCode == http.StatusSeeOther && res.Header.Get("Location") == "/login":
					lost.Add(1)
				case res.StatusCode != http.StatusOK:
					mu.Lock()
					failures = append(failures, fmt.Sprint(res.StatusCode))
					mu.Unlock()
				}
			}
		})
	}
	time.Sleep(300 * time.Millisecond)
	splitSignIn("before")
	for _, step := range []struct {
		name     string
		instance int
		keys     []web.Key
	}{
		// Step 1: the new key accepted everywhere, the old one still signing.
		{"step 1, one instance updated", 0, []web.Key{old, fresh}},
		{"step 1 done", 1, []web.Key{old, fresh}},
		// Step 2: the new key signs.
		{"step 2, one instance updated", 0, []web.Key{fresh, old}},
		{"step 2 done", 1, []web.Key{fresh, old}},
	} {
		restart(step.instance, step.keys...)
		time.Sleep(300 * time.Millisecond) // customers browse
		splitSignIn(step.name)
	}
	close(stop)
	wg.Wait()
	if lost.Load() != 0 || failed.Load() != 0 || len(failures) != 0 {
		t.Errorf("of %d pages: %d sent to /login, %d failed, other answers %v", pages.Load(), lost.Load(), failed.Load(), failures)
	}
	if pages.Load() < 50 {
		t.Errorf("only %d pages browsed", pages.Load())
	}
	t.Logf("%d pages browsed across the rotation", pages.Load())
}
