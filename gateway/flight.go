package gateway

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"time"

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

	// A read made for a page is then held for hold, for the pages the
	// browser fetches ahead of a tap (Speculative): a customer's order list
	// and order pages are read with the very calls of the pages they lead
	// to, so the page fetched ahead is made from the answer the customer is
	// reading instead of asking the provider again. Only speculative reads
	// take a held answer; any other read asks the provider and holds its
	// own. Only successful answers are held, at most heldMax bytes of them,
	// and a write drops them all (forget). A write on another instance is
	// known by the customer's mark of writes (WithWrites): an answer is
	// taken only under the mark its read began under.
	hold  time.Duration
	now   func() time.Time
	gen   uint64 // writes so far: a read that began before one is not held
	held  map[string]*heldAnswer
	queue []heldRef // in the order they were held, to drop the oldest first
	bytes int
}

// heldMax bounds the bytes of held answers per instance: beyond it a new
// answer is not held (a speculative page then asks the provider).
const heldMax = 16 << 20

// DefaultSpeculativeHold is how long a customer's read is held for the
// pages fetched ahead of a tap.
const DefaultSpeculativeHold = 30 * time.Second

type heldAnswer struct {
	a      answer
	at     time.Time
	writes string // the customer's mark of writes when its read began
}

type heldRef struct {
	key string
	h   *heldAnswer
}

type speculativeKey struct{}

// Speculative returns ctx for a page the browser fetches ahead of a tap
// (Sec-Purpose: prefetch): its reads of the customer's own data may take
// the answer of the same read made for the customer within the hold.
func Speculative(ctx context.Context) context.Context {
	return context.WithValue(ctx, speculativeKey{}, true)
}

func isSpeculative(ctx context.Context) bool { v, _ := ctx.Value(speculativeKey{}).(bool); return v }

type writesKey struct{}

// WithWrites returns ctx for reads on behalf of a customer whose writes so
// far, on every instance, are marked mark (a value the shared store changes
// at each write). A read held under one mark is not taken under another.
func WithWrites(ctx context.Context, mark string) context.Context {
	return context.WithValue(ctx, writesKey{}, mark)
}

func writesOf(ctx context.Context) string { v, _ := ctx.Value(writesKey{}).(string); return v }

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
	if h, ok := g.held[key]; ok && isSpeculative(ctx) && g.fresh(h) && h.writes == writesOf(ctx) {
		g.mu.Unlock()
		return h.a, 0, true, nil
	}
	f, shared := g.m[key]
	if !shared {
		gen, writes := g.gen, writesOf(ctx)
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
			if f.err == nil && f.a.status >= 200 && f.a.status < 300 && g.gen == gen {
				g.keep(key, f.a, writes)
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
	g.gen++
	clear(g.held)
	g.queue, g.bytes = nil, 0
}

// fresh tells whether h is still within the hold (g.mu held).
func (g *flights) fresh(h *heldAnswer) bool {
	now := g.now()
	return !now.Before(h.at) && now.Sub(h.at) < g.hold
}

// keep holds a for key, after dropping what has outlived the hold (g.mu
// held).
func (g *flights) keep(key string, a answer, writes string) {
	if g.hold <= 0 || g.now == nil {
		return
	}
	for len(g.queue) > 0 && !g.fresh(g.queue[0].h) {
		g.drop(g.queue[0])
		g.queue = g.queue[1:]
	}
	if g.bytes+len(a.body) > heldMax {
		return
	}
	if g.held == nil {
		g.held = map[string]*heldAnswer{}
	}
	if old, ok := g.held[key]; ok {
		g.bytes -= len(old.a.body)
	}
	h := &heldAnswer{a: a, at: g.now(), writes: writes}
	g.held[key] = h
	g.queue = append(g.queue, heldRef{key, h})
	g.bytes += len(a.body)
}

// drop forgets r's answer unless a newer one has replaced it (g.mu held).
func (g *flights) drop(r heldRef) {
	if g.held[r.key] == r.h {
		delete(g.held, r.key)
		g.bytes -= len(r.h.a.body)
	}
}
