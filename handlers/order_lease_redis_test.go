package handlers_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"lk/gateway"
	"lk/gateway/sandbox"
	"lk/handlers"
	"lk/store"
)

// redisFor starts a redis-server of the test's own on a free loopback port
// and opens a store on it; both go with the test.
func redisFor(t *testing.T) *store.Redis {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		t.Fatal("redis-server is needed: scripts/deps installs it")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	ln.Close()
	cmd := exec.Command(bin, "--port", port, "--bind", "127.0.0.1", "--dir", t.TempDir(), "--save", "", "--appendonly", "no")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	r, err := store.OpenRedis("redis://127.0.0.1:"+port+"/0", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	for i := 0; r.Ping(context.Background()) != nil; i++ {
		if i > 100 {
			t.Fatal("redis-server did not start")
		}
		time.Sleep(20 * time.Millisecond)
	}
	return r
}

// Two instances on one Redis: 30 fresh forms of one order split between
// them reach the provider once, for a cancel and a water-park transfer.
func TestOneActionPerOrderAcrossInstances(t *testing.T) {
	rs := redisFor(t)
	var opts handlers.Options
	a := newAppOptions(t, nil, func(o *handlers.Options) {
		o.Once, o.Leases = rs, rs.Leases()
		opts = *o
	}, gateway.WithRetries(0))
	a.signIn(a.client, demoPhone)
	opts.Registry = nil
	e2, err := handlers.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	second := httptest.NewTLSServer(e2)
	t.Cleanup(second.Close)

	transfer := "/orders/aqua/" + sandbox.DemoAquaPaid + "/transfer"
	date, session := a.firstChoice(transfer, "sessionId", 1, 30)
	cases := []struct {
		name, page, action, call string
		set                      url.Values
	}{
		{"hotel cancel", "/orders/hotel/" + sandbox.DemoHotelPaid + "/cancel", "/orders/hotel/" + sandbox.DemoHotelPaid + "/cancel", "hotel/cancelOrder", nil},
		{"aqua transfer", transfer + "?date=" + date, transfer, "aqua/transferTicket", url.Values{"date": {date}, "sessionId": {session}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a.sb.Reset()
			forms, post := a.freshForms(tc.page, tc.action, 30, tc.set)
			a.sb.SetFault(tc.call, sandbox.Fault{Delay: 100 * time.Millisecond, Times: 1})
			answers := make([]*resp, len(forms))
			var wg sync.WaitGroup
			for i, f := range forms {
				base := a.srv.URL
				if i%2 == 1 {
					base = second.URL
				}
				wg.Go(func() {
					req, _ := http.NewRequest(http.MethodPost, base+post, strings.NewReader(f.Encode()))
					req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
					answers[i] = a.do(a.client, req)
				})
			}
			wg.Wait()
			if got := a.sb.Calls(tc.call); got != 1 {
				t.Errorf("the provider got %d calls", got)
			}
			for i, r := range answers {
				ok := r.StatusCode == http.StatusSeeOther && strings.HasPrefix(r.Header.Get("Location"), "/orders") ||
					(r.StatusCode == http.StatusConflict || r.StatusCode == http.StatusUnprocessableEntity) && cyrillicText.MatchString(r.text(".notice-err, #error-summary"))
				if !ok {
					t.Errorf("answer %d: %d %q %.200q", i, r.StatusCode, r.Header.Get("Location"), r.text("main"))
				}
			}
		})
	}
}

// One instance without Redis keeps the forms' tokens and outcomes in its
// data folder: a form that cancelled before a restart, sent again after
// it, gets its first outcome and reaches the provider no more.
func TestUsedFormOutlivesARestart(t *testing.T) {
	path := t.TempDir() + "/action-outcomes"
	var opts handlers.Options
	var first *store.FileOnce
	a := newAppOptions(t, nil, func(o *handlers.Options) {
		var err error
		if first, err = store.OpenFileOnce(path, o.Now); err != nil {
			t.Fatal(err)
		}
		o.Once = first
		opts = *o
	}, gateway.WithRetries(0))
	a.signIn(a.client, demoPhone)
	page := "/orders/hotel/" + sandbox.DemoHotelPaid + "/cancel"
	forms, post := a.freshForms(page, page, 1, nil)
	a.sb.Reset()
	r := a.postWith(a.client, post, forms[0], nil)
	if r.StatusCode != http.StatusSeeOther {
		t.Fatalf("cancel: %d %q", r.StatusCode, r.text("main"))
	}
	where := r.Header.Get("Location")
	first.Close() // the instance stops

	again, err := store.OpenFileOnce(path, opts.Now)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	opts.Once, opts.Registry = again, nil
	e, err := handlers.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	restarted := httptest.NewTLSServer(e)
	t.Cleanup(restarted.Close)
	req, _ := http.NewRequest(http.MethodPost, restarted.URL+post, strings.NewReader(forms[0].Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	r = a.do(a.client, req)
	if r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != where || a.sb.Calls("hotel/cancelOrder") != 1 {
		t.Errorf("after the restart: %d %q, calls %d", r.StatusCode, r.Header.Get("Location"), a.sb.Calls("hotel/cancelOrder"))
	}
}
