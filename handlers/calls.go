package handlers

import (
	"context"
	"time"

	"lk/gateway"
)

// providerCalls is what the request plumbing (web.Calls) follows of the
// provider's calls, as the gateway client marks them.
type providerCalls struct{}

func (providerCalls) Watch(ctx context.Context, requestID string, giveUp bool) context.Context {
	return gateway.WatchBusy(gateway.WithRequestID(ctx, requestID), giveUp)
}

func (providerCalls) Refused(ctx context.Context) bool { return gateway.Busy(ctx) }

func (providerCalls) Follow(ctx context.Context) (context.Context, func() (time.Time, bool)) {
	w := &gateway.Waits{}
	return gateway.WithWaits(ctx, w), w.Since
}

func (providerCalls) Ahead(ctx context.Context) context.Context { return gateway.Speculative(ctx) }
