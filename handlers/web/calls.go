package web

import (
	"context"
	"time"
)

// Calls is what the plumbing follows of the calls a request makes to the
// services behind the account.
type Calls interface {
	// Watch carries the request's id to every call; with giveUp (a page), the
	// first call refused for want of room cancels the others.
	Watch(ctx context.Context, requestID string, giveUp bool) context.Context
	// Refused tells whether a call made with ctx was refused for want of room.
	Refused(ctx context.Context) bool
	// Follow returns ctx in which the calls are followed, and since when the
	// request has waited on one without a break (false: none in flight).
	Follow(ctx context.Context) (context.Context, func() (since time.Time, waiting bool))
	// Ahead marks ctx as a page's fetched ahead of a tap.
	Ahead(ctx context.Context) context.Context
}
