package handlers

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v5"

	"lk/gateway"
	"lk/handlers/web"
	"lk/internal/workers"
	"lk/views"
)

type orderSet struct {
	orders []order // in the order of kinds
	failed map[gateway.Kind]error
	asked  int // how many kinds were fetched
}

func (s *Server) fetchOrders(ctx context.Context, guid string) orderSet {
	return s.fetchKinds(ctx, guid, kinds)
}

// The list needs an answer per kind: they are fetched in parallel, and a
// kind that fails does not stop the others.
func (s *Server) fetchKinds(ctx context.Context, guid string, ks []kind) orderSet {
	lists := make([][]order, len(ks))
	errs := make([]error, len(ks))
	var wg workers.Group // kept goroutines: a provider call grows a new one's stack several times
	for i, k := range ks {
		wg.Go(func() { lists[i], errs[i] = ordersOf(ctx, s, k, guid) })
	}
	wg.Wait()
	n := 0
	for _, l := range lists {
		n += len(l)
	}
	set := orderSet{failed: map[gateway.Kind]error{}, orders: make([]order, 0, n), asked: len(ks)}
	for i, k := range ks {
		if errs[i] != nil {
			set.failed[k.info().id] = errs[i]
			s.log.Warn("orders not loaded", "kind", k.info().id, "err", errs[i])
		}
		set.orders = append(set.orders, lists[i]...)
	}
	return set
}

// When nothing loaded, the one failure text says it all: no list.
func (set orderSet) problems() []string {
	if set.allFailed() {
		return nil
	}
	var out []string
	for _, k := range kinds {
		err, ok := set.failed[k.info().id]
		if !ok {
			continue
		}
		msg := providerText(err)
		switch {
		case k.info().failed != "" && msg == "":
			msg = k.info().failed
		case k.info().failed != "":
			msg = k.info().failed + ": " + msg
		case msg == "":
			msg = "не загрузились"
		}
		out = append(out, k.info().label+" — "+msg)
	}
	return out
}

func (set orderSet) allFailed() bool { return set.asked > 0 && len(set.failed) == set.asked }

func (s *Server) activeAndHistory(c *echo.Context, set orderSet) (active, history []views.OrderCard) {
	refs := make([]gateway.OrderRef, len(set.orders))
	for i, o := range set.orders {
		refs[i] = o.ref
		refs[i].ID = strconv.Itoa(i) // the position, to find the order again
	}
	a, h := gateway.SplitActiveHistory(refs, s.now())
	active, history = make([]views.OrderCard, 0, len(a)), make([]views.OrderCard, 0, len(h))
	for _, r := range a {
		i, _ := strconv.Atoi(r.ID)
		card := set.orders[i].card
		card.Actions = s.actions(c, set.orders[i], onCard)
		active = append(active, card)
	}
	for _, r := range h {
		i, _ := strconv.Atoi(r.ID)
		history = append(history, set.orders[i].card)
	}
	return active, history
}

// historyPage is how many past orders a page of the list shows.
const historyPage = 20

// ordersQuery is what /orders is asked for: a kind ("" for all), a year
// (0 for all) and the page of the history (from 1). What cannot be read is
// left out, as if not asked.
type ordersQuery struct {
	kind   kind
	year   int
	page   int
	number string // an order number to find, "" for none
}

func readOrdersQuery(c *echo.Context) ordersQuery {
	q := ordersQuery{page: 1}
	if id, ok := gateway.ParseKind(c.QueryParam("kind")); ok {
		q.kind = kindOf(id)
	}
	if y, err := strconv.Atoi(c.QueryParam("year")); err == nil && y >= 2000 && y <= 2100 {
		q.year = y
	}
	if p, err := strconv.Atoi(c.QueryParam("page")); err == nil && p > 1 && p <= 1000 {
		q.page = p
	}
	// A number is looked for among all the customer's orders, whatever
	// the kind and year chosen before.
	if q.number = orderNumber(c.QueryParam("q")); q.number != "" {
		q.kind, q.year, q.page = nil, 0, 1
	}
	return q
}

// orderNumber is what a customer types for an order's number ('№ 300 123',
// '#300123') as the provider writes it; "" when nothing of it can be an id.
func orderNumber(raw string) string {
	if len(raw) > 64 {
		return ""
	}
	n := strings.Map(func(r rune) rune {
		switch r {
		case ' ', '\u00a0', '\u202f', '№', '#':
			return -1
		}
		return r
	}, strings.TrimSpace(raw))
	if !validID(n) {
		return ""
	}
	return n
}

// url is the list with the same filters at page.
func (q ordersQuery) url(page int) string {
	v := url.Values{}
	if q.kind != nil {
		v.Set("kind", string(q.kind.info().id))
	}
	if q.year != 0 {
		v.Set("year", strconv.Itoa(q.year))
	}
	if q.number != "" {
		v.Set("q", q.number)
	}
	if page > 1 {
		v.Set("page", strconv.Itoa(page))
	}
	if len(v) == 0 {
		return views.PathOrders
	}
	return views.PathOrders + "?" + v.Encode()
}

// filter keeps the orders of q's year and offers the years of all the
// orders loaded, the latest first.
func (s *Server) filter(set *orderSet, q ordersQuery) views.OrdersFilter {
	f := views.OrdersFilter{Search: q.number, Kinds: []views.Choice{{Label: "Все"}}, Years: []views.Choice{{Label: "Все"}}}
	for _, k := range kinds {
		id := string(k.info().id)
		f.Kinds = append(f.Kinds, views.Choice{Value: id, Label: k.info().label, Selected: q.kind == k})
	}
	years := map[int]bool{}
	kept := set.orders[:0:0]
	for _, o := range set.orders {
		y := 0
		if !o.ref.Start.IsZero() {
			y = o.ref.Start.In(s.loc).Year()
			years[y] = true
		}
		if q.year == 0 || y == q.year {
			kept = append(kept, o)
		}
	}
	set.orders = kept
	years[q.year] = q.year != 0 // the year asked stays choosable
	list := make([]int, 0, len(years))
	for y, ok := range years {
		if ok {
			list = append(list, y)
		}
	}
	slices.Sort(list)
	for _, y := range slices.Backward(list) {
		f.Years = append(f.Years, views.Choice{Value: strconv.Itoa(y), Label: strconv.Itoa(y), Selected: y == q.year})
	}
	return f
}

// /orders shows the active orders and the history historyPage at a time,
// latest first: 'Показать ещё' is a plain link to the list with one page
// more (?page=2 shows the first 40), landing on the first card it adds.
// A kind asked for is the only one fetched; an order number asked for
// shows the customer's orders with that number alone.
func (s *Server) orders(c *echo.Context) error {
	q := readOrdersQuery(c)
	ks := kinds
	if q.kind != nil {
		ks = []kind{q.kind}
	}
	set := s.fetchKinds(c.Request().Context(), web.SessionOf(c).GUID, ks)
	o := views.Orders{Filter: s.filter(&set, q), Page: q.page, Failed: len(set.failed) > 0, AllFailed: set.allFailed(), Problems: set.problems()}
	active, history := s.activeAndHistory(c, set)
	if q.number != "" {
		o.Search, o.Found = q.number, found(q.number, active, history)
		all := q
		all.number = ""
		o.All = all.url(1)
	}
	o.Active = active
	from := min((q.page-1)*historyPage, len(history))
	to := min(from+historyPage, len(history))
	o.History = history[:to]
	if from < to && from > 0 {
		o.History[from].Anchor = moreAnchor(from)
	}
	if to < len(history) {
		o.More, o.MoreFrom = q.url(q.page+1), strconv.Itoa(to+1)
		o.MoreScript = s.web.Assets.Script(views.MoreEnhance)
	}
	if len(history) > historyPage && to > 0 {
		o.Shown = fmt.Sprintf("Показаны %d из %d", to, len(history))
	}
	p := s.page(c, "Заказы", "Ваши заказы: активные и история.")
	p.Nav = views.NavOrders
	s.offerOffline(c, &p, set)
	status := http.StatusOK
	if set.allFailed() {
		status = http.StatusServiceUnavailable
	}
	return s.web.Render(c, status, views.OrdersPage(p, o))
}

// moreAnchor is the id of the card at index i, where a page of the history
// that 'Показать ещё' adds begins: the link lands there.
func moreAnchor(i int) string { return "more-" + strconv.Itoa(i+1) }

// found are the cards whose order number is number, active first.
func found(number string, active, history []views.OrderCard) []views.OrderCard {
	var out []views.OrderCard
	for _, list := range [][]views.OrderCard{active, history} {
		for _, c := range list {
			if strings.EqualFold(c.ID, number) {
				out = append(out, c)
			}
		}
	}
	return out
}
