package handlers

import (
	"sync"
	"time"

	"lk/store"
)

// codeRules are the limits on SMS codes: per phone, browser and address,
// and the ceiling for the whole service.
type codeRules struct {
	limits   store.Limiter
	interval time.Duration // a new code per phone at most this often
	budget   SMSBudget
	gauge    budgetGauge
}

// Every SMS costs the resort money, so codes have a ceiling for the whole
// service (all instances together) per hour and per day: beyond it, sign-in
// by a new code waits. The defaults are about twice the codes of the
// resort's busiest hour and day.
//
// A flood of codes comes from sign-ups to new numbers and from browsers the
// account has never seen; the resort's own customers, signing in again
// from a browser they signed in from before (the device cookie), must not
// pay for it. So the ceiling is shared out by who asks: sign-ups may spend
// at most half of it, sign-ups and sign-ins from unknown browsers together
// three quarters, and the last quarter (plus whatever the others left) is
// only for known browsers. Refused by its share, a class is refused alone.
const (
	DefaultCodesPerHour = 600
	DefaultCodesPerDay  = 4000
	budgetWarnShare     = 0.8  // a warning in the log when a budget is this full
	signupShare         = 0.5  // of the ceiling, for sign-ups to new numbers …
	unknownShare        = 0.75 // … and for sign-ups and unknown browsers together
)

// SMSBudget is the ceiling on codes sent per hour and per day.
type SMSBudget struct{ Hour, Day int }

// Who asks for a code, as the budget shares it out.
type codeClass string

const (
	classSignup  codeClass = "signup"          // a sign-up to a new number
	classUnknown codeClass = "unknown_browser" // a sign-in from a browser not known for the phone
	classKnown   codeClass = "known_browser"   // a sign-in from a browser the customer signed in from
)

// rules are the budgets a code of class c counts against, its class's
// share first (a refusal names the share that is spent), the whole last.
func (b SMSBudget) rules(c codeClass) []store.Rule {
	var rules []store.Rule
	share := func(name string, share float64) {
		rules = append(rules,
			store.Rule{Name: "sms_hour_" + name, Key: "budget:hour:" + name, Max: max(1, int(share*float64(b.Hour))), Window: time.Hour},
			store.Rule{Name: "sms_day_" + name, Key: "budget:day:" + name, Max: max(1, int(share*float64(b.Day))), Window: 24 * time.Hour})
	}
	if c == classSignup {
		share("signup", signupShare)
	}
	if c != classKnown {
		share("unknown", unknownShare)
	}
	return append(rules,
		store.Rule{Name: "sms_hour", Key: "budget:hour", Max: b.Hour, Window: time.Hour},
		store.Rule{Name: "sms_day", Key: "budget:day", Max: b.Day, Window: 24 * time.Hour})
}

// budgetGauge keeps the budget gauges from going back in a burst: parallel
// takes finish in any order, so within a second of the count shown only a
// higher count is shown; a lower one (the window has moved on) only later.
type budgetGauge struct {
	mu   sync.Mutex
	last map[string]budgetMark
}

type budgetMark struct {
	at time.Time
	n  int
}

// setAbove runs set (under the lock, so that sets land in the order decided)
// when the count n, seen at at, is to be shown.
func (g *budgetGauge) setAbove(name string, at time.Time, n int, set func()) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if m, ok := g.last[name]; ok && n <= m.n && at.Sub(m.at) < time.Second {
		return
	}
	if g.last == nil {
		g.last = map[string]budgetMark{}
	}
	g.last[name] = budgetMark{at, n}
	set()
}
