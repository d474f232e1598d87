package gateway

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"time"

	"lk/internal/workers"
)

// DefaultSharedTTL is how long an answer that is the same for every
// customer (a day's water-park sessions, an instructor's timetable, a rent's
// schedule, the hotel's days) is kept and shared.
const DefaultSharedTTL = 30 * time.Second

// WithSharedTTL sets how long the answers that are the same for every
// customer are kept by this client; 0 or less asks the provider every time.
func WithSharedTTL(d time.Duration) Option { return func(c *Client) { c.common.ttl = max(d, 0) } }

// WithClock sets the clock the kept answers age by (default time.Now): the
// server's own, so that what is kept expires by the server's today.
func WithClock(now func() time.Time) Option { return func(c *Client) { c.common.now = now } }

type freshKey struct{}

// Fresh returns ctx whose reads never take a kept answer: an action checks
// its rules against what the provider says now. The fresh answer replaces
// the kept one for everybody else.
func Fresh(ctx context.Context) context.Context { return context.WithValue(ctx, freshKey{}, true) }

func isFresh(ctx context.Context) bool { v, _ := ctx.Value(freshKey{}).(bool); return v }

// common keeps the answers that are the same for every customer, for a
// short time, in this instance only. Concurrent misses of one answer make
// one call, whose answer every caller gets (each decodes its own copy).
// Only successful answers are kept. A write to a part of the provider
// (the water park, lessons, pavilions, rooms, the hotel) drops every kept
// answer of that part as it starts and as it ends, and a read that began
// before the write is answered but not kept: after this instance's own
// action the next page reads afresh.
type common struct {
	ttl time.Duration
	now func() time.Time

	mu   sync.Mutex
	m    map[string]*kept
	gens map[string]uint64 // per part of the provider: writes so far
}

// kept is one answer, in flight until done is closed.
type kept struct {
	done     chan struct{}
	part     string
	at       time.Time // when it was asked for
	a        answer
	attempts int
	err      error
}

// sharedKey is the key of a call every customer may share: the method,
// the whole URL and the form (the hotel's days are asked by a form post).
func sharedKey(cl call, p prepared) string {
	var b strings.Builder
	b.WriteString(cl.method)
	b.WriteByte(' ')
	b.WriteString(p.url)
	if cl.form != nil {
		b.WriteByte('\n')
		b.WriteString(cl.form.Encode())
	}
	return b.String()
}

// part is the provider's part a path belongs to: its first segment
// ("aqua/getSessionsAqua": "aqua").
func part(path string) string {
	p, _, _ := strings.Cut(path, "/")
	return p
}

// get answers the kept answer of key, or fetches it once for every caller
// that comes while it is in flight. A fresh caller never takes a kept
// answer nor joins one in flight: its own fetch replaces it. shared tells
// a caller that took an answer another asked for.
func (g *common) get(ctx context.Context, key, part string, fresh bool, fetch func(context.Context) (answer, int, error)) (answer, int, bool, error) {
	g.mu.Lock()
	if g.m == nil {
		g.m, g.gens = map[string]*kept{}, map[string]uint64{}
	}
	now := g.now()
	k, ok := g.m[key]
	inFlight := false
	if ok {
		select {
		case <-k.done:
		default:
			inFlight = true
		}
	}
	if !ok || fresh || (!inFlight && (now.Sub(k.at) >= g.ttl || now.Before(k.at))) {
		k = &kept{done: make(chan struct{}), part: part, at: now}
		g.m[key] = k
		gen := g.gens[part]
		// Not the first caller's cancellation: the others still wait.
		fctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
		if d, ok := ctx.Deadline(); ok {
			cancel()
			fctx, cancel = context.WithDeadline(context.WithoutCancel(ctx), d)
		}
		g.mu.Unlock()
		workers.Go(func() {
			defer cancel()
			k.a, k.attempts, k.err = fetch(fctx)
			g.mu.Lock()
			keep := k.err == nil && k.a.status >= 200 && k.a.status < 300 && g.gens[part] == gen
			if !keep && g.m[key] == k { // a later fresh caller's entry stays
				delete(g.m, key)
			}
			g.mu.Unlock()
			close(k.done)
		})
		ok = false // this caller asked
	} else {
		g.mu.Unlock()
	}
	select {
	case <-k.done:
		return k.a, k.attempts, ok, k.err
	case <-ctx.Done():
		return answer{}, 0, ok, ctx.Err()
	}
}

// drop forgets every kept answer of part and keeps what is in flight from
// being kept.
func (g *common) drop(part string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.m == nil {
		return
	}
	g.gens[part]++
	for key, k := range g.m {
		if k.part == part {
			delete(g.m, key)
		}
	}
}

// sharedRead reports whether cl is a read whose answer is the same for
// every customer.
func sharedRead(cl call) bool {
	return cl.common && (cl.method == http.MethodGet || cl.form != nil)
}
