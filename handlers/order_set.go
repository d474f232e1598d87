package handlers

import (
	"context"

	"lk/gateway"
	"lk/internal/workers"
)

// orderSet is the customer's orders of several kinds, fetched at once,
// with the kinds that failed.
type orderSet struct {
	all    []order // in the order of kinds
	failed map[gateway.Kind]error
	asked  []kind // the kinds fetched
}

func (s *Server) fetchOrders(ctx context.Context, guid string) orderSet {
	return s.fetchKinds(ctx, guid, s.kinds)
}

// The list needs an answer per kind: they are fetched in parallel, and a
// kind that fails does not stop the others.
func (s *Server) fetchKinds(ctx context.Context, guid string, ks []kind) orderSet {
	lists := make([][]order, len(ks))
	errs := make([]error, len(ks))
	var wg workers.Group // kept goroutines: a provider call grows a new one's stack several times
	for i, k := range ks {
		wg.Go(func() { lists[i], errs[i] = ordersOf(ctx, k, guid) })
	}
	wg.Wait()
	n := 0
	for _, l := range lists {
		n += len(l)
	}
	set := orderSet{failed: map[gateway.Kind]error{}, all: make([]order, 0, n), asked: ks}
	for i, k := range ks {
		if errs[i] != nil {
			set.failed[k.info().id] = errs[i]
			s.log.WarnContext(ctx, "orders not loaded", "kind", k.info().id, "err", errs[i])
		}
		set.all = append(set.all, lists[i]...)
	}
	return set
}

// When nothing loaded, the one failure text says it all: no list.
func (set orderSet) problems() []string {
	if set.allFailed() {
		return nil
	}
	var out []string
	for _, k := range set.asked {
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

func (set orderSet) allFailed() bool { return len(set.asked) > 0 && len(set.failed) == len(set.asked) }

func ordersOf(ctx context.Context, k kind, guid string) ([]order, error) {
	list, err := k.list(ctx, guid)
	for i := range list {
		stamp(k, &list[i])
	}
	return list, err
}
