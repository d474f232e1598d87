package gateway

import (
	"context"
	"errors"
	"sync/atomic"
)

type busyKey struct{}

// WatchBusy returns ctx in which a call refused with ErrBusy is remembered,
// whatever the caller then does with the error (a list that shows the kinds
// that loaded, say): Busy tells afterwards.
func WatchBusy(ctx context.Context) context.Context {
	return context.WithValue(ctx, busyKey{}, new(atomic.Bool))
}

// Busy reports whether a call made with ctx (from WatchBusy) was refused
// with ErrBusy.
func Busy(ctx context.Context) bool {
	b, ok := ctx.Value(busyKey{}).(*atomic.Bool)
	return ok && b.Load()
}

func markBusy(ctx context.Context, err error) {
	if !errors.Is(err, ErrBusy) {
		return
	}
	if b, ok := ctx.Value(busyKey{}).(*atomic.Bool); ok {
		b.Store(true)
	}
}
