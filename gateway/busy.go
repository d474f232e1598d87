package gateway

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"
)

type busyKey struct{}

// busy is what WatchBusy puts into a context.
type busy struct {
	refused atomic.Bool
	cancel  context.CancelFunc // nil: the other calls go on
}

// WatchBusy returns ctx in which a call refused with ErrBusy is remembered,
// whatever the caller then does with the error (a list that shows the kinds
// that loaded, say): Busy tells afterwards. With giveUp, the first refusal
// also cancels the other calls made with ctx, so that a page that cannot
// have all its answers frees its places at once; a form being sent must not
// give up (what it did is still to be kept).
func WatchBusy(ctx context.Context, giveUp bool) context.Context {
	b := &busy{}
	if giveUp {
		ctx, b.cancel = context.WithCancel(ctx)
	}
	return context.WithValue(ctx, busyKey{}, b)
}

// Busy reports whether a call made with ctx (from WatchBusy) was refused
// with ErrBusy.
func Busy(ctx context.Context) bool {
	b, ok := ctx.Value(busyKey{}).(*busy)
	return ok && b.refused.Load()
}

func markBusy(ctx context.Context, err error) {
	if !errors.Is(err, ErrBusy) {
		return
	}
	if b, ok := ctx.Value(busyKey{}).(*busy); ok {
		b.refused.Store(true)
		if b.cancel != nil {
			b.cancel()
		}
	}
}

type waitKey struct{}

// Waits follows the provider calls of one request: how many are in flight
// and since when the request has been waiting on at least one, so that a
// page can tell waiting on the provider from waiting for a CPU.
type Waits struct {
	mu       sync.Mutex
	inFlight int
	since    time.Time
}

// WithWaits returns ctx in which the provider calls made are followed by w.
func WithWaits(ctx context.Context, w *Waits) context.Context {
	return context.WithValue(ctx, waitKey{}, w)
}

// AwaitProvider marks a provider call made with ctx as in flight until the
// returned function is called. The client does it for every call; a
// stand-in for the provider in a test may do it too.
func AwaitProvider(ctx context.Context) (done func()) {
	w, ok := ctx.Value(waitKey{}).(*Waits)
	if !ok {
		return func() {}
	}
	w.mu.Lock()
	if w.inFlight == 0 {
		w.since = time.Now()
	}
	w.inFlight++
	w.mu.Unlock()
	return func() {
		w.mu.Lock()
		w.inFlight--
		w.mu.Unlock()
	}
}

// Since tells since when the request has been waiting on the provider
// without a break, and false when no call is in flight now.
func (w *Waits) Since() (time.Time, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.since, w.inFlight > 0
}
