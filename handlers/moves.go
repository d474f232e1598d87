package handlers

import (
	"context"
	"sync"
	"time"
)

// Moves remembers the first id of a booking the provider gave a new id
// when it moved (a lesson or a rent), so that its calendar event keeps one
// UID along any chain of moves and a calendar updates the event instead of
// adding a second one. Keys are "{kind}-{id}". Kept in the data folder
// (store.FileMoves) by default, so a restart forgets nothing; in Redis
// when several instances share it.
type Moves interface {
	// Moved records that the booking key was first the booking first,
	// until a time when no calendar file is offered for it any more.
	Moved(ctx context.Context, key, first string, until time.Time) error
	// First is the first id of key, or "" when key was never moved to.
	First(ctx context.Context, key string) (string, error)
}

// movesKept is how long after a moved booking starts its first id is kept:
// past bookings have no calendar file, so a day would do; a week leaves
// room for a clock that is off and for the provider's late status.
const movesKept = 7 * 24 * time.Hour

// moveKey is the key of the booking id of kind k in Moves.
func moveKey(k *kind, id string) string { return string(k.id) + "-" + id }

// movedTo records that o now lives under newID, starting at start, keeping
// the id o itself was first. The move has happened whatever this returns:
// a store that fails costs the customer a second calendar event at most,
// so it is logged, not shown.
func (s *Server) movedTo(ctx context.Context, o order, newID string, start time.Time) {
	if newID == "" || newID == o.id {
		return
	}
	first, err := s.firstID(ctx, o.kind, o.id)
	if err == nil {
		err = s.moves.Moved(ctx, moveKey(o.kind, newID), first, start.Add(movesKept))
	}
	if err != nil {
		s.log.Warn("the first id of a moved booking is not kept", "kind", string(o.kind.id), "err", err)
	}
}

// firstID is the id the booking id of kind k had before any move.
func (s *Server) firstID(ctx context.Context, k *kind, id string) (string, error) {
	first, err := s.moves.First(ctx, moveKey(k, id))
	if err != nil || first == "" {
		return id, err
	}
	return first, nil
}

// memoryMoves is Moves for one instance that may forget on restart (tests).
type memoryMoves struct {
	mu   sync.Mutex
	keys map[string]movedEntry
	now  func() time.Time
}

type movedEntry struct {
	first string
	until time.Time
}

// NewMemoryMoves makes an in-memory Moves.
func NewMemoryMoves(now func() time.Time) Moves {
	return &memoryMoves{keys: map[string]movedEntry{}, now: now}
}

func (m *memoryMoves) Moved(_ context.Context, key, first string, until time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	for k, e := range m.keys { // forget what has expired anyway
		if now.After(e.until) {
			delete(m.keys, k)
		}
	}
	m.keys[key] = movedEntry{first, until}
	return nil
}

func (m *memoryMoves) First(_ context.Context, key string) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if e, ok := m.keys[key]; ok && m.now().Before(e.until) {
		return e.first, nil
	}
	return "", nil
}
