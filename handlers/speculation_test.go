package handlers_test

import (
	"encoding/json"
	"maps"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"lk/gateway"
	"lk/gateway/sandbox"
	"lk/handlers"
)

// What a browser sends for a page its speculation rules render ahead.
var (
	asPrerender = http.Header{"Sec-Purpose": {"prefetch;prerender"}}
	asPrefetch  = http.Header{"Sec-Purpose": {"prefetch"}}
)

type specRule struct {
	Source    string         `json:"source"`
	Where     map[string]any `json:"where"`
	URLs      []string       `json:"urls"`
	Eagerness string         `json:"eagerness"`
}

type specRules struct {
	Prefetch  []specRule `json:"prefetch"`
	Prerender []specRule `json:"prerender"`
}

func rulesOf(t *testing.T, r *resp) (specRules, bool) {
	t.Helper()
	el := r.doc.Find(`script[type="speculationrules"]`)
	if el.Length() == 0 {
		return specRules{}, false
	}
	if el.Length() != 1 {
		t.Fatalf("%d speculation rules", el.Length())
	}
	nonce, _ := el.Attr("nonce")
	if nonce == "" || !strings.Contains(r.Header.Get("Content-Security-Policy"), "'nonce-"+nonce+"'") {
		t.Errorf("speculation rules without the answer's CSP nonce (%q)", nonce)
	}
	var rules specRules
	if err := json.Unmarshal([]byte(el.Text()), &rules); err != nil {
		t.Fatalf("speculation rules: %v in %s", err, el.Text())
	}
	return rules, true
}

// The signed-in pages tell the browser of the links a customer takes next:
// an order of a list, the move of an order. Only links marked so, each a
// page (never a form, a document or a calendar file): fetched when in view
// on a phone ("eager"), rendered when a finger rests on one ("moderate");
// an order names its move for islands/next to render once the order page
// is idle. Not on public pages, and nothing under Save-Data.
func TestSpeculationRules(t *testing.T) {
	a := signedIn(t)
	order := "/orders/glk/" + sandbox.DemoLessonTransferable
	for _, path := range []string{"/", "/orders", order, "/orders/glk/" + sandbox.DemoLessonPast} {
		r := a.get(path)
		rules, ok := rulesOf(t, r)
		if !ok {
			t.Fatalf("%s: no speculation rules", path)
		}
		marked := func(rs []specRule, eagerness string) bool {
			return len(rs) > 0 && rs[0].Source == "document" && rs[0].Where["selector_matches"] == "a[data-next]" && rs[0].Eagerness == eagerness
		}
		if len(rules.Prefetch) != 1 || !marked(rules.Prefetch, "eager") || !marked(rules.Prerender, "moderate") {
			t.Errorf("%s: rules %+v", path, rules)
		}
		r.doc.Find("a[data-next]").Each(func(_ int, s *goquery.Selection) {
			href, _ := s.Attr("href")
			u, err := url.Parse(href)
			parts := strings.Split(strings.Trim(u.Path, "/"), "/")
			if err != nil || u.Host != "" || parts[0] != "orders" || len(parts) < 3 || len(parts) > 4 || (len(parts) == 4 && parts[3] != "transfer") {
				t.Errorf("%s: marked link %q is not an order or its move", path, href)
			}
			if _, dl := s.Attr("download"); dl || s.Closest("form").Length() > 0 {
				t.Errorf("%s: marked link %q is a download or in a form", path, href)
			}
		})
	}
	if r := a.get("/orders"); r.doc.Find(".oc h3 a[data-next]").Length() == 0 {
		t.Error("/orders: the orders are not marked")
	}

	r := a.get(order)
	rules, _ := rulesOf(t, r)
	move := order + "/transfer"
	if len(rules.Prerender) != 1 {
		t.Errorf("order with a move: rules %+v, want its move added once the page is idle", rules)
	}
	if page, _ := r.doc.Find("template#next-assets").Attr("data-page"); page != move {
		t.Errorf("order with a move: the page to render ahead %q, want %s", page, move)
	}
	if r.doc.Find(`a[data-next][href="`+move+`"]`).Length() != 1 {
		t.Errorf("order with a move: 'Перенести' not marked")
	}
	files := r.doc.Find("template#next-assets").Nodes
	if len(files) != 1 {
		t.Fatalf("order with a move: %d lists of the move's files", len(files))
	}
	html, _ := r.doc.Find("template#next-assets").Html()
	if !strings.Contains(html, `rel="prefetch"`) || !strings.Contains(html, "/static/dist/assets/calendar-") || !strings.Contains(html, "fetchpriority=\"low\"") {
		t.Errorf("order with a move: the move's files %s", html)
	}
	// The script comes inline, with the page's nonce: the order page asks
	// for nothing more, so that rendered ahead it has loaded before a tap.
	script := r.doc.Find(`script#next-script[type="module"]`)
	if nonce, _ := script.Attr("nonce"); script.Length() != 1 || nonce == "" || !strings.Contains(r.Header.Get("Content-Security-Policy"), "'nonce-"+nonce+"'") ||
		!strings.Contains(script.Text(), "next-assets") || script.AttrOr("src", "") != "" {
		t.Errorf("order with a move: the script to fetch its files is not inline: %d, nonce %q", script.Length(), nonce)
	}
	if n := r.doc.Find(`script[src]`).Length(); n != 0 {
		t.Errorf("order with a move: %d scripts fetched by the page, want none", n)
	}

	past := a.get("/orders/glk/" + sandbox.DemoLessonPast)
	if rules, _ := rulesOf(t, past); len(rules.Prerender) != 1 {
		t.Errorf("order without a move: rules %+v", rules)
	}
	if past.doc.Find("template#next-assets").Length() != 0 || past.doc.Find("script#next-script").Length() != 0 {
		t.Error("order without a move: the files of a move")
	}

	saving := a.send(http.MethodGet, order, http.Header{"Save-Data": {"on"}})
	if _, ok := rulesOf(t, saving); ok || saving.doc.Find("template#next-assets").Length() != 0 || saving.doc.Find("script#next-script").Length() != 0 {
		t.Error("Save-Data: the page still fetches ahead")
	}
	if _, ok := rulesOf(t, a.getWith(a.newClient(), "/login")); ok {
		t.Error("/login has speculation rules")
	}
}

// A page fetched ahead is counted by route and purpose, and is made from
// the customer's own reads of moments ago: opening an order from the list,
// and its move from the order, asks the provider nothing the list or the
// order did not already ask. A page the customer really opens asks afresh.
func TestSpeculativeRequestsTakeHeldReads(t *testing.T) {
	a := signedIn(t)
	// An order rendered ahead from the list reads the order once, as
	// opening it would (the browser then shows the page rendered ahead).
	lesson := "/orders/glk/" + sandbox.DemoLessonTransferable
	a.get("/orders")
	a.sb.Reset()
	if r := a.send(http.MethodGet, lesson, asPrerender); r.StatusCode != http.StatusOK || r.text("h1") == "" {
		t.Fatalf("prerendered order: %d", r.StatusCode)
	}
	if got := a.sb.AllCalls(); len(got) != 1 || got["GLK/getTimetableForCurrentClient"] != 1 {
		t.Errorf("prerendered order after the list: provider calls %v, want its one read", got)
	}
	// A water-park order's move reads the order as its page did.
	order := "/orders/aqua/" + sandbox.DemoAquaPaid
	a.get(order)
	a.sb.Reset()
	if r := a.send(http.MethodGet, order+"/transfer", asPrefetch); r.StatusCode != http.StatusOK || r.doc.Find("[data-island=calendar]").Length() != 1 {
		t.Fatalf("prefetched move: %d", r.StatusCode)
	}
	if got := a.sb.AllCalls()["aqua/getAquaOrders"]; got != 0 {
		t.Errorf("prefetched move: the order asked %d times, want 0", got)
	}
	a.get(order)
	if got := a.sb.AllCalls()["aqua/getAquaOrders"]; got != 1 {
		t.Errorf("the order opened: asked %d times, want 1 (afresh)", got)
	}
	// Past the hold, a page fetched ahead asks again.
	a.clock.Add(31 * time.Second)
	a.send(http.MethodGet, order, asPrerender)
	if got := a.sb.AllCalls()["aqua/getAquaOrders"]; got != 2 {
		t.Errorf("past the hold: asked %d times, want 2", got)
	}
	m := a.metrics()
	for _, want := range []string{
		`lk_speculative_requests_total{purpose="prerender",route="/orders/:type/:id"} 2`,
		`lk_speculative_requests_total{purpose="prefetch",route="/orders/:type/:id/transfer"} 1`,
	} {
		if !strings.Contains(m, want) {
			t.Errorf("metrics lack %s:\n%s", want, grepLines(m, "lk_speculative"))
		}
	}
}

// A write drops the held reads: after a move, a page fetched ahead shows
// the order as it is now.
func TestSpeculativeReadsDroppedByAWrite(t *testing.T) {
	a := signedIn(t)
	order := "/orders/glk/" + sandbox.DemoLessonConfirmable
	a.get("/orders")
	if r := a.post(order+"/confirm", a.get(order).formValues(order+"/confirm")); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("confirm: %d", r.StatusCode)
	}
	a.sb.Reset()
	a.send(http.MethodGet, order, asPrerender)
	if got := a.sb.AllCalls()["GLK/getTimetableForCurrentClient"]; got != 1 {
		t.Errorf("after a confirmation: asked %d times, want 1", got)
	}
}

// A page fetched ahead leaves the one-time notice of an action to the page
// the customer really opens.
func TestSpeculativeRequestKeepsTheNotice(t *testing.T) {
	a := signedIn(t)
	order := "/orders/glk/" + sandbox.DemoLessonConfirmable
	r := a.post(order+"/confirm", a.get(order).formValues(order+"/confirm"))
	if r.StatusCode != http.StatusSeeOther {
		t.Fatalf("confirm: %d", r.StatusCode)
	}
	ahead := a.send(http.MethodGet, "/orders", asPrerender)
	if ahead.doc.Find(".notice-ok").Length() != 0 || len(ahead.Header.Values("Set-Cookie")) != 0 {
		t.Errorf("the page fetched ahead took the notice (%q, cookies %q)", ahead.text(".notice-ok"), ahead.Header.Values("Set-Cookie"))
	}
	if got := a.get(r.Header.Get("Location")).text(".notice-ok"); got != "Запись подтверждена" {
		t.Errorf("the landing page's notice %q", got)
	}
}

// Another customer's order fetched ahead is not found, and nothing of the
// demo customer's held reads reaches them.
func TestSpeculativeRequestOtherCustomer(t *testing.T) {
	a := signedIn(t)
	order := "/orders/aqua/" + sandbox.DemoAquaPaid
	a.get("/orders")
	other := a.newClient()
	a.signIn(other, otherPhone)
	req, _ := http.NewRequest(http.MethodGet, a.srv.URL+order, nil)
	req.Header.Set("Sec-Purpose", "prefetch;prerender")
	a.sb.Reset()
	if r := a.do(other, req); r.StatusCode != http.StatusNotFound || r.doc.Find(".tickets, [data-action]").Length() != 0 {
		t.Errorf("another customer's order fetched ahead: %d", r.StatusCode)
	}
	if got := a.sb.AllCalls()["aqua/transferTicket"] + a.sb.AllCalls()["aqua/refundTicket"]; got != 0 {
		t.Errorf("provider actions %d", got)
	}
}

// What a customer's visit costs the provider with the pages fetched ahead
// and without (docs/benchmarks.md): the order list, whose orders in view a
// phone fetches, an order the finger rested on without opening it, an
// order opened, and its move. The browser takes the page fetched ahead
// instead of asking again.
func TestSpeculationVisitCalls(t *testing.T) {
	visit := func(ahead bool) int {
		a := signedIn(t)
		a.sb.Reset()
		order := "/orders/aqua/" + sandbox.DemoAquaPaid
		a.get("/orders")
		if ahead {
			for _, inView := range []string{"/orders/hotel/" + sandbox.DemoHotelPaid, order, "/orders/glk/" + sandbox.DemoLessonTransferable} {
				a.send(http.MethodGet, inView, asPrefetch) // in view on a phone
			}
			a.send(http.MethodGet, "/orders/hotel/"+sandbox.DemoHotelPaid, asPrerender) // rested on, not opened
			a.send(http.MethodGet, order, asPrerender)                                  // then opened: the browser shows this one
			a.send(http.MethodGet, order+"/transfer", asPrerender)                      // the order's move, once it loaded
		} else {
			a.get(order)
			a.get(order + "/transfer")
		}
		n := 0
		for _, c := range a.sb.AllCalls() {
			n += c
		}
		return n
	}
	without, with := visit(false), visit(true)
	t.Logf("provider calls per visit: %d without speculation, %d with", without, with)
	if with*4 > without*5 {
		t.Errorf("provider calls per visit: %d with speculation, over a quarter more than %d without", with, without)
	}
}

// Two instances on one Redis, as in production (no sticky sessions), each
// with its own held reads: after a cancel, a move or a refund on one, a
// page the other fetches ahead shows the order as it is now, made afresh,
// never from its own read of before the write; a cancelled order no longer
// offers 'Отменить'.
func TestSpeculativePagesKnowWritesOnAnotherInstance(t *testing.T) {
	var opts handlers.Options
	a := newAppSetup(t, setup{stores: "redis", options: func(o *handlers.Options) { opts = *o }})
	gw, err := gateway.NewClient(a.sbSrv.URL+"/v1", gateway.WithClock(a.clock.Now))
	if err != nil {
		t.Fatal(err)
	}
	opts.Provider = gw // the other instance's own client, and its own held reads
	other := a.instance(opts)
	a.signIn(a.client, demoPhone)
	from := func(base, path string, header http.Header) *resp {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, base+path, nil)
		maps.Copy(req.Header, header)
		return a.do(a.client, req)
	}
	for _, tc := range a.oneActionCases() {
		t.Run(tc.name, func(t *testing.T) {
			order := tc.action[:strings.LastIndexByte(tc.action, '/')]
			before := from(other, order, nil) // read, and held, on the other instance
			if before.StatusCode != http.StatusOK || before.doc.Find(`a[href^="`+tc.action+`"]`).Length() == 0 {
				t.Fatalf("before: %d, no link to %s", before.StatusCode, tc.action)
			}
			forms, post := a.freshForms(tc.page, tc.action, 1, tc.set)
			r := tc.send(a, post, forms[0])
			if r.StatusCode != http.StatusSeeOther {
				t.Fatalf("%s on this instance: %d %q", tc.name, r.StatusCode, r.text(".notice-err, #error-summary"))
			}
			a.get(r.Header.Get("Location")) // its notice shown
			ahead := from(other, order, asPrerender)
			now := from(other, order, nil)
			if ahead.StatusCode != http.StatusOK || now.StatusCode != http.StatusOK {
				t.Fatalf("after: fetched ahead %d, opened %d", ahead.StatusCode, now.StatusCode)
			}
			if got, want := ahead.text("main"), now.text("main"); got != want || want == before.text("main") {
				t.Errorf("fetched ahead on the other instance:\n%s\nopened:\n%s\nbefore:\n%s", got, want, before.text("main"))
			}
			if tc.call == "hotel/cancelOrder" && (ahead.doc.Find(`a[href$="/cancel"]`).Length() != 0 || strings.Contains(ahead.text("main"), "Отменить")) {
				t.Error("a cancelled order fetched ahead still offers 'Отменить'")
			}
		})
	}
}
