package store_test

import (
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"lk"
	"lk/gateway"
	"lk/gateway/sandbox"
	"lk/gateway/sandbox/sandboxtest"
	"lk/handlers"
	"lk/handlers/web"
	"lk/store"
	"lk/store/redistest"
	"lk/views"
)

// cluster is two instances of the product behind no balancer at all: the
// test talks to each directly. They share the sandbox, the cookie keys and
// one Redis, as several instances behind a balancer do.
type cluster struct {
	t     *testing.T
	sb    *sandbox.Sandbox
	redis *redisServer
	nodes [2]*httptest.Server
}

func newCluster(t *testing.T) *cluster {
	t.Helper()
	return newClusterOn(t, startRedis(t))
}

// sandboxServer is a fresh sandbox of the provider, served until the test ends.
func sandboxServer(t *testing.T) (*sandbox.Sandbox, *httptest.Server) {
	t.Helper()
	sb, err := sandbox.New(sandbox.Config{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sb.Close() })
	srv := httptest.NewServer(sb.Handler())
	t.Cleanup(srv.Close)
	return sb, srv
}

// newClusterOn is a cluster on the Redis srv.
func newClusterOn(t *testing.T, srv *redisServer) *cluster {
	t.Helper()
	sb, sbSrv := sandboxServer(t)
	key := web.RandomKey()
	static, _ := fs.Sub(lk.Static, "static")
	assets, _ := views.LoadAssets(static, "css/app.css", "dist", "/static/dist/")
	c := &cluster{t: t, sb: sb, redis: srv}
	for i := range c.nodes {
		gw, err := gateway.NewClient(sbSrv.URL+"/v1", gateway.WithRetries(0))
		if err != nil {
			t.Fatal(err)
		}
		// Each instance its own connections to the one Redis.
		r, err := store.OpenRedis(srv.URL(), nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { r.Close() })
		sessions, err := web.NewSessions([]web.Key{key}, "", r, time.Now)
		if err != nil {
			t.Fatal(err)
		}
		e, err := handlers.New(handlers.Options{
			Provider: gw, Sessions: sessions, Limiter: r, Once: r, Files: r.Files(), Moves: r, Acts: r, StorePing: r.Ping,
			Site: &views.Site{}, Assets: assets, Static: static,
		})
		if err != nil {
			t.Fatal(err)
		}
		c.nodes[i] = httptest.NewTLSServer(e)
		t.Cleanup(c.nodes[i].Close)
	}
	return c
}

// browser is one customer's browser: its cookies go to both instances
// (cookies do not tell ports apart), redirects are not followed.
func (c *cluster) browser() *http.Client {
	jar, _ := cookiejar.New(nil)
	b := *c.nodes[0].Client()
	b.Jar = jar
	b.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &b
}

func (c *cluster) do(b *http.Client, node int, method, path string, form url.Values) (*http.Response, string) {
	c.t.Helper()
	req, _ := http.NewRequest(method, c.nodes[node].URL+path, strings.NewReader(form.Encode()))
	if method == http.MethodPost {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	res, err := b.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res, string(body)
}

// signIn asks for a code on node from and enters it on node to.
func (c *cluster) signIn(b *http.Client, phone string, from, to int) {
	c.t.Helper()
	if res, body := c.do(b, from, http.MethodPost, "/login", url.Values{"phone": {phone}}); res.StatusCode != http.StatusSeeOther {
		c.t.Fatalf("POST /login: %d %s", res.StatusCode, body)
	}
	code, _ := sandboxtest.LastCode(c.sb, phone)
	if res, body := c.do(b, to, http.MethodPost, "/login/code", url.Values{"code": {code}}); res.StatusCode != http.StatusSeeOther {
		c.t.Fatalf("POST /login/code: %d %s", res.StatusCode, body)
	}
}

var (
	tokenField  = regexp.MustCompile(`name="token" value="([^"]+)"`)
	lessonField = regexp.MustCompile(`name="lessonId" value="([^"]+)"`)
)

func TestTwoInstancesBehaveAsOne(t *testing.T) {
	c := newCluster(t)
	owner := c.browser()
	c.signIn(owner, "79000000000", 0, 1) // a code asked on one, entered on the other
	if res, _ := c.do(owner, 0, http.MethodGet, "/orders", nil); res.StatusCode != http.StatusOK {
		t.Fatalf("signed in through both, /orders on the first: %d", res.StatusCode)
	}

	t.Run("a code asked for on one is limited on the other", func(t *testing.T) {
		stranger := c.browser()
		res, _ := c.do(stranger, 0, http.MethodPost, "/login", url.Values{"phone": {"79000000001"}})
		if res.StatusCode != http.StatusSeeOther {
			t.Fatalf("first code: %d", res.StatusCode)
		}
		res, body := c.do(c.browser(), 1, http.MethodPost, "/login", url.Values{"phone": {"79000000001"}})
		if res.StatusCode != http.StatusTooManyRequests || !strings.Contains(body, "через") {
			t.Errorf("second code within 60 s on the other instance: %d", res.StatusCode)
		}
		if n := c.sb.AllCalls()["auth/login2f"]; n != 2 { // the owner's and the first stranger's
			t.Errorf("auth/login2f called %d times, want 2", n)
		}
	})

	t.Run("a token used on one is spent on the other", func(t *testing.T) {
		page := "/orders/glk/" + sandbox.DemoLessonConfirmable
		_, body := c.do(owner, 0, http.MethodGet, page, nil)
		m := tokenField.FindStringSubmatch(body)
		if m == nil {
			t.Fatal("no confirm form")
		}
		form := url.Values{"token": {m[1]}}
		first, _ := c.do(owner, 0, http.MethodPost, page+"/confirm", form)
		again, _ := c.do(owner, 1, http.MethodPost, page+"/confirm", form)
		if first.StatusCode != http.StatusSeeOther || again.StatusCode != http.StatusSeeOther || again.Header.Get("Location") != first.Header.Get("Location") {
			t.Errorf("first %d %q, again on the other %d %q", first.StatusCode, first.Header.Get("Location"), again.StatusCode, again.Header.Get("Location"))
		}
		if n := c.sb.AllCalls()["GLK/confirmLesson"]; n != 1 {
			t.Errorf("GLK/confirmLesson called %d times, want 1", n)
		}
	})

	t.Run("parallel guesses split across both never pass the limit", func(t *testing.T) {
		guesser := c.browser()
		if res, _ := c.do(guesser, 1, http.MethodPost, "/login", url.Values{"phone": {"79000000002"}}); res.StatusCode != http.StatusSeeOther && res.StatusCode != http.StatusUnprocessableEntity {
			t.Fatalf("code request: %d", res.StatusCode)
		}
		right, ok := sandboxtest.LastCode(c.sb, "79000000002")
		before := c.sb.AllCalls()["auth/loginConfirm"]
		var wg sync.WaitGroup
		for i := range 60 {
			guess := fmt.Sprintf("%04d", i)
			if ok && guess == right {
				continue
			}
			wg.Go(func() { c.do(guesser, i%2, http.MethodPost, "/login/code", url.Values{"code": {guess}}) })
		}
		wg.Wait()
		if n := c.sb.AllCalls()["auth/loginConfirm"] - before; n > 3 {
			t.Errorf("%d guesses reached the provider, the limit is 3 per code", n)
		}
	})

	t.Run("a lesson moved on one keeps its calendar event on the other", func(t *testing.T) {
		page := "/orders/glk/" + sandbox.DemoLessonTransferable
		var form url.Values
		for off := 1; off <= 28 && form == nil; off++ {
			date := time.Now().AddDate(0, 0, off).Format("2006-01-02")
			_, body := c.do(owner, 0, http.MethodGet, page+"/transfer?date="+date, nil)
			if m := lessonField.FindStringSubmatch(body); m != nil {
				form = url.Values{"date": {date}, "lessonId": {m[1]}, "token": {tokenField.FindStringSubmatch(body)[1]}}
			}
		}
		if form == nil {
			t.Fatal("no lesson to move to in a month")
		}
		res, body := c.do(owner, 0, http.MethodPost, page+"/transfer", form)
		moved := res.Header.Get("Location")
		if res.StatusCode != http.StatusSeeOther || !strings.HasPrefix(moved, "/orders/glk/") || moved == page {
			t.Fatalf("move: %d → %q %s", res.StatusCode, moved, body)
		}
		res, ics := c.do(owner, 1, http.MethodGet, moved+"/calendar.ics", nil)
		if want := "UID:glk-" + sandbox.DemoLessonTransferable + "@lk"; res.StatusCode != http.StatusOK || !strings.Contains(ics, want) {
			t.Errorf("the moved lesson's calendar on the other instance: %d, no %q in\n%s", res.StatusCode, want, ics)
		}
	})

	t.Run("a sign-out on one is refused on the other", func(t *testing.T) {
		stolen := *owner // the same cookies, copied before the sign-out
		jar, _ := cookiejar.New(nil)
		u, _ := url.Parse(c.nodes[0].URL)
		jar.SetCookies(u, owner.Jar.Cookies(u))
		stolen.Jar = jar
		if res, _ := c.do(owner, 1, http.MethodPost, "/logout", nil); res.StatusCode != http.StatusSeeOther {
			t.Fatalf("sign-out: %d", res.StatusCode)
		}
		if res, _ := c.do(&stolen, 0, http.MethodGet, "/orders", nil); res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/login" {
			t.Errorf("the signed-out cookie on the other instance: %d → %q", res.StatusCode, res.Header.Get("Location"))
		}
	})
}

// A double click split by the balancer: every request carries the same
// sign-in cookie and none has the other's answer yet. The provider checks
// the code once and every click is signed in, whichever instance it reached.
func TestRightCodeOnBothInstancesSignsInOnce(t *testing.T) {
	c := newCluster(t)
	first := c.browser()
	if res, _ := c.do(first, 0, http.MethodPost, "/login", url.Values{"phone": {"79000000000"}}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("code request: %d", res.StatusCode)
	}
	code, _ := sandboxtest.LastCode(c.sb, "79000000000")
	u, _ := url.Parse(c.nodes[0].URL)
	clicks := make([]*http.Client, 10)
	for i := range clicks {
		clicks[i] = c.browser()
		clicks[i].Jar.SetCookies(u, first.Jar.Cookies(u))
	}
	var wg sync.WaitGroup
	for i, b := range clicks {
		wg.Go(func() {
			res, _ := c.do(b, i%2, http.MethodPost, "/login/code", url.Values{"code": {code}})
			if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/" {
				t.Errorf("click %d on instance %d: %d → %q", i, i%2, res.StatusCode, res.Header.Get("Location"))
			}
		})
	}
	wg.Wait()
	if n := c.sb.AllCalls()["auth/loginConfirm"]; n != 1 {
		t.Errorf("auth/loginConfirm called %d times, want 1", n)
	}
	for i, b := range clicks {
		if res, _ := c.do(b, (i+1)%2, http.MethodGet, "/orders", nil); res.StatusCode != http.StatusOK {
			t.Errorf("click %d: /orders on the other instance: %d", i, res.StatusCode)
		}
	}
}

// Redis stopped: not ready, no code sent without its limits, no session let
// in unchecked, the login page still served; back by itself afterwards.
func TestInstancesWithoutRedis(t *testing.T) {
	c := newCluster(t)
	owner := c.browser()
	c.signIn(owner, "79000000000", 0, 0)
	calls := c.sb.AllCalls()["auth/login2f"]
	c.redis.Stop()

	if res, _ := c.do(owner, 0, http.MethodGet, "/readyz", nil); res.StatusCode == http.StatusOK {
		t.Error("/readyz is 200 with Redis stopped")
	}
	res, body := c.do(c.browser(), 0, http.MethodPost, "/login", url.Values{"phone": {"79000000001"}})
	if res.StatusCode < 500 || !strings.Contains(body, "Попробуйте позже") {
		t.Errorf("code request without Redis: %d", res.StatusCode)
	}
	if n := c.sb.AllCalls()["auth/login2f"]; n != calls {
		t.Errorf("a code was sent without its limits (%d calls)", n-calls)
	}
	res, body = c.do(owner, 1, http.MethodGet, "/orders", nil)
	if res.StatusCode != http.StatusServiceUnavailable || !strings.Contains(body, "Попробуйте позже") || strings.Contains(body, "Активные заказы") {
		t.Errorf("an unchecked session: %d", res.StatusCode)
	}
	if res, _ := c.do(c.browser(), 1, http.MethodGet, "/login", nil); res.StatusCode != http.StatusOK {
		t.Errorf("/login without Redis: %d", res.StatusCode)
	}

	c.redis.Restart()
	deadline := time.Now().Add(10 * time.Second)
	for {
		res, _ := c.do(owner, 1, http.MethodGet, "/orders", nil)
		if res.StatusCode == http.StatusOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("not back after Redis returned: %d", res.StatusCode)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// The embedded default keeps sign-outs in the data folder: a signed-out
// cookie stays refused after the server restarts with the same keys.
func TestSignOutSurvivesRestart(t *testing.T) {
	sb, sbSrv := sandboxServer(t)
	key, path := web.RandomKey(), tempFile(t, "revoked-sessions")
	static, _ := fs.Sub(lk.Static, "static")
	assets, _ := views.LoadAssets(static, "css/app.css", "dist", "/static/dist/")
	start := func() (*httptest.Server, func()) {
		rev, err := store.OpenFileRevoker(path, time.Now)
		if err != nil {
			t.Fatal(err)
		}
		gw, _ := gateway.NewClient(sbSrv.URL + "/v1")
		sessions, _ := web.NewSessions([]web.Key{key}, "", rev, time.Now)
		e, err := handlers.New(handlers.Options{Provider: gw, Sessions: sessions, Site: &views.Site{}, Assets: assets, Static: static})
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewTLSServer(e)
		return srv, func() { srv.Close(); rev.Close() }
	}
	srv, stop := start()
	c := &cluster{t: t, sb: sb, nodes: [2]*httptest.Server{srv, srv}}
	owner := c.browser()
	c.signIn(owner, "79000000000", 0, 0)
	u, _ := url.Parse(srv.URL)
	saved := owner.Jar.Cookies(u)
	if res, _ := c.do(owner, 0, http.MethodPost, "/logout", nil); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("sign-out: %d", res.StatusCode)
	}
	stop()

	srv, stop = start() // the restart: same keys, same data folder
	defer stop()
	c.nodes = [2]*httptest.Server{srv, srv}
	replay := c.browser()
	u, _ = url.Parse(srv.URL)
	replay.Jar.SetCookies(u, saved)
	if res, _ := c.do(replay, 0, http.MethodGet, "/orders", nil); res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/login" {
		t.Errorf("the signed-out cookie after a restart: %d → %q", res.StatusCode, res.Header.Get("Location"))
	}
}

// With Redis run as the operations manual asks, a sign-out outlives
// Redis's crash: a copy of the signed-out cookie stays out on both
// instances, while another customer's session goes on.
func TestSignOutSurvivesRedisCrash(t *testing.T) {
	c := newClusterOn(t, redistest.Start(t, redistest.Durable...))
	owner, other := c.browser(), c.browser()
	c.signIn(owner, "79000000000", 0, 0)
	c.signIn(other, sandbox.OtherPhone, 1, 1)
	u, _ := url.Parse(c.nodes[0].URL)
	saved := owner.Jar.Cookies(u)
	if res, _ := c.do(owner, 1, http.MethodPost, "/logout", nil); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("sign-out: %d", res.StatusCode)
	}
	c.redis.Stop() // SIGKILL
	c.redis.Restart()

	replay := c.browser()
	replay.Jar.SetCookies(u, saved)
	for node := range c.nodes {
		deadline := time.Now().Add(10 * time.Second)
		for {
			res, _ := c.do(replay, node, http.MethodGet, "/orders", nil)
			if res.StatusCode == http.StatusSeeOther && res.Header.Get("Location") == "/login" {
				break
			}
			if res.StatusCode != http.StatusServiceUnavailable || time.Now().After(deadline) { // 503: Redis not back yet
				t.Fatalf("node %d: the signed-out cookie after Redis's crash: %d → %q", node, res.StatusCode, res.Header.Get("Location"))
			}
			time.Sleep(50 * time.Millisecond)
		}
		if res, _ := c.do(other, node, http.MethodGet, "/orders", nil); res.StatusCode != http.StatusOK {
			t.Errorf("node %d: the other session after Redis's crash: %d", node, res.StatusCode)
		}
	}
}
