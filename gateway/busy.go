package gateway

import (
	"context"
	"errors"
	"sync/atomic"
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
