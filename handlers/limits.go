package handlers

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"
)

// Limiter counts events (a code sent, a code entered) under keys in sliding
// windows, so that the sign-in limits hold however many requests arrive at
// once: a limit is taken before the provider is called, in one atomic step
// with its check, and given back when what it was taken for did not happen
// (the provider failed, the code was right). In memory by default
// (NewMemoryLimiter); several instances need a shared store behind the same
// interface.
//
// Each method maps onto one atomic Redis script over sorted sets of event
// ids scored by time: Take is "for each rule, drop what is older than its
// window and refuse when ZCARD >= Max; when none refuses, ZADD the hold's id
// to each key and extend its expiry"; Release is ZREM of the hold's id; Clear
// is DEL; Wait reads the oldest scores.
type Limiter interface {
	// Take checks every rule and, only when all of them allow one more
	// event, records one event under each rule's key, as one step. It
	// returns a *Refusal (the first rule that refused) or a store failure.
	Take(ctx context.Context, now time.Time, rules ...Rule) (Hold, error)
	// Release removes the events a Take recorded; removing what is gone
	// already (released, cleared, expired) is no error.
	Release(ctx context.Context, h Hold) error
	// Clear forgets every event under the keys.
	Clear(ctx context.Context, keys ...string) error
	// Wait is how long until rule allows one more event; 0 when it does.
	Wait(ctx context.Context, now time.Time, rule Rule) (time.Duration, error)
}

// Rule is one limit: at most Max events under Key within Window.
type Rule struct {
	Name   string // which limit, for metrics, logs and the customer's message
	Key    string // what is counted, e.g. "wrong:s:79001234567"
	Max    int
	Window time.Duration
}

// Hold is the events one Take recorded: one per key, all with the id ID.
type Hold struct {
	ID   string
	Keys []string
}

// Except is h without the events under the given keys.
func (h Hold) Except(keys ...string) Hold {
	out := Hold{ID: h.ID}
	for _, k := range h.Keys {
		if !slices.Contains(keys, k) {
			out.Keys = append(out.Keys, k)
		}
	}
	return out
}

// Refusal says which limit refused and when to try again.
type Refusal struct {
	Limit      string        // the rule's name: phone_interval, phone_window, ip_window, code_attempts, phone_wrong
	RetryAfter time.Duration // 0 when only something else (a new code) helps
	Message    string        // Russian, for the customer; set by the handler
}

func (r *Refusal) Error() string { return "sign-in limit " + r.Limit }

// memoryLimiter is a Limiter for one instance: one mutex makes each
// check-and-take one step.
type memoryLimiter struct {
	mu    sync.Mutex
	keys  map[string]*series
	takes int // since the last sweep
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
	return &memoryLimiter{keys: map[string]*series{}}
}

// live drops the events of key older than window and returns what is left.
func (m *memoryLimiter) live(key string, window time.Duration, now time.Time) *series {
	s := m.keys[key]
	if s == nil {
		s = &series{}
		m.keys[key] = s
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
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sweep(now)
	for _, r := range rules {
		if wait := m.live(r.Key, r.Window, now).retryAfter(r.Max, r.Window, now); wait > 0 {
			return Hold{}, &Refusal{Limit: r.Name, RetryAfter: wait}
		}
	}
	h := Hold{ID: randomID()}
	for _, r := range rules {
		s := m.keys[r.Key]
		i, _ := slices.BinarySearchFunc(s.events, now, func(e event, t time.Time) int { return e.at.Compare(t) })
		s.events = slices.Insert(s.events, i, event{at: now, id: h.ID})
		h.Keys = append(h.Keys, r.Key)
	}
	return h, nil
}

func (m *memoryLimiter) Release(_ context.Context, h Hold) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, k := range h.Keys {
		if s := m.keys[k]; s != nil {
			s.events = slices.DeleteFunc(s.events, func(e event) bool { return e.id == h.ID })
		}
	}
	return nil
}

func (m *memoryLimiter) Clear(_ context.Context, keys ...string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, k := range keys {
		delete(m.keys, k)
	}
	return nil
}

func (m *memoryLimiter) Wait(_ context.Context, now time.Time, r Rule) (time.Duration, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return max(0, m.live(r.Key, r.Window, now).retryAfter(r.Max, r.Window, now)), nil
}

// sweep forgets keys whose events have all expired, now and then, so that
// memory follows the traffic of the last day.
func (m *memoryLimiter) sweep(now time.Time) {
	if m.takes++; m.takes < 1024 {
		return
	}
	m.takes = 0
	for k, s := range m.keys {
		if len(s.events) == 0 || now.Sub(s.events[len(s.events)-1].at) >= s.window {
			delete(m.keys, k)
		}
	}
}

// after says in Russian when something becomes possible: "через 42 с".
func after(d time.Duration) string {
	s := int((d + time.Second - 1) / time.Second)
	switch {
	case s < 60:
		return fmt.Sprintf("через %d с", max(s, 1))
	case s < 3600:
		return fmt.Sprintf("через %d мин", (s+59)/60)
	default:
		h, m := s/3600, (s%3600+59)/60
		if m == 60 {
			h, m = h+1, 0
		}
		if m == 0 {
			return fmt.Sprintf("через %d ч", h)
		}
		return fmt.Sprintf("через %d ч %d мин", h, m)
	}
}
