package handlers

import (
	"sync"
	"time"

	"lk/store"
)

// codeRules are the limits on SMS codes: per phone, browser, address and service.
type codeRules struct {
	limits   store.Limiter
	interval time.Duration // a new code per phone at most this often
	budget   SMSBudget
	gauge    budgetGauge
	warned   refusalLog
}

// Every SMS costs money, so codes have a ceiling for the whole service per hour
// and per day, about twice the busiest. A flood must not cost customers their
// sign-in: sign-ups and numbers nobody has entered a code of yet may spend
// half of it, with customers' numbers on unknown browsers three quarters, and
// the last quarter is only for known browsers. A pump's numbers stay in the
// first half however it asks for them, until it enters their codes.
const (
	DefaultCodesPerHour = 600
	DefaultCodesPerDay  = 4000
	budgetWarnShare     = 0.8  // a warning in the log when a budget is this full
	signupShare         = 0.5  // of the ceiling, for sign-ups to new numbers …
	unknownShare        = 0.75 // … and for sign-ups and unknown browsers together
)

type SMSBudget struct{ Hour, Day int }

// Who asks for a code, as the budget shares it out.
type codeClass string

const (
	classSignup    codeClass = "signup"          // a sign-up to a new number
	classNewNumber codeClass = "new_number"      // a sign-in to a number no code of which was entered yet
	classUnknown   codeClass = "unknown_browser" // a sign-in to a customer's number from a browser not known for it
	classKnown     codeClass = "known_browser"   // a sign-in from a browser the customer signed in from
)

// A number is a customer's for a year after a code sent to it was entered,
// as long as a browser is known for it.
const confirmedNumberFor = 365 * 24 * time.Hour

// rules are the budgets a code of class c counts against, its share first.
func (b SMSBudget) rules(c codeClass) []store.Rule {
	var rules []store.Rule
	share := func(name string, share float64) {
		rules = append(rules,
			store.Rule{Name: "sms_hour_" + name, Key: "budget:hour:" + name, Max: max(1, int(share*float64(b.Hour))), Window: time.Hour},
			store.Rule{Name: "sms_day_" + name, Key: "budget:day:" + name, Max: max(1, int(share*float64(b.Day))), Window: 24 * time.Hour})
	}
	if c == classSignup || c == classNewNumber {
		share("signup", signupShare)
	}
	if c != classKnown {
		share("unknown", unknownShare)
	}
	return append(rules,
		store.Rule{Name: "sms_hour", Key: "budget:hour", Max: b.Hour, Window: time.Hour},
		store.Rule{Name: "sms_day", Key: "budget:day", Max: b.Day, Window: 24 * time.Hour})
}

// budgetGauge keeps the gauges from going back in a burst of parallel takes:
// within a second of a count shown, only a higher count is shown.
type budgetGauge struct {
	mu   sync.Mutex
	last map[string]budgetMark
}

type budgetMark struct {
	at time.Time
	n  int
}

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

const refusalWarnEvery = 10 * time.Second

// refusalLog says when a refusal of a kind is to be warned of: the first
// one, and the first after refusalWarnEvery since the last warning.
type refusalLog struct {
	mu   sync.Mutex
	last map[string]refusalMark
}

type refusalMark struct {
	at       time.Time
	unwarned int // refused since the warning at at
}

// note counts a refusal; warn, with how many went unwarned since the last.
func (l *refusalLog) note(kind string, now time.Time) (warn bool, unwarned int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	m, ok := l.last[kind]
	if ok && now.Sub(m.at) < refusalWarnEvery && !now.Before(m.at) {
		m.unwarned++
		l.last[kind] = m
		return false, 0
	}
	if l.last == nil {
		l.last = map[string]refusalMark{}
	}
	l.last[kind] = refusalMark{at: now}
	return true, m.unwarned
}
