package store

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"sync"
	"time"
)

// expiring is a map whose entries live until a time, for one instance. The
// caller holds mu around every use, so that a check and its change are one
// step. Expired entries are dropped when met and, now and then, all at once,
// so that memory follows the traffic.
type expiring[V any] struct {
	mu    sync.Mutex
	items map[string]expiringItem[V]
	puts  int     // since the last sweep
	drop  func(V) // told of an entry dropped on expiry; may be nil
}

type expiringItem[V any] struct {
	v     V
	until time.Time
}

func newExpiring[V any]() *expiring[V] {
	return &expiring[V]{items: map[string]expiringItem[V]{}}
}

// get is key's live value.
func (e *expiring[V]) get(key string, now time.Time) (V, bool) {
	it, ok := e.items[key]
	if ok && !now.Before(it.until) {
		e.expire(key, it)
		ok = false
	}
	if !ok {
		var zero V
		return zero, false
	}
	return it.v, true
}

// put keeps v under key until then.
func (e *expiring[V]) put(key string, v V, until, now time.Time) {
	if e.puts++; e.puts >= 1024 {
		e.sweep(now)
	}
	e.items[key] = expiringItem[V]{v, until}
}

// sweep drops every expired entry.
func (e *expiring[V]) sweep(now time.Time) {
	e.puts = 0
	for k, it := range e.items {
		if !now.Before(it.until) {
			e.expire(k, it)
		}
	}
}

// del forgets key.
// set is put under the map's lock.
func (e *expiring[V]) set(key string, v V, until, now time.Time) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.put(key, v, until, now)
}

// lookup is get under the map's lock.
func (e *expiring[V]) lookup(key string, now time.Time) (V, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.get(key, now)
}

func (e *expiring[V]) del(key string) { delete(e.items, key) }

func (e *expiring[V]) expire(key string, it expiringItem[V]) {
	delete(e.items, key)
	if e.drop != nil {
		e.drop(it.v)
	}
}

// ---- marks: the sign-out deny-list and the first ids of moved bookings ----

// memoryMarks keeps a string under a key until a time, for one instance
// that forgets on restart: as a Revoker, the session ids signed out; as
// Moves, the first id of each moved booking.
type memoryMarks struct {
	keys *expiring[string]
	now  func() time.Time
}

// NewMemoryRevoker makes a Revoker for one instance that forgets on restart.
func NewMemoryRevoker(now func() time.Time) Revoker {
	return &memoryMarks{keys: newExpiring[string](), now: now}
}

// NewMemoryMoves makes Moves for one instance that forgets on restart.
func NewMemoryMoves(now func() time.Time) Moves {
	return &memoryMarks{keys: newExpiring[string](), now: now}
}

func (m *memoryMarks) Revoke(_ context.Context, id string, until time.Time) error {
	m.keys.set(id, "", until, m.now())
	return nil
}

func (m *memoryMarks) Revoked(_ context.Context, id string) (bool, error) {
	_, ok := m.keys.lookup(id, m.now())
	return ok, nil
}

func (m *memoryMarks) Moved(_ context.Context, key, first string, until time.Time) error {
	m.keys.set(key, first, until, m.now())
	return nil
}

func (m *memoryMarks) First(_ context.Context, key string) (string, error) {
	first, _ := m.keys.lookup(key, m.now())
	return first, nil
}

// ---- work done once per key ----

type memoryOnce struct {
	keys *expiring[*onceEntry]
	now  func() time.Time
}

// onceEntry is a claimed key: done is closed when out is settled.
type onceEntry struct {
	out  *Outcome
	done chan struct{}
}

// NewMemoryOnce makes a Once for one instance.
func NewMemoryOnce(now func() time.Time) Once {
	return &memoryOnce{keys: newExpiring[*onceEntry](), now: now}
}

func (m *memoryOnce) Claim(_ context.Context, key string, ttl time.Duration) (bool, *Outcome, error) {
	m.keys.mu.Lock()
	defer m.keys.mu.Unlock()
	now := m.now()
	if e, ok := m.keys.get(key, now); ok {
		return false, e.out, nil
	}
	m.keys.put(key, &onceEntry{done: make(chan struct{})}, now.Add(ttl), now)
	return true, nil, nil
}

func (m *memoryOnce) Settle(_ context.Context, key string, out Outcome, ttl time.Duration) error {
	m.keys.mu.Lock()
	defer m.keys.mu.Unlock()
	now := m.now()
	e, ok := m.keys.get(key, now)
	if !ok {
		e = &onceEntry{done: make(chan struct{})}
	}
	if e.out == nil {
		e.out = &out
		close(e.done)
	}
	if ttl > 0 {
		m.keys.put(key, &onceEntry{out: &out, done: e.done}, now.Add(ttl), now)
	} else {
		m.keys.del(key)
	}
	return nil
}

func (m *memoryOnce) Await(ctx context.Context, key string) (*Outcome, error) {
	m.keys.mu.Lock()
	e, ok := m.keys.get(key, m.now())
	m.keys.mu.Unlock()
	if !ok {
		return nil, nil
	}
	select {
	case <-e.done:
		return e.out, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (m *memoryOnce) Claimed(_ context.Context, key string) (bool, error) {
	m.keys.mu.Lock()
	defer m.keys.mu.Unlock()
	_, ok := m.keys.get(key, m.now())
	return ok, nil
}

// ---- leases ----

type memoryLeases struct {
	keys *expiring[string]
	now  func() time.Time
}

// NewMemoryLeases makes Leases for one instance.
func NewMemoryLeases(now func() time.Time) Leases {
	return &memoryLeases{keys: newExpiring[string](), now: now}
}

func (m *memoryLeases) Take(_ context.Context, key, holder string, ttl time.Duration) (bool, string, error) {
	m.keys.mu.Lock()
	defer m.keys.mu.Unlock()
	now := m.now()
	if cur, ok := m.keys.get(key, now); ok {
		return false, cur, nil
	}
	m.keys.put(key, holder, now.Add(ttl), now)
	return true, holder, nil
}

func (m *memoryLeases) Release(_ context.Context, key, holder string) error {
	m.keys.mu.Lock()
	defer m.keys.mu.Unlock()
	if cur, ok := m.keys.get(key, m.now()); ok && cur == holder {
		m.keys.del(key)
	}
	return nil
}

// ---- refund files kept for a retry ----

type memoryRefundFiles struct {
	boxes  *expiring[*refundBox]
	now    func() time.Time
	limit  int            // bytes the instance keeps for everyone
	total  int            // bytes kept, over every key
	owners map[string]int // bytes kept per owner, over their keys
}

type refundBox struct {
	owner string
	files []RefundFile
	size  int
}

// NewMemoryRefundFiles makes RefundFiles for one instance holding at most
// RefundStoreLimit bytes.
func NewMemoryRefundFiles(now func() time.Time) RefundFiles {
	return NewMemoryRefundFilesWithin(now, RefundStoreLimit)
}

// NewMemoryRefundFilesWithin makes RefundFiles for one instance holding at
// most limit bytes for everyone.
func NewMemoryRefundFilesWithin(now func() time.Time, limit int) RefundFiles {
	m := &memoryRefundFiles{boxes: newExpiring[*refundBox](), now: now, limit: limit, owners: map[string]int{}}
	m.boxes.drop = m.forget
	return m
}

// forget takes b's bytes off the counts.
func (m *memoryRefundFiles) forget(b *refundBox) { m.count(b.owner, -b.size) }

func (m *memoryRefundFiles) count(owner string, n int) {
	m.total += n
	if m.owners[owner] += n; m.owners[owner] <= 0 {
		delete(m.owners, owner)
	}
}

func (m *memoryRefundFiles) Put(_ context.Context, owner, key string, f RefundFile, ttl time.Duration) (RefundFile, error) {
	m.boxes.mu.Lock()
	defer m.boxes.mu.Unlock()
	now := m.now()
	b, ok := m.boxes.get(key, now)
	if !ok {
		b = &refundBox{owner: owner}
	}
	if i := slices.IndexFunc(b.files, func(g RefundFile) bool { return g.Name == f.Name && bytes.Equal(g.Data, f.Data) }); i >= 0 {
		m.boxes.put(key, b, now.Add(ttl), now)
		return b.files[i], nil
	}
	n := len(f.Data)
	if m.total+n > m.limit || m.owners[owner]+n > RefundBytesPerKey { // what has expired makes room first
		m.boxes.sweep(now)
	}
	switch {
	case len(b.files) >= RefundFilesPerKey || b.size+n > RefundBytesPerKey || m.owners[owner]+n > RefundBytesPerKey:
		return RefundFile{}, ErrRefundFilesFull
	case m.total+n > m.limit:
		return RefundFile{}, ErrRefundStoreFull
	}
	f.Data = bytes.Clone(f.Data)
	f.Size, f.Sum = n, digest(f.Data)
	b.files = append(b.files, f)
	b.size += n
	m.count(b.owner, n)
	m.boxes.put(key, b, now.Add(ttl), now)
	return f, nil
}

// digest is the hex SHA-256 of data.
func digest(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

func (m *memoryRefundFiles) List(ctx context.Context, key string) ([]RefundFile, error) {
	files, err := m.Read(ctx, key)
	for i := range files {
		files[i].Data = nil
	}
	return files, err
}

// Read hands out the kept bytes themselves: nobody writes to them.
func (m *memoryRefundFiles) Read(_ context.Context, key string) ([]RefundFile, error) {
	m.boxes.mu.Lock()
	defer m.boxes.mu.Unlock()
	b, _ := m.boxes.get(key, m.now())
	if b == nil {
		return nil, nil
	}
	return slices.Clone(b.files), nil
}

func (m *memoryRefundFiles) Remove(_ context.Context, key, id string) error {
	m.boxes.mu.Lock()
	defer m.boxes.mu.Unlock()
	b, _ := m.boxes.get(key, m.now())
	if b == nil {
		return nil
	}
	b.files = slices.DeleteFunc(b.files, func(f RefundFile) bool {
		if f.ID == id {
			b.size -= f.Size
			m.count(b.owner, -f.Size)
			return true
		}
		return false
	})
	if len(b.files) == 0 {
		m.boxes.del(key)
	}
	return nil
}

func (m *memoryRefundFiles) Clear(_ context.Context, key string) error {
	m.boxes.mu.Lock()
	defer m.boxes.mu.Unlock()
	if b, _ := m.boxes.get(key, m.now()); b != nil {
		m.forget(b)
		m.boxes.del(key)
	}
	return nil
}

// ---- sign-in limits ----

type memoryLimiter struct {
	keys *expiring[*series]
}

// series is the events under one key, oldest first.
type series struct {
	window time.Duration
	events []event
}

type event struct {
	at time.Time
	id string
}

// NewMemoryLimiter makes a Limiter for one instance.
func NewMemoryLimiter() Limiter {
	return &memoryLimiter{keys: newExpiring[*series]()}
}

// live is key's series without the events older than window.
func (m *memoryLimiter) live(key string, window time.Duration, now time.Time) *series {
	s, _ := m.keys.get(key, now)
	if s == nil {
		s = &series{}
	}
	s.window = max(s.window, window)
	i := 0
	for i < len(s.events) && now.Sub(s.events[i].at) >= window {
		i++
	}
	s.events = s.events[i:]
	return s
}

// retryAfter is when s allows one more of max events within window.
func (s *series) retryAfter(max int, window time.Duration, now time.Time) time.Duration {
	n := len(s.events)
	if n < max {
		return 0
	}
	if max <= 0 {
		return window
	}
	return s.events[n-max].at.Add(window).Sub(now)
}

func (m *memoryLimiter) Take(_ context.Context, now time.Time, rules ...Rule) (Hold, error) {
	m.keys.mu.Lock()
	defer m.keys.mu.Unlock()
	for _, r := range rules {
		if wait := m.live(r.Key, r.Window, now).retryAfter(r.Max, r.Window, now); wait > 0 {
			return Hold{}, &Refusal{Limit: r.Name, RetryAfter: wait}
		}
	}
	h := Hold{ID: newID()}
	for _, r := range rules {
		s := m.live(r.Key, r.Window, now)
		i, _ := slices.BinarySearchFunc(s.events, now, func(e event, t time.Time) int { return e.at.Compare(t) })
		s.events = slices.Insert(s.events, i, event{at: now, id: h.ID})
		m.keys.put(r.Key, s, s.events[len(s.events)-1].at.Add(s.window), now)
		h.Keys = append(h.Keys, r.Key)
		h.Counts = append(h.Counts, len(s.events))
	}
	return h, nil
}

func (m *memoryLimiter) Release(_ context.Context, h Hold) error {
	m.keys.mu.Lock()
	defer m.keys.mu.Unlock()
	for _, k := range h.Keys {
		if it, ok := m.keys.items[k]; ok {
			it.v.events = slices.DeleteFunc(it.v.events, func(e event) bool { return e.id == h.ID })
		}
	}
	return nil
}

func (m *memoryLimiter) Clear(_ context.Context, keys ...string) error {
	m.keys.mu.Lock()
	defer m.keys.mu.Unlock()
	for _, k := range keys {
		m.keys.del(k)
	}
	return nil
}

func (m *memoryLimiter) Wait(_ context.Context, now time.Time, r Rule) (time.Duration, error) {
	m.keys.mu.Lock()
	defer m.keys.mu.Unlock()
	return max(0, m.live(r.Key, r.Window, now).retryAfter(r.Max, r.Window, now)), nil
}
