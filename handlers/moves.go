package handlers

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v5"

	"lk/handlers/web"
	"lk/views"
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
func (s *Server) movedTo(ctx context.Context, guid string, o order, newID string, start time.Time) {
	if newID == "" || newID == o.id {
		return
	}
	until := start.Add(movesKept)
	first, err := s.firstID(ctx, o.kind, o.id)
	if err == nil {
		err = s.stores.moves.Moved(ctx, movedKey(o.kind, newID), first, until)
	}
	if err == nil {
		err = s.stores.moves.Moved(ctx, nextKey(o.kind, o.id), newID+" "+ownerMark(guid), until)
	}
	if err != nil {
		s.log.WarnContext(ctx, "the first id of a moved booking is not kept", "kind", string(o.kind.info().id), "err", err)
	}
}

func (s *Server) firstID(ctx context.Context, k kind, id string) (string, error) {
	first, err := s.stores.moves.First(ctx, movedKey(k, id))
	if err != nil || first == "" {
		return id, err
	}
	return first, nil
}

// movedOn answers the id an old link's booking has now, or "" when not moved;
// another customer's moved booking is errNotFound, before the provider is asked.
func (s *Server) movedOn(ctx context.Context, guid string, k kind, id string) (string, error) {
	if !k.info().renumbers {
		return "", nil
	}
	now, mark := id, ownerMark(guid)
	for range movesFollowed {
		v, err := s.stores.moves.First(ctx, nextKey(k, now))
		if err != nil { // the old link fails as it did before moves were kept
			s.log.WarnContext(ctx, "moves store", "err", err)
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

// redirectMoved sends the owner of a moved booking's old link to the same
// page of the booking it became (part: "" for the order, or its file).
func (s *Server) redirectMoved(c *echo.Context, k kind, id, part string) (bool, error) {
	to, err := s.movedOn(c.Request().Context(), web.SessionOf(c).GUID, k, id)
	if err != nil || to == "" {
		return err != nil, err
	}
	url := views.OrderPath(string(k.info().id), to)
	if part != "" {
		url += "/" + part
	}
	return true, c.Redirect(http.StatusSeeOther, url)
}
