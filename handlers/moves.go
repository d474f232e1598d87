package handlers

import (
	"context"
	"strings"
	"time"

	"lk/handlers/web"
)

// Past bookings have no calendar file; a week leaves room for a clock that
// is off and for the provider's late status.
const movesKept = 7 * 24 * time.Hour

// A chain of moves longer than this is not followed: the link is old enough.
const movesFollowed = 20

// nextKey holds where a moved booking went, with whose it is: "{newID} {owner}".
func nextKey(k kind, id string) string { return "next-" + movedKey(k, id) }

// The move has happened whatever the store says: a failure costs a second
// calendar event or a dead old link at most, so it is logged, not shown.
func (b moveBook) movedTo(ctx context.Context, guid string, o order, newID string, start time.Time) {
	if newID == "" || newID == o.id {
		return
	}
	until := start.Add(movesKept)
	first, err := b.firstID(ctx, o.kind, o.id)
	if err == nil {
		err = b.moves.Moved(ctx, movedKey(o.kind, newID), first, until)
	}
	if err == nil {
		err = b.moves.Moved(ctx, nextKey(o.kind, o.id), newID+" "+ownerMark(guid), until)
	}
	if err != nil {
		b.log.WarnContext(ctx, "the first id of a moved booking is not kept", "kind", string(o.kind.info().id), "err", err)
	}
}

func (b moveBook) firstID(ctx context.Context, k kind, id string) (string, error) {
	first, err := b.moves.First(ctx, movedKey(k, id))
	if err != nil || first == "" {
		return id, err
	}
	return first, nil
}

// movedOn answers the id an old link's booking has now, or "" when not moved;
// another customer's moved booking is errNotFound, before the provider is asked.
func (b moveBook) movedOn(ctx context.Context, guid string, k kind, id string) (string, error) {
	if !k.info().renumbers {
		return "", nil
	}
	now, mark := id, ownerMark(guid)
	for range movesFollowed {
		v, err := b.moves.First(ctx, nextKey(k, now))
		if err != nil { // the old link fails as it did before moves were kept
			b.log.WarnContext(ctx, "moves store", "err", err)
			break
		}
		next, owner, _ := strings.Cut(v, " ")
		if next == "" {
			break
		}
		if owner != mark {
			return "", web.ErrNotFound
		}
		now = next
	}
	if now == id {
		return "", nil
	}
	return now, nil
}
