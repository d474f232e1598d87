package handlers

import (
	"context"
	"time"
)

// Past bookings have no calendar file; a week leaves room for a clock that
// is off and for the provider's late status.
const movesKept = 7 * 24 * time.Hour

func movedKey(k kind, id string) string { return string(k.info().id) + "-" + id }

// The move has happened whatever the store says: a failure costs a second
// calendar event at most, so it is logged, not shown.
func (s *Server) movedTo(ctx context.Context, o order, newID string, start time.Time) {
	if newID == "" || newID == o.id {
		return
	}
	first, err := s.firstID(ctx, o.kind, o.id)
	if err == nil {
		err = s.moves.Moved(ctx, movedKey(o.kind, newID), first, start.Add(movesKept))
	}
	if err != nil {
		s.log.Warn("the first id of a moved booking is not kept", "kind", string(o.kind.info().id), "err", err)
	}
}

func (s *Server) firstID(ctx context.Context, k kind, id string) (string, error) {
	first, err := s.moves.First(ctx, movedKey(k, id))
	if err != nil || first == "" {
		return id, err
	}
	return first, nil
}
