package handlers

import (
	"sync"

	"golang.org/x/sync/semaphore"
)

// uploadBudget is how many bytes of refund uploads one process reads at
// once by default: four full uploads. Documents are held in memory while
// they are checked and sent on, so this, not the number of customers,
// bounds the memory uploads take.
const uploadBudget = 4 * uploadLimit

// uploadRetry is the Retry-After of an upload turned away for want of room.
const uploadRetry = "30"

// uploads admits refund bodies: at most budget bytes in flight in the
// process, weighed by each body's Content-Length (the route's whole limit
// when it is unknown), and one upload at a time per session, so that one
// customer with many tabs or a script cannot take the room of everyone.
type uploads struct {
	room *semaphore.Weighted
	max  int64
	mu   sync.Mutex
	busy map[string]struct{} // sessions with an upload in flight
}

func newUploads(budget int64) *uploads {
	if budget <= 0 {
		budget = uploadBudget
	}
	return &uploads{room: semaphore.NewWeighted(budget), max: budget, busy: map[string]struct{}{}}
}

// take admits an upload of size bytes (-1: unknown) for session, without
// waiting: false when the session already uploads or the room is taken.
// An upload taken is given back with release.
func (u *uploads) take(session string, size int64) bool {
	u.mu.Lock()
	if _, dup := u.busy[session]; dup {
		u.mu.Unlock()
		return false
	}
	u.busy[session] = struct{}{}
	u.mu.Unlock()
	if !u.room.TryAcquire(u.weight(size)) {
		u.free(session)
		return false
	}
	return true
}

func (u *uploads) release(session string, size int64) {
	u.room.Release(u.weight(size))
	u.free(session)
}

func (u *uploads) weight(size int64) int64 {
	if size < 0 || size > uploadLimit {
		size = uploadLimit
	}
	return min(size, u.max)
}

func (u *uploads) free(session string) {
	u.mu.Lock()
	delete(u.busy, session)
	u.mu.Unlock()
}
