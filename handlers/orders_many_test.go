package handlers_test

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"lk/gateway"
	"lk/gateway/sandbox"
)

// manyOrders is the demo customer with 300 past orders added.
func manyOrders(t *testing.T) *app {
	t.Helper()
	a := signedIn(t)
	if err := a.sb.SeedPast(context.Background(), sandbox.DemoGUID, 300); err != nil {
		t.Fatal(err)
	}
	return a
}

// historyCards are the cards of the history section, "kind/id" each.
func (r *resp) historyCards() []string {
	var out []string
	r.doc.Find(`#history li.oc`).Each(func(_ int, li *goquery.Selection) {
		out = append(out, li.AttrOr("data-kind", "")+"/"+li.AttrOr("data-id", ""))
	})
	return out
}

func (r *resp) more() string {
	return r.doc.Find(`#history a[data-more]`).AttrOr("href", "")
}

// With 300 past orders the list shows 20 of the history at first, and
// 'Показать ещё' is a plain link to the list with 20 more: what was shown
// stays (the active orders too), and the link lands on the first card
// added. Each page costs the provider what the list always cost: one call
// per kind. The filter is a plain GET form; a kind asked for is the only
// one fetched, and the next page keeps the filter.
func TestOrdersHistoryIsPaged(t *testing.T) {
	a := manyOrders(t)
	var before []string // the history the page before showed
	page := func(path string) *resp {
		t.Helper()
		a.sb.Reset()
		r := a.get(path)
		if r.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d", path, r.StatusCode)
		}
		for _, p := range orderCalls {
			if n := a.sb.AllCalls()[p]; n != 1 {
				t.Errorf("%s: %s called %d times, want 1", path, p, n)
			}
		}
		got := r.historyCards()
		if len(got) < len(before) || !slices.Equal(got[:len(before)], before) {
			t.Errorf("%s does not start with what the page before showed", path)
		}
		before = got
		r.doc.Find(`li.oc`).Each(func(_ int, li *goquery.Selection) {
			if !strings.Contains(li.Text(), "Заказ № "+li.AttrOr("data-id", "")) {
				t.Errorf("%s: card %s/%s has no 'Заказ №'", path, li.AttrOr("data-kind", ""), li.AttrOr("data-id", ""))
			}
		})
		return r
	}
	first := page("/orders")
	if n := len(first.historyCards()); n != 20 {
		t.Errorf("/orders: %d history cards, want 20", n)
	}
	if first.doc.Find(`section[aria-labelledby="active-h"] li.oc`).Length() == 0 {
		t.Error("/orders: no active orders first")
	}
	more := first.doc.Find(`#history a[data-more]`)
	if strings.TrimSpace(more.Text()) != "Показать ещё" || first.more() != "/orders?page=2#more-21" {
		t.Fatalf("/orders: the next page is %q %q", more.Text(), first.more())
	}
	if got := first.text("#history [data-shown]"); got != "Показаны 20 из 309" {
		t.Errorf("/orders says %q", got)
	}
	second := page("/orders?page=2")
	if n := len(second.historyCards()); n != 40 || second.doc.Find(`section[aria-labelledby="active-h"] li.oc`).Length() == 0 {
		t.Errorf("page 2: %d history cards, active shown %v", n, second.doc.Find(`section[aria-labelledby="active-h"] li.oc`).Length() != 0)
	}
	if c := second.doc.Find(`#history li.oc`).Eq(20); c.AttrOr("id", "") != "more-21" || second.more() != "/orders?page=3#more-41" {
		t.Errorf("page 2 lands on %q, next %q", c.AttrOr("id", ""), second.more())
	}
	if got := second.text("#history [data-shown]"); got != "Показаны 40 из 309" {
		t.Errorf("page 2 says %q", got)
	}
	// 300 added, 9 of the demo's own in the past: the 16th page is the last.
	last := page("/orders?page=16")
	if n := len(last.historyCards()); n != 309 || last.more() != "" {
		t.Errorf("last page: %d history cards, next %q", n, last.more())
	}
	if n := len(a.get("/orders?page=17").historyCards()); n != 309 {
		t.Errorf("after the last page: %d cards", n)
	}
	n, _ := a.firstFlight("/orders")
	if n > 14*1024 {
		t.Errorf("/orders with 300 past orders: first flight %d bytes, budget 14 KB", n)
	}
	t.Logf("/orders with 300 past orders: first flight %d bytes", n)

	t.Run("filter", func(t *testing.T) { filterByKindAndYear(t, a) })
}

func filterByKindAndYear(t *testing.T, a *app) {
	a.sb.Reset()
	r := a.get("/orders?kind=glk")
	if r.StatusCode != http.StatusOK {
		t.Fatalf("status %d", r.StatusCode)
	}
	if n := r.doc.Find(`form.filter[method="get"][action="/orders"] select[name="kind"] option[value="glk"][selected]`).Length(); n != 1 {
		t.Error("the kind asked for is not selected in the form")
	}
	r.doc.Find(`li.oc`).Each(func(_ int, li *goquery.Selection) {
		if k := li.AttrOr("data-kind", ""); k != "glk" {
			t.Errorf("?kind=glk shows a %s card", k)
		}
	})
	if len(r.historyCards()) != 20 {
		t.Errorf("?kind=glk: %d history cards, want 20 of the 60 past lessons", len(r.historyCards()))
	}
	for _, p := range orderCalls {
		if want := map[bool]int{true: 1}[p == "GLK/getTimetableForCurrentClient"]; a.sb.AllCalls()[p] != want {
			t.Errorf("?kind=glk: %s called %d times, want %d", p, a.sb.AllCalls()[p], want)
		}
	}
	if more := r.more(); more != "/orders?kind=glk&page=2#more-21" {
		t.Errorf("next page %q", more)
	}
	if got := a.get("/orders?kind=glk&page=2").historyCards(); len(got) != 40 || !strings.HasPrefix(got[20], "glk/") {
		t.Errorf("second page of lessons: %v", got)
	}

	year := a.clock.Now().In(gateway.ResortLocation()).Year() - 1
	r = a.get("/orders?year=" + strconv.Itoa(year))
	cards := r.doc.Find(`li.oc`)
	if cards.Length() == 0 {
		t.Fatalf("no orders of %d", year)
	}
	cards.Each(func(_ int, li *goquery.Selection) {
		if when := li.Find("p").Eq(1).Text(); !strings.Contains(when, "."+strconv.Itoa(year)) {
			t.Errorf("?year=%d shows %s/%s of %q", year, li.AttrOr("data-kind", ""), li.AttrOr("data-id", ""), when)
		}
	})
	if r.doc.Find(`select[name="year"] option[value="`+strconv.Itoa(year)+`"][selected]`).Length() != 1 {
		t.Error("the year asked for is not selected in the form")
	}
}

// Support asks for the order's number: every order page shows it.
func TestEveryOrderPageShowsItsNumber(t *testing.T) {
	a := signedIn(t)
	for _, p := range []string{"glk/" + sandbox.DemoLessonConfirmable, "pavilion/" + sandbox.DemoPavilionRent, "celRoom/" + sandbox.DemoRoomRent,
		"aqua/" + sandbox.DemoAquaPaid, "hotel/" + sandbox.DemoHotelPaid} {
		_, id, _ := strings.Cut(p, "/")
		if r := a.get("/orders/" + p); !strings.Contains(r.text("main"), "Заказ № "+id) {
			t.Errorf("/orders/%s: no 'Заказ № %s'", p, id)
		}
	}
}
