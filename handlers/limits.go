package handlers

import (
	"fmt"
	"sync"
	"time"
)

// The limits that a 4-digit code (about 13 bits) cannot give by itself
// (DESIGN.md "Sessions and sign-in").
const (
	CodeInterval     = 60 * time.Second // by default, a new code per phone at most this often (SPEC §9)
	codesPerWindow   = 5                // codes per phone …
	codesWindow      = 2 * time.Hour    // … in this window
	wrongPerDay      = 10               // wrong entries per phone …
	wrongWindow      = 24 * time.Hour   // … in this window
	wrongPerCode     = 3                // wrong entries before a code is spent
	requestsPerIP    = 30               // code requests per client IP …
	requestsIPWindow = time.Hour        // … in this window
)

// Refusal says which limit refused and when to try again.
type Refusal struct {
	Limit      string        // metric label: phone_interval, phone_window, ip_window, code_attempts, phone_wrong
	RetryAfter time.Duration // 0 when only a new code helps
	Message    string        // Russian, for the customer
}

// Limiter keeps the sign-in limits. In memory by default; several instances
// need a shared store behind the same interface.
type Limiter interface {
	// AllowCode is asked before a code is sent; when it allows, the code
	// counts as sent and the per-code wrong entries start again from zero.
	AllowCode(phone, ip string, now time.Time) *Refusal
	// AllowVerify is asked before a code is checked with the provider.
	AllowVerify(phone string, now time.Time) *Refusal
	// Wrong records a wrong entry.
	Wrong(phone string, now time.Time)
	// Verified forgets the per-code count after a successful sign-in.
	Verified(phone string)
	// NextCode is when phone may ask for a new code.
	NextCode(phone string, now time.Time) time.Time
	// Interval is how long a phone waits between codes.
	Interval() time.Duration
}

type memoryLimiter struct {
	interval time.Duration
	mu       sync.Mutex
	sent     map[string][]time.Time // per phone
	wrong    map[string][]time.Time // per phone
	code     map[string]int         // wrong entries of the current code, per phone
	ips      map[string][]time.Time // code requests per IP
}

// NewMemoryLimiter makes a Limiter for one instance; interval is the wait
// between codes for a phone, CodeInterval when 0.
func NewMemoryLimiter(interval time.Duration) Limiter {
	if interval <= 0 {
		interval = CodeInterval
	}
	return &memoryLimiter{
		interval: interval,
		sent:     map[string][]time.Time{}, wrong: map[string][]time.Time{},
		code: map[string]int{}, ips: map[string][]time.Time{},
	}
}

// recent keeps the times within window before now.
func recent(ts []time.Time, now time.Time, window time.Duration) []time.Time {
	out := ts[:0]
	for _, t := range ts {
		if now.Sub(t) < window {
			out = append(out, t)
		}
	}
	return out
}

func (m *memoryLimiter) AllowCode(phone, ip string, now time.Time) *Refusal {
	m.mu.Lock()
	defer m.mu.Unlock()
	sent := recent(m.sent[phone], now, codesWindow)
	m.sent[phone] = sent
	ips := recent(m.ips[ip], now, requestsIPWindow)
	m.ips[ip] = ips
	if n := len(sent); n > 0 && now.Sub(sent[n-1]) < m.interval {
		wait := m.interval - now.Sub(sent[n-1])
		return &Refusal{"phone_interval", wait, "Новый код можно запросить " + after(wait) + "."}
	}
	if len(sent) >= codesPerWindow {
		wait := codesWindow - now.Sub(sent[0])
		return &Refusal{"phone_window", wait, "Слишком много запросов кода для этого номера. Попробуйте " + after(wait) + "."}
	}
	if len(ips) >= requestsPerIP {
		wait := requestsIPWindow - now.Sub(ips[0])
		return &Refusal{"ip_window", wait, "Слишком много запросов кода. Попробуйте " + after(wait) + "."}
	}
	m.sent[phone] = append(sent, now)
	m.ips[ip] = append(ips, now)
	m.code[phone] = 0
	return nil
}

func (m *memoryLimiter) AllowVerify(phone string, now time.Time) *Refusal {
	m.mu.Lock()
	defer m.mu.Unlock()
	wrong := recent(m.wrong[phone], now, wrongWindow)
	m.wrong[phone] = wrong
	if len(wrong) >= wrongPerDay {
		wait := wrongWindow - now.Sub(wrong[0])
		return &Refusal{"phone_wrong", wait, "Слишком много неверных попыток. Попробуйте " + after(wait) + "."}
	}
	if m.code[phone] >= wrongPerCode {
		wait := time.Duration(0)
		if sent := m.sent[phone]; len(sent) > 0 {
			wait = max(0, m.interval-now.Sub(sent[len(sent)-1]))
		}
		msg := "Код введён неверно " + fmt.Sprint(wrongPerCode) + " раза. Запросите новый код"
		if wait > 0 {
			msg += " — это можно сделать " + after(wait)
		}
		return &Refusal{"code_attempts", wait, msg + "."}
	}
	return nil
}

func (m *memoryLimiter) Wrong(phone string, now time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.wrong[phone] = append(m.wrong[phone], now)
	m.code[phone]++
}

func (m *memoryLimiter) Verified(phone string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.code, phone)
}

func (m *memoryLimiter) Interval() time.Duration { return m.interval }

func (m *memoryLimiter) NextCode(phone string, now time.Time) time.Time {
	m.mu.Lock()
	defer m.mu.Unlock()
	sent := m.sent[phone]
	if len(sent) == 0 {
		return now
	}
	return sent[len(sent)-1].Add(m.interval)
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
