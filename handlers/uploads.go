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
// waiting: ok is false when the session already uploads or the room is
// taken. release gives everything back.
func (u *uploads) take(session string, size int64) (release func(), ok bool) {
	if size < 0 || size > uploadLimit {
		size = uploadLimit
	}
	u.mu.Lock()
	if _, dup := u.busy[session]; dup {
		u.mu.Unlock()
		return nil, false
	}
	u.busy[session] = struct{}{}
	u.mu.Unlock()
	free := func() {
		u.mu.Lock()
		delete(u.busy, session)
		u.mu.Unlock()
	}
	if !u.room.TryAcquire(min(size, u.max)) {
		free()
		return nil, false
	}
	return func() { u.room.Release(min(size, u.max)); free() }, true
}
