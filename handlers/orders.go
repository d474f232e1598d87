package handlers

import (
	"context"
	"net/http"
	"strconv"
	"sync"

	"github.com/labstack/echo/v5"

	"lk/gateway"
	"lk/views"
)

type orderSet struct {
	orders []order // in the order of kinds
	failed map[gateway.Kind]error
}

// The list needs five answers: they are fetched in parallel, and a kind that
// fails does not stop the others.
func (s *Server) fetchOrders(ctx context.Context, guid string) orderSet {
	lists := make([][]order, len(kinds))
	errs := make([]error, len(kinds))
	var wg sync.WaitGroup
	for i, k := range kinds {
		wg.Go(func() { lists[i], errs[i] = ordersOf(ctx, s, k, guid) })
	}
	wg.Wait()
	n := 0
	for _, l := range lists {
		n += len(l)
	}
	set := orderSet{failed: map[gateway.Kind]error{}, orders: make([]order, 0, n)}
	for i, k := range kinds {
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

func (set orderSet) allFailed() bool { return len(set.failed) == len(kinds) }

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

func (s *Server) orders(c *echo.Context) error {
	set := s.fetchOrders(c.Request().Context(), session(c).GUID)
	active, history := s.activeAndHistory(c, set)
	p := s.page(c, "Заказы", "Ваши заказы: активные и история.")
	p.Nav = views.NavOrders
	s.offerOffline(c, &p, set)
	status := http.StatusOK
	if set.allFailed() {
		status = http.StatusServiceUnavailable
	}
	return render(c, status, views.OrdersPage(p, views.Orders{
		Active: active, History: history, Failed: len(set.failed) > 0, AllFailed: set.allFailed(), Problems: set.problems(),
	}))
}
