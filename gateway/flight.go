package gateway

import (
	"context"
	"net/http"
	"strings"
	"sync"

	"lk/internal/workers"
)

// flights shares identical reads in flight: a customer with two tabs, a page
// loaded twice at once, a double click on a link. The provider is asked
// once; every caller gets the same answer and decodes its own copy.
// Only reads on behalf of one customer are shared, and the key holds that
// customer's identity (the token or the client's id the call carries) as
// well as the whole request, so one customer's answer never reaches another.
type flights struct {
	mu sync.Mutex
	m  map[string]*flight
}

// flight is one read in flight and the callers waiting for it.
type flight struct {
	done     chan struct{}
	cancel   context.CancelFunc
	waiters  int
	a        answer
	attempts int
	err      error
}

// flightKey is the key under which cl may be shared, and false when it must
// not be: only GET calls made for a known customer. The URL holds the path
// and the whole query (the client's id among them); the token is the
// credential of the two auth calls that carry one.
func flightKey(cl call, p prepared) (string, bool) {
	if cl.method != http.MethodGet || p.open != nil {
		return "", false
	}
	customer := cl.token
	if customer == "" {
		for _, name := range customerParams {
			if v := cl.query.Get(name); v != "" {
				customer = name + "=" + v
				break
			}
		}
	}
	if customer == "" {
		return "", false
	}
	var b strings.Builder
	b.Grow(len(customer) + len(p.url) + 16)
	b.WriteString(customer)
	b.WriteByte('\n')
	b.WriteString(cl.method)
	b.WriteByte(' ')
	b.WriteString(p.url)
	if cl.pdf {
		b.WriteString("\npdf")
	}
	return b.String(), true
}

// customerParams are the query parameters that name the customer a read is
// made for.
var customerParams = []string{"clientId", "userId"}

// do runs fetch once for all callers of key that arrive while it runs. The
// read goes on as long as one caller still waits, within the first caller's
// deadline; when every caller has gone (the customers closed their tabs),
// it is cancelled. shared tells a caller that joined a read already made.
func (g *flights) do(ctx context.Context, key string, fetch func(context.Context) (answer, int, error)) (a answer, attempts int, shared bool, err error) {
	g.mu.Lock()
	if g.m == nil {
		g.m = map[string]*flight{}
	}
	f, shared := g.m[key]
	if !shared {
		// Not the first caller's cancellation: the others still wait.
		fctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
		if d, ok := ctx.Deadline(); ok {
			cancel()
			fctx, cancel = context.WithDeadline(context.WithoutCancel(ctx), d)
		}
		f = &flight{done: make(chan struct{}), cancel: cancel}
		g.m[key] = f
		workers.Go(func() {
			defer cancel()
			f.a, f.attempts, f.err = fetch(fctx)
			g.mu.Lock()
			if g.m[key] == f {
				delete(g.m, key)
			}
			g.mu.Unlock()
			close(f.done)
		})
	}
	f.waiters++
	g.mu.Unlock()

	select {
	case <-f.done:
		return f.a, f.attempts, shared, f.err
	case <-ctx.Done():
		g.mu.Lock()
		f.waiters--
		if f.waiters == 0 {
			f.cancel()
			if g.m[key] == f { // a caller arriving now starts afresh
				delete(g.m, key)
			}
		}
		g.mu.Unlock()
		return answer{}, 0, shared, ctx.Err()
	}
}

// forget lets the reads that start from now on go to the provider afresh,
// whatever is in flight. Every write calls it as it starts and as it ends,
// so a page loaded after a cancellation or a transfer never gets the answer
// of a read that began before it.
func (g *flights) forget() {
	g.mu.Lock()
	defer g.mu.Unlock()
	clear(g.m)
}
