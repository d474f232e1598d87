package handlers_test

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/prometheus/client_golang/prometheus"

	"lk"
	"lk/gateway"
	"lk/gateway/sandbox"
	"lk/gateway/sandbox/sandboxtest"
	"lk/handlers"
	"lk/handlers/web"
	"lk/internal/testkit"
	"lk/store"
	"lk/store/redistest"
	"lk/views"
	"lk/wallet"
)

const (
	demoPhone  = "79000000000"
	otherPhone = "79000000001"
	publicURL  = "https://lk.example.ru" // where the tests' customers reach the account
)

// app is the whole product over HTTPS (so Secure cookies travel) on the real
// sandbox over HTTP, as in production.
type app struct {
	t      testing.TB
	srv    *httptest.Server
	sb     *sandbox.Sandbox
	sbSrv  *httptest.Server
	gw     *gateway.Client
	clock  *testkit.Clock
	client *http.Client
	logs   *testkit.Buffer      // the server's log
	reg    *prometheus.Registry // what the debug listener's /metrics would show
}

func newApp(t testing.TB) *app { t.Helper(); return newAppWith(t, nil) }

// newAppWith lets wrap replace the provider, for faults the sandbox cannot make.
func newAppWith(t testing.TB, wrap func(handlers.Provider) handlers.Provider) *app {
	t.Helper()
	return newAppFull(t, wrap, gateway.WithRetries(0))
}

// newAppWithClient builds the gateway client with opts (breaker, timeouts).
func newAppWithClient(t testing.TB, opts ...gateway.Option) *app {
	t.Helper()
	return newAppFull(t, nil, opts...)
}

func newAppFull(t testing.TB, wrap func(handlers.Provider) handlers.Provider, opts ...gateway.Option) *app {
	t.Helper()
	return newAppSetup(t, setup{wrap: wrap, gateway: opts})
}

// newAppOptions lets set change the server's options before it starts.
func newAppOptions(t testing.TB, wrap func(handlers.Provider) handlers.Provider, set func(*handlers.Options), opts ...gateway.Option) *app {
	t.Helper()
	return newAppSetup(t, setup{wrap: wrap, gateway: opts, options: set})
}

// newAppAt is the app with the server and the sandbox on one clock standing
// at now (a.clock moves both), and now's zone as the resort's (LK_TIMEZONE).
func newAppAt(t testing.TB, now time.Time) *app {
	t.Helper()
	return newAppSetup(t, setup{now: now, gateway: []gateway.Option{gateway.WithRetries(0)}})
}

// setup is what a test may change of the app: the provider, the gateway
// client's options, the clock (zero: the tests' today, testkit.Now, in
// Moscow), the shared store (see storeSetups; revoker and limiter replace
// its parts) and the server's own options.
type setup struct {
	wrap    func(handlers.Provider) handlers.Provider
	gateway []gateway.Option
	now     time.Time
	debug   bool   // the server and the gateway client log at debug level
	stores  string // one of storeSetups; "" is the test's (see underStores)
	revoker store.Revoker
	limiter store.Limiter
	options func(*handlers.Options)
	// provider wraps the sandbox's handler: a test watching what the
	// provider receives.
	provider func(http.Handler) http.Handler
}

func newAppSetup(t testing.TB, su setup) *app {
	t.Helper()
	runAlongside(t)
	wrap, opts := su.wrap, su.gateway
	// One clock for the server and the sandbox: the tests' today unless the
	// test pins its own instant.
	clk := testkit.NewClock(testkit.Now())
	var loc *time.Location
	if !su.now.IsZero() {
		clk, loc = testkit.NewClock(su.now), su.now.Location()
		opts = append(opts, gateway.WithLocation(loc))
	}
	sb, err := sandbox.New(sandbox.Config{Now: clk.Now, Location: loc})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sb.Close() })
	var sbHandler http.Handler = sb.Handler()
	if su.provider != nil {
		sbHandler = su.provider(sbHandler)
	}
	sbSrv := httptest.NewServer(sbHandler)
	t.Cleanup(sbSrv.Close)
	logs := &testkit.Buffer{}
	level := slog.LevelInfo
	if su.debug {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: level}))
	reg := prometheus.NewRegistry()
	gw, err := gateway.NewClient(sbSrv.URL+"/v1", append([]gateway.Option{gateway.WithLogger(log), gateway.WithRegisterer(reg), gateway.WithClock(clk.Now)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	st := openStores(t, cmp.Or(su.stores, storesOf(t)), clk.Now)
	if su.revoker == nil {
		su.revoker = st.Revoker
	}
	if su.limiter == nil {
		su.limiter = st.Limiter
	}
	sessions, err := web.NewSessions([]web.Key{web.RandomKey()}, "", su.revoker, clk.Now)
	if err != nil {
		t.Fatal(err)
	}
	static, _ := fs.Sub(lk.Static, "static")
	assets, err := views.LoadAssets(static, "css/app.css", "dist", "/static/dist/")
	if assets == nil {
		t.Fatal(err)
	}
	var provider handlers.Provider = gw
	if wrap != nil {
		provider = wrap(gw)
	}
	o := handlers.Options{
		Provider: provider, Sessions: sessions, Limiter: su.limiter,
		Once: st.Once, Leases: st.Leases, Files: st.Files, Moves: st.Moves, Acts: st.Acts, Numbers: st.Numbers, Kept: st.Kept, StorePing: st.Ping,
		Site:   &views.Site{MainURL: "https://example.ru/", SupportPhone: "+7 (800) 000-00-00", SandboxURL: sbSrv.URL},
		Assets: assets, Static: static, Logger: log, Now: clk.Now, Location: loc, PublicURL: publicURL, Registry: reg,
		// A page is shown loading only where a test asks: a loaded machine
		// is slow to answer without the provider being slow.
		LoadingAfter: time.Minute,
		// As in sandbox mode: the demo's passes.
		Wallet: handlers.Wallet{Signer: demoSigner(t)},
	}
	if su.options != nil {
		su.options(&o)
	}
	e, err := handlers.New(o)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewTLSServer(e)
	t.Cleanup(srv.Close)
	a := &app{t: t, srv: srv, sb: sb, sbSrv: sbSrv, gw: gw, clock: clk, logs: logs, reg: reg}
	a.client = a.newClient()
	return a
}

// The demo certificate, made once: RSA keys take a while under -race.
var demoCredentials = sync.OnceValues(func() (wallet.Credentials, error) { return wallet.NewDemo(time.Now()) })

func demoSigner(t testing.TB) *wallet.Signer {
	t.Helper()
	c, err := demoCredentials()
	if err == nil {
		var s *wallet.Signer
		if s, err = wallet.Load(c, time.Now()); err == nil {
			return s
		}
	}
	t.Fatal(err)
	return nil
}

// The setups of the shared state a server may run with, the default
// first: the data folder of one instance, memory, and Redis of several.
var storeSetups = []string{"folder", "memory", "redis"}

// openStores opens the setup named, on a folder and a Redis of the test's own.
func openStores(t testing.TB, name string, now func() time.Time) store.Set {
	t.Helper()
	switch name {
	case "folder":
		st, err := store.Folder{Dir: t.TempDir(), Now: now, KeptDocuments: store.RefundStoreLimit}.Open()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		return st
	case "memory":
		return store.Memory(now, store.RefundStoreLimit)
	case "redis":
		return store.InRedis(startRedis(t).Open(), store.RefundStoreLimit)
	}
	t.Fatalf("no store setup %q", name)
	return store.Set{}
}

// storesChosen holds, by test name, the setup chosen for a test and its
// subtests (see TestStateUnderEverySetup).
var storesChosen sync.Map

// storesOf is the setup chosen for t or a test it runs in; the default
// setup, the data folder, when none is.
func storesOf(t testing.TB) string {
	for name := t.Name(); name != ""; {
		if s, ok := storesChosen.Load(name); ok {
			return s.(string)
		}
		i := strings.LastIndexByte(name, '/')
		if i < 0 {
			break
		}
		name = name[:i]
	}
	return storeSetups[0]
}

// instance starts another instance of the app with opts, as a.srv, and
// answers its URL; its metrics go nowhere (a registry is one instance's).
func (a *app) instance(opts handlers.Options) string {
	a.t.Helper()
	opts.Registry = nil
	e, err := handlers.New(opts)
	if err != nil {
		a.t.Fatal(err)
	}
	srv := httptest.NewTLSServer(e)
	a.t.Cleanup(srv.Close)
	return srv.URL
}

// plain serves the app over plain HTTP too, as it is served behind a
// proxy that ends TLS, until the test ends.
func (a *app) plain() *httptest.Server {
	srv := httptest.NewServer(a.srv.Config.Handler)
	a.t.Cleanup(srv.Close)
	return srv
}

// startRedis is a real redis-server of the test's own, configured as the
// operations manual asks (an append-only file written before each write is
// answered), in a folder that outlives its restarts.
func startRedis(t testing.TB) *redistest.Server { return redistest.Start(t, redistest.Durable...) }

// parallel runs f n times at once and waits for all.
func parallel(n int, f func(i int)) {
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Go(func() { <-start; f(i) })
	}
	close(start)
	wg.Wait()
}

// atOnce sends n requests at once and gives their answers in order.
func atOnce(n int, send func(i int) *resp) []*resp {
	out := make([]*resp, n)
	parallel(n, func(i int) { out[i] = send(i) })
	return out
}

// byStatus counts answers by status.
func byStatus(answers []*resp) map[int]int {
	m := map[int]int{}
	for _, r := range answers {
		m[r.StatusCode]++
	}
	return m
}

// alongside holds the tests already running alongside others.
var alongside sync.Map

// runAlongside lets a test that builds an app run at the same time as the
// other such tests: each app has its own sandbox, servers, clock and logs,
// and under the race detector the suite is bound by CPU, not by waiting.
func runAlongside(t testing.TB) {
	if tt, ok := t.(*testing.T); ok {
		if _, done := alongside.LoadOrStore(tt, true); !done {
			tt.Parallel()
		}
	}
}

// runAlone keeps a test out of the parallel run: one that measures the
// whole process (its peak memory) must not count the others' work.
func runAlone(t *testing.T) { alongside.Store(t, true) }

// newClient is a browser of its own: its own cookies, no redirects followed.
func (a *app) newClient() *http.Client {
	jar, _ := cookiejar.New(nil)
	c := *a.srv.Client() // a copy: the server's client is one shared value
	c.Jar = jar
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &c
}

// resp is an answer as a test reads it.
type resp struct {
	*http.Response
	body string
	doc  *goquery.Document
}

func (r *resp) text(sel string) string { return strings.TrimSpace(r.doc.Find(sel).Text()) }

// json reads the answer's body, an island's JSON, into v.
func (r *resp) json(v any) error { return json.Unmarshal([]byte(r.body), v) }

// props reads the props the page gives its island, the JSON script #id,
// into v.
func (r *resp) props(id string, v any) error {
	return json.Unmarshal([]byte(r.doc.Find("script#"+id).Text()), v)
}

// asIsland is what an island's fetch adds to a request: it asks for JSON.
var asIsland = http.Header{"Accept": {"application/json"}}

func (a *app) do(c *http.Client, req *http.Request) *resp {
	a.t.Helper()
	res, err := c.Do(req)
	if err != nil {
		a.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	doc, _ := goquery.NewDocumentFromReader(bytes.NewReader(b))
	return &resp{Response: res, body: string(b), doc: doc}
}

func (a *app) get(path string) *resp { return a.getWith(a.client, path) }

// send asks for path with method and header, as a script, a proxy or a
// robot would, where a page link would not.
func (a *app) send(method, path string, header http.Header) *resp {
	a.t.Helper()
	req, _ := http.NewRequest(method, a.srv.URL+path, nil)
	for k, v := range header {
		req.Header[k] = v
	}
	return a.do(a.client, req)
}

func (a *app) getWith(c *http.Client, path string) *resp {
	a.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, a.srv.URL+path, nil)
	return a.do(c, req)
}

func (a *app) post(path string, form url.Values) *resp { return a.postWith(a.client, path, form, nil) }

func (a *app) postWith(c *http.Client, path string, form url.Values, header http.Header) *resp {
	a.t.Helper()
	return a.postTo(c, a.srv.URL, path, form, header)
}

// postTo posts form to path on the instance at base: a.srv.URL or
// another instance's (see instance).
func (a *app) postTo(c *http.Client, base, path string, form url.Values, header http.Header) *resp {
	a.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, base+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for k, v := range header {
		req.Header[k] = v
	}
	return a.do(c, req)
}

// code is the last SMS code the sandbox sent to phone.
func (a *app) code(phone string) string {
	a.t.Helper()
	code, ok := sandboxtest.LastCode(a.sb, phone)
	if !ok {
		a.t.Fatalf("no code sent to %s", phone)
	}
	return code
}

// signIn signs c in as phone with JavaScript off.
func (a *app) signIn(c *http.Client, phone string) {
	a.t.Helper()
	r := a.postWith(c, "/login", url.Values{"phone": {phone}}, nil)
	if r.StatusCode != http.StatusSeeOther {
		a.t.Fatalf("POST /login: %d\n%s", r.StatusCode, r.body)
	}
	r = a.postWith(c, "/login/code", url.Values{"code": {a.code(phone)}}, nil)
	if r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/" {
		a.t.Fatalf("POST /login/code: %d %s\n%s", r.StatusCode, r.Header.Get("Location"), r.body)
	}
	a.clock.Add(61 * time.Second) // the next code for this phone is allowed
}

// wrongCodes are n different codes, none of them right.
func wrongCodes(right string, n int) []string {
	var out []string
	for i := 0; len(out) < n; i++ {
		if c := fmt.Sprintf("%04d", i); c != right {
			out = append(out, c)
		}
	}
	return out
}

func wrongCode(right string) string {
	if right == "0000" {
		return "1111"
	}
	return "0000"
}

// behindProxy lets the test's customers come from addresses of their own
// (X-Forwarded-For from a trusted proxy on loopback), as many customers
// do: the per-address code limit is not what these tests are about.
func behindProxy(o *handlers.Options) {
	_, lo, _ := net.ParseCIDR("127.0.0.1/32")
	o.TrustedProxies = append(o.TrustedProxies, lo)
}

// signedIn is the app with its client signed in as the demo customer.
func signedIn(t *testing.T) *app {
	t.Helper()
	a := newApp(t)
	a.signIn(a.client, demoPhone)
	return a
}

// day is the resort's date today+off, on the app's clock, as the pages
// show it, "21.11.2026".
func (a *app) day(off int) string {
	return a.clock.Now().In(gateway.ResortLocation()).AddDate(0, 0, off).Format("02.01.2006")
}

// rub writes an amount as the pages do: "2 500 ₽" with a narrow no-break
// space between thousands and a no-break space before the sign.
func rub(s string) string {
	s = strings.Replace(s, " ₽", "\u00a0₽", 1)
	return strings.ReplaceAll(s, " ", "\u202f")
}

// kv is the value next to the <dt> whose text is key, within sel.
func (r *resp) kv(sel, key string) string {
	out := ""
	r.doc.Find(sel + " dl.kv dt").EachWithBreak(func(_ int, dt *goquery.Selection) bool {
		if strings.TrimSpace(dt.Text()) == key {
			out = strings.TrimSpace(dt.Next().Text())
			return false
		}
		return true
	})
	return out
}

// card is the order card (list item or detail article) of kind and id.
func (r *resp) card(kind, id string) *goquery.Selection {
	return r.doc.Find(`[data-kind="` + kind + `"][data-id="` + id + `"]`)
}

// formValues is what a browser sends of the form posting to action on
// page r: its hidden fields (the one-time token among them).
func (r *resp) formValues(action string) url.Values {
	v := url.Values{}
	r.doc.Find(`form[action="` + action + `"] input[type="hidden"]`).Each(func(_ int, in *goquery.Selection) {
		v.Add(in.AttrOr("name", ""), in.AttrOr("value", ""))
	})
	return v
}

// submit opens page as c and posts its form to action, as a browser would,
// with extra answers added.
func (a *app) submit(c *http.Client, page, action string, extra url.Values) *resp {
	a.t.Helper()
	p := a.getWith(c, page)
	if p.doc.Find(`form[action="`+action+`"]`).Length() == 0 {
		a.t.Fatalf("%s: no form posting to %s (status %d)", page, action, p.StatusCode)
	}
	form := p.formValues(action)
	for k, vs := range extra {
		form[k] = vs
	}
	return a.postWith(c, action, form, nil)
}

// browserForm is what a browser sends of the form posting to action on page
// r: its hidden, text, e-mail and phone inputs and text areas as shown, and
// the checked boxes that are not disabled (files are added by postFiles).
func (r *resp) browserForm(action string) url.Values {
	v := url.Values{}
	form := r.doc.Find(`form[action="` + action + `"], form[action^="` + action + `?"]`)
	form.Find(`input`).Each(func(_ int, in *goquery.Selection) {
		name := in.AttrOr("name", "")
		_, disabled := in.Attr("disabled")
		_, checked := in.Attr("checked")
		switch in.AttrOr("type", "text") {
		case "hidden", "text", "email", "tel":
			v.Add(name, in.AttrOr("value", ""))
		case "checkbox", "radio":
			if checked && !disabled {
				v.Add(name, in.AttrOr("value", ""))
			}
		}
	})
	form.Find(`textarea`).Each(func(_ int, t *goquery.Selection) { v.Add(t.AttrOr("name", ""), t.Text()) })
	return v
}

// formAction is where the browser posts the form for action on page r: the
// refund form's URL carries its token.
func (r *resp) formAction(action string) string {
	return r.doc.Find(`form[action="`+action+`"], form[action^="`+action+`?"]`).AttrOr("action", action)
}
