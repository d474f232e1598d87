package handlers

import (
	"context"
	"sync"
	"time"
)

// Outcome is what became of an order action: a success goes on to Location
// and shows Message there once; a failure shows Message on the form again
// with Status.
type Outcome struct {
	Status   int    `json:"s"`
	Location string `json:"l,omitempty"`
	Message  string `json:"m,omitempty"`
}

// Succeeded tells a success from a failure.
func (o Outcome) Succeeded() bool { return o.Location != "" }

// Once remembers what became of each one-time action token, so that a
// repeated POST of a form (a double click, back and resubmit, a retry after
// a timeout) never reaches the provider again and shows the first outcome.
// Claim is one atomic step: of any number of parallel callers exactly one
// is first. In memory by default; several instances share one store.
type Once interface {
	// Claim takes key for ttl. first is true for the first caller only;
	// later callers get the first one's outcome, or nil while it still runs.
	Claim(ctx context.Context, key string, ttl time.Duration) (first bool, out *Outcome, err error)
	// Settle records the first caller's outcome for ttl.
	Settle(ctx context.Context, key string, out Outcome, ttl time.Duration) error
	// Claimed tells, without taking it, whether key has been claimed.
	Claimed(ctx context.Context, key string) (bool, error)
	// Forget gives key up, so that the next Claim is first again (work
	// that failed and may be tried again).
	Forget(ctx context.Context, key string) error
}

// memoryOnce is a Once for one instance.
type memoryOnce struct {
	mu      sync.Mutex
	keys    map[string]onceEntry
	now     func() time.Time
	claimed int // claims since the last sweep of expired keys
}

type onceEntry struct {
	out   *Outcome
	until time.Time
}

// NewMemoryOnce makes an in-memory Once.
func NewMemoryOnce(now func() time.Time) Once {
	return &memoryOnce{keys: map[string]onceEntry{}, now: now}
}

func (m *memoryOnce) Claim(_ context.Context, key string, ttl time.Duration) (bool, *Outcome, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	if e, ok := m.keys[key]; ok && now.Before(e.until) {
		return false, e.out, nil
	}
	if m.claimed++; m.claimed >= 1024 { // forget expired keys now and then
		m.claimed = 0
		for k, e := range m.keys {
			if !now.Before(e.until) {
				delete(m.keys, k)
			}
		}
	}
	m.keys[key] = onceEntry{until: now.Add(ttl)}
	return true, nil, nil
}

func (m *memoryOnce) Settle(_ context.Context, key string, out Outcome, ttl time.Duration) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.keys[key] = onceEntry{out: &out, until: m.now().Add(ttl)}
	return nil
}

func (m *memoryOnce) Claimed(_ context.Context, key string) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.keys[key]
	return ok && m.now().Before(e.until), nil
}

func (m *memoryOnce) Forget(_ context.Context, key string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.keys, key)
	return nil
}
