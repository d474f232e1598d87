package handlers

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v5"

	"lk/gateway"
	"lk/handlers/web"
	"lk/views"
)

// historyPage is how many past orders a page of the list shows.
const historyPage = 20

// ordersQuery is what /orders is asked for: a kind ("" all), a year (0 all) and
// the history's page (from 1); what cannot be read is left out.
type ordersQuery struct {
	kind   kind
	year   int
	page   int
	number string // an order number to find, "" for none
}

func (s *Server) readOrdersQuery(c *echo.Context) ordersQuery {
	q := ordersQuery{page: 1}
	if id, ok := gateway.ParseKind(c.QueryParam("kind")); ok {
		q.kind = s.kindOf(id)
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

// pageURL is the list with the same filters at page.
func (q ordersQuery) pageURL(page int) string {
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
	for _, k := range s.kinds {
		id := string(k.info().id)
		f.Kinds = append(f.Kinds, views.Choice{Value: id, Label: k.info().label, Selected: q.kind == k})
	}
	years := map[int]bool{}
	kept := set.all[:0:0]
	for _, o := range set.all {
		y := 0
		if !o.ref.Start.IsZero() {
			y = o.ref.Start.In(s.loc).Year()
			years[y] = true
		}
		if q.year == 0 || y == q.year {
			kept = append(kept, o)
		}
	}
	set.all = kept
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

// /orders shows the active orders and the history historyPage at a time;
// 'Показать ещё' is a plain link to one page more, landing on its first card.
func (s *Server) orders(c *echo.Context) error {
	q := s.readOrdersQuery(c)
	ks := s.kinds
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
		o.All = all.pageURL(1)
	}
	o.Active = active
	from := min((q.page-1)*historyPage, len(history))
	to := min(from+historyPage, len(history))
	o.History = history[:to]
	if from < to && from > 0 {
		o.History[from].Anchor = moreAnchor(from)
	}
	if to < len(history) {
		o.More, o.MoreFrom = q.pageURL(q.page+1), strconv.Itoa(to+1)
		o.MoreScript = s.shell.assets.Script(views.MoreEnhance)
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
	return s.render(c, status, views.OrdersPage(p, o))
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
