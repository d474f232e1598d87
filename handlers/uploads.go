package handlers

import (
	"sync"

	"golang.org/x/sync/semaphore"
)

// Documents are held in memory while they are checked and sent on, so the
// budget, not the number of customers, bounds the memory uploads take.
const uploadBudget = 4 * uploadLimit

const uploadRetry = "30"

// One upload at a time per session, so that one customer with many tabs or
// a script cannot take the room of everyone.
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
