package handlers

import (
	"net/http"
	"strings"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	"golang.org/x/sync/semaphore"

	"lk/handlers/web"
)

// Documents are held in memory while they are checked and sent on, so the
// budget, not the number of customers, bounds the memory uploads take.
const uploadBudget = 4 * web.UploadLimit

const uploadRetry = "30"

// uploads is the refund's room: one upload at a time per session, so one
// customer cannot take everyone's room. Every refusal is counted by its
// reason, so that an alert sees each 503.
type uploads struct {
	room    *semaphore.Weighted
	max     int64
	mu      sync.Mutex
	busy    map[string]upload      // sessions with an upload in flight
	refused *prometheus.CounterVec // by reason; nil: not counted
}

// Why an upload was refused before its body was read.
const (
	refusedFull     = "full"     // the room for uploads in flight is taken
	refusedSession  = "session"  // the session has another upload in flight
	refusedDraining = "draining" // the instance is shutting down
)

// upload is one in flight: its form's id, and done closed when it ends.
type upload struct {
	form string
	done chan struct{}
}

func newUploads(budget int64, refused *prometheus.CounterVec) *uploads {
	if budget <= 0 {
		budget = uploadBudget
	}
	return &uploads{room: semaphore.NewWeighted(budget), max: budget, busy: map[string]upload{}, refused: refused}
}

// IsUpload tells a refund form, which may carry documents.
func (*uploads) IsUpload(r *http.Request) bool { return isUpload(r) }

func isUpload(r *http.Request) bool { return strings.HasSuffix(r.URL.Path, "/refund") }

// Draining counts an upload refused as the instance shuts down.
func (u *uploads) Draining() { u.refuse(refusedDraining) }

// refuse counts an upload answered 503 for reason.
func (u *uploads) refuse(reason string) {
	if u.refused != nil {
		u.refused.WithLabelValues(reason).Inc()
	}
}

// take finds room for an upload of form by session; a repeat of the same form
// in flight gets same, closed when it ends, instead of a refusal.
func (u *uploads) take(session, form string, size int64) (ok bool, same <-chan struct{}) {
	u.mu.Lock()
	if cur, dup := u.busy[session]; dup {
		u.mu.Unlock()
		if form != "" && cur.form == form {
			return false, cur.done
		}
		u.refuse(refusedSession)
		return false, nil
	}
	u.busy[session] = upload{form: form, done: make(chan struct{})}
	u.mu.Unlock()
	if !u.room.TryAcquire(u.weight(size)) {
		u.refuse(refusedFull)
		u.free(session)
		return false, nil
	}
	return true, nil
}

func (u *uploads) release(session string, size int64) {
	u.room.Release(u.weight(size))
	u.free(session)
}

func (u *uploads) weight(size int64) int64 {
	if size < 0 || size > web.UploadLimit {
		size = web.UploadLimit
	}
	return min(size, u.max)
}

func (u *uploads) free(session string) {
	u.mu.Lock()
	if cur, ok := u.busy[session]; ok {
		close(cur.done)
		delete(u.busy, session)
	}
	u.mu.Unlock()
}
