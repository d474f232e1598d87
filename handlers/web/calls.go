package web

import (
	"context"
	"time"
)

// Calls is what the plumbing follows of a request's calls to the provider.
type Calls interface {
	// Watch carries the id to every call; giveUp: the first refused cancels the others.
	Watch(ctx context.Context, requestID string, giveUp bool) context.Context
	Refused(ctx context.Context) bool
	// Follow tells since when the request has waited on a call (false: none in flight).
	Follow(ctx context.Context) (context.Context, func() (since time.Time, waiting bool))
	Ahead(ctx context.Context) context.Context
}
