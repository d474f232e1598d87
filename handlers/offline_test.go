package handlers_test

import (
	"bytes"
	"image"
	_ "image/png"
	"io/fs"
	"net/http"
	"net/url"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"lk"
	"lk/gateway/sandbox"
)

// The offline worker learns whose pages it keeps from LK-Session: a token
// per sign-in on the customer's answers, "none" once nobody is signed in.
func TestSessionMarkTellsTheWorkerWhoIsSignedIn(t *testing.T) {
	a := newApp(t)
	if got := a.get("/login").Header.Get("LK-Session"); got != "none" {
		t.Errorf("/login: LK-Session %q, want none", got)
	}
	if got := a.get("/orders").Header.Get("LK-Session"); got != "none" {
		t.Errorf("/orders signed out: LK-Session %q, want none", got)
	}
	if got := a.get("/static/favicon.svg").Header.Get("LK-Session"); got != "" {
		t.Errorf("a static file is marked %q", got)
	}

	a.signIn(a.client, demoPhone)
	home := a.get("/")
	first := home.Header.Get("LK-Session")
	if first == "" || first == "none" {
		t.Fatalf("/ signed in: LK-Session %q", first)
	}
	// The same token in a cookie the worker reads offline: without it (the
	// site's cookies removed) it shows no copy.
	if c := cookieNamed(home.Cookies(), copiesCookie); c == nil || c.Value != first || c.HttpOnly || !c.Secure || c.Path != "/" {
		t.Errorf("the copies' cookie: %+v, want %q, readable by the worker", c, first)
	}
	if c := cookieNamed(a.get("/orders").Cookies(), copiesCookie); c != nil {
		t.Errorf("the copies' cookie set again: %+v", c)
	}
	// It says when the sign-in ends, so that copies on a phone offline at
	// that moment stop being shown.
	_, end, _ := strings.Cut(first, ".")
	if n, err := strconv.ParseInt(end, 10, 64); err != nil || time.Unix(n, 0).After(a.clock.Now().Add(sessionTTL)) ||
		time.Unix(n, 0).Before(a.clock.Now().Add(sessionTTL-time.Hour)) {
		t.Errorf("LK-Session %q: the sign-in's end %q, want %v (signed in just now)", first, end, a.clock.Now().Add(sessionTTL))
	}
	for _, p := range []string{"/orders", "/orders/aqua/" + sandbox.DemoAquaPaid, "/orders/aqua/" + sandbox.DemoAquaPaid + "/ticket.pdf", "/no-such-page"} {
		if got := a.get(p).Header.Get("LK-Session"); got != first {
			t.Errorf("%s: LK-Session %q, want the same sign-in's %q", p, got, first)
		}
	}
	u, _ := url.Parse(a.srv.URL)
	for _, c := range a.client.Jar.Cookies(u) {
		if c.Name != copiesCookie && (strings.Contains(first, c.Value) || strings.Contains(c.Value, first)) {
			t.Errorf("the token repeats cookie %s", c.Name)
		}
	}

	// Signing out: the browser is told to drop its cache and storage, and
	// the worker that nobody is signed in.
	out := a.post("/logout", nil)
	if out.StatusCode != http.StatusSeeOther {
		t.Fatalf("logout: %d", out.StatusCode)
	}
	if got := out.Header.Get("Clear-Site-Data"); got != `"cache", "storage"` {
		t.Errorf("logout: Clear-Site-Data %q", got)
	}
	if got := out.Header.Get("LK-Session"); got != "none" {
		t.Errorf("logout: LK-Session %q, want none", got)
	}
	if c := cookieNamed(out.Cookies(), copiesCookie); c == nil || c.MaxAge >= 0 {
		t.Errorf("logout: the copies' cookie not deleted: %+v", c)
	}
	if got := a.get("/orders").Header.Get("LK-Session"); got != "none" {
		t.Errorf("after logout /orders: LK-Session %q", got)
	}

	// A new sign-in is another owner: the copies of the old one are dropped.
	a.signIn(a.client, demoPhone)
	if second := a.get("/").Header.Get("LK-Session"); second == "" || second == "none" || second == first {
		t.Errorf("a new sign-in's token %q (the old one %q)", second, first)
	}
}

func TestProviderRefusalTellsTheWorkerTheSessionEnded(t *testing.T) {
	_, r, _ := refusedHome(t)
	if r.StatusCode != http.StatusUnauthorized {
		t.Fatalf("status %d", r.StatusCode)
	}
	if got := r.Header.Get("LK-Session"); got != "none" {
		t.Errorf("the provider refused the token, but LK-Session is %q", got)
	}
	if r.doc.Find("html[data-worker]").Length() != 0 || r.Header.Get("LK-Keep") != "" {
		t.Error("a refused session's page offers the worker or documents")
	}
}

// tomorrowsAqua is the demo water-park order of tomorrow: the sandbox puts
// one on the first weekday and one on the first weekend day after today.
func (a *app) tomorrowsAqua() string {
	if a.weekend(1) {
		return sandbox.DemoAquaVIPRefunded
	}
	return sandbox.DemoAquaPaid
}

func TestListsNameTodaysAndTomorrowsDocuments(t *testing.T) {
	a := signedIn(t)
	want := []string{
		"/orders/aqua/" + sandbox.DemoAquaToday + "/ticket.pdf",
		"/orders/aqua/" + a.tomorrowsAqua() + "/ticket.pdf",
		// Their Wallet passes, and tomorrow's lesson's.
		"/orders/aqua/" + sandbox.DemoAquaToday + "/ticket.pkpass",
		"/orders/aqua/" + a.tomorrowsAqua() + "/tickets.pkpasses",
		"/orders/glk/" + sandbox.DemoLessonConfirmable + "/lesson.pkpass",
	}
	slices.Sort(want)
	for _, p := range []string{"/", "/orders"} {
		r := a.get(p)
		got := strings.Fields(r.Header.Get("LK-Keep"))
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("%s: LK-Keep %q, want %q", p, got, want)
		}
		if r.doc.Find(`html[data-worker="/sw.js"]`).Length() != 1 || r.doc.Find(`script[type=module]`).Length() != 1 {
			t.Errorf("%s does not register the worker", p)
		}
		// Each named document opens for this customer.
		for _, doc := range got {
			ctype := map[string]string{".pdf": "application/pdf", ".pkpass": "application/vnd.apple.pkpass", ".pkpasses": "application/vnd.apple.pkpasses"}[path.Ext(doc)]
			if d := a.get(doc); d.StatusCode != http.StatusOK || d.Header.Get("Content-Type") != ctype {
				t.Errorf("%s: %d %q", doc, d.StatusCode, d.Header.Get("Content-Type"))
			}
		}
	}
	// An order's page names none and has no mount loop: the worker
	// registered on the lists covers it.
	r := a.get("/orders/aqua/" + sandbox.DemoAquaPaid)
	if r.Header.Get("LK-Keep") != "" || r.doc.Find("html[data-worker]").Length() != 0 || r.doc.Find(`script[src*="/main-"]`).Length() != 0 {
		t.Errorf("the order page: LK-Keep %q, worker %d", r.Header.Get("LK-Keep"), r.doc.Find("html[data-worker]").Length())
	}

	// Another customer's lists name none of the demo customer's documents.
	other := a.newClient()
	a.signIn(other, otherPhone)
	for _, p := range []string{"/", "/orders"} {
		if got := a.getWith(other, p).Header.Get("LK-Keep"); strings.Contains(got, "/30000") || strings.Contains(got, "/40000") {
			t.Errorf("%s for another customer names %q", p, got)
		}
	}
}

// A document a kind has not, one that may not be opened (unpaid,
// cancelled) and one not of today or tomorrow are never named.
func TestListsNameNoOtherDocuments(t *testing.T) {
	a := signedIn(t)
	got := a.get("/orders").Header.Get("LK-Keep")
	for _, id := range []string{sandbox.DemoAquaUnpaid, sandbox.DemoAquaCanceled, sandbox.DemoAquaPast, sandbox.DemoHotelPaid, sandbox.DemoHotelUnpaid} {
		if strings.Contains(got, "/"+id+"/") {
			t.Errorf("LK-Keep names %s: %q", id, got)
		}
	}
	if strings.Contains(got, "/pavilion/") || strings.Contains(got, "/celRoom/") {
		t.Errorf("LK-Keep names a kind without documents: %q", got)
	}
	for _, f := range strings.Fields(got) {
		if strings.Contains(f, "/glk/") && f != "/orders/glk/"+sandbox.DemoLessonConfirmable+"/lesson.pkpass" {
			t.Errorf("LK-Keep names a lesson not of today or tomorrow, or not its pass: %q", f)
		}
	}
}

// workerImport finds an import statement or a dynamic import: a classic
// worker script can have neither.
// sessionTTL is how long a sign-in lasts.
const sessionTTL = 7 * 24 * time.Hour

// copiesCookie is the cookie the offline worker reads its sign-in's token from.
const copiesCookie = "__Host-lk_copies"

var workerImport = regexp.MustCompile(`(^|[;}\s])import\s*[({"'\x60*a-zA-Z]|\bimport\.meta\b`)

func TestWorkerScriptIsSmallOneFileAtTheRoot(t *testing.T) {
	a := newApp(t)
	res, raw := a.gzipGet("/sw.js")
	if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/javascript") {
		t.Fatalf("/sw.js: %d %q", res.StatusCode, res.Header.Get("Content-Type"))
	}
	if got := res.Header.Get("Cache-Control"); got != "no-cache" {
		t.Errorf("/sw.js Cache-Control %q, want no-cache (every update check asks the server)", got)
	}
	if res.Header.Get("Content-Encoding") != "gzip" {
		t.Fatal("/sw.js not compressed")
	}
	t.Logf("/sw.js: %d bytes gzip", len(raw))
	if len(raw) > 5*1024 {
		t.Errorf("/sw.js is %d bytes gzip, budget 5 KB", len(raw))
	}
	js := []byte(gunzip(t, raw))
	if m := workerImport.Find(js); m != nil {
		t.Errorf("the worker imports (%q): it must be one classic script", m)
	}
	for _, want := range []string{"LK-Session", "/offline", "caches"} {
		if !bytes.Contains(js, []byte(want)) {
			t.Errorf("/sw.js is not the offline worker: no %q", want)
		}
	}
}

func TestManifestNamesTheAppInRussianWithItsIcons(t *testing.T) {
	a := newApp(t)
	r := a.get("/manifest.webmanifest")
	if r.StatusCode != http.StatusOK || r.Header.Get("Content-Type") != "application/manifest+json" {
		t.Fatalf("manifest: %d %q", r.StatusCode, r.Header.Get("Content-Type"))
	}
	var m struct {
		Name, Scope, Display, Lang string
		ShortName                  string `json:"short_name"`
		StartURL                   string `json:"start_url"`
		Theme                      string `json:"theme_color"`
		Background                 string `json:"background_color"`
		Icons                      []struct{ Src, Sizes, Type, Purpose string }
	}
	if err := r.json(&m); err != nil {
		t.Fatal(err)
	}
	if m.Name != "Личный кабинет курорта" || m.ShortName == "" || m.Lang != "ru" || m.StartURL != "/" || m.Scope != "/" || m.Display != "standalone" {
		t.Errorf("manifest %+v", m)
	}
	// The site's own colours, as its stylesheet has them.
	css, _ := fs.ReadFile(lk.Static, "static/css/app.css")
	for _, c := range []string{"--c-brand:" + m.Theme + ";", "--c-bg:" + m.Background + ";"} {
		if !bytes.Contains(css, []byte(c)) {
			t.Errorf("app.css has no %q", c)
		}
	}
	sizes := map[string]bool{}
	for _, ic := range m.Icons {
		res := a.get(ic.Src)
		if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != ic.Type {
			t.Errorf("%s: %d %q", ic.Src, res.StatusCode, res.Header.Get("Content-Type"))
			continue
		}
		if ic.Type != "image/png" {
			continue
		}
		cfg, _, err := image.DecodeConfig(strings.NewReader(res.body))
		if err != nil {
			t.Errorf("%s: %v", ic.Src, err)
			continue
		}
		if got := strconv.Itoa(cfg.Width) + "x" + strconv.Itoa(cfg.Height); got != ic.Sizes {
			t.Errorf("%s is %s, the manifest says %s", ic.Src, got, ic.Sizes)
		}
		sizes[ic.Sizes+" "+ic.Purpose] = true
	}
	for _, want := range []string{"192x192 ", "512x512 ", "512x512 maskable"} {
		if !sizes[want] {
			t.Errorf("no %q icon", want)
		}
	}

	// Signed-in pages have it with the theme colour; the sign-in pages don't.
	// A page with the mount loop names it for the loop to link once its
	// islands are up; a page without script links it itself.
	if r := a.get("/login"); r.doc.Find(`link[rel=manifest], html[data-manifest]`).Length() != 0 {
		t.Error("/login has the manifest")
	}
	a.signIn(a.client, demoPhone)
	for _, p := range []string{"/", "/orders", "/profile/edit", "/orders/hotel/" + sandbox.DemoHotelPaid, "/orders/hotel/" + sandbox.DemoHotelPaid + "/transfer"} {
		r := a.get(p)
		scripted := r.doc.Find(`script[type=module][src*="/main-"]`).Length() > 0 // the mount loop
		linked := r.doc.Find(`link[rel=manifest][href="/manifest.webmanifest"]`).Length()
		named := r.doc.Find(`html[data-manifest="/manifest.webmanifest"]`).Length()
		if scripted && (linked != 0 || named != 1) || !scripted && (linked != 1 || named != 0) {
			t.Errorf("%s (module script: %v): manifest linked %d, named for the mount loop %d", p, scripted, linked, named)
		}
		if r.doc.Find(`meta[name=theme-color][content="`+m.Theme+`"]`).Length() != 1 {
			t.Errorf("%s lacks the theme colour", p)
		}
	}
}

func TestOfflinePageNamesNobody(t *testing.T) {
	a := signedIn(t)
	r := a.get("/offline")
	if r.StatusCode != http.StatusOK || r.text("h1") != "Нет соединения" {
		t.Fatalf("/offline: %d %q", r.StatusCode, r.text("h1"))
	}
	if strings.Contains(r.body, "Иван") || r.doc.Find(`form[action="/logout"]`).Length() != 0 {
		t.Error("the offline page shows the signed-in customer")
	}
	if r.doc.Find(`a[href="/"]`).Length() == 0 || r.doc.Find(`a[href="/orders"]`).Length() == 0 {
		t.Error("the offline page does not lead to the kept pages")
	}
	if r.Header.Get("Cache-Control") != "no-store" {
		t.Errorf("Cache-Control %q", r.Header.Get("Cache-Control"))
	}
}

// What the phone keeps is the worker's, bounded and dropped at sign-out;
// the browser's own cache keeps nothing of an account page or document.
func TestAccountAnswersAreNeverInTheBrowsersCache(t *testing.T) {
	a := signedIn(t)
	for _, p := range []string{"/", "/orders", "/orders/aqua/" + sandbox.DemoAquaPaid, "/orders/aqua/" + sandbox.DemoAquaPaid + "/ticket.pdf", "/profile/edit", "/login", "/offline"} {
		if got := a.get(p).Header.Get("Cache-Control"); got != "no-store" {
			t.Errorf("%s: Cache-Control %q, want no-store", p, got)
		}
	}
}

func cookieNamed(cs []*http.Cookie, name string) *http.Cookie {
	for _, c := range cs {
		if c.Name == name {
			return c
		}
	}
	return nil
}
