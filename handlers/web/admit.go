package web

import (
	"net/http"
	"sync"
	"time"

	"github.com/labstack/echo/v5"
)

// shedWarnEvery is how often the log says, while pages are being refused,
// how many were and why.
const shedWarnEvery = 10 * time.Second

// Admit lets the account's pages in as the cores can serve them (see
// Admission), and answers the rest with the Russian 503 and
// Retry-After. Only the signed-in pages and documents (GET and HEAD of the
// routes marked shed) wait or are refused: the sign-in pages, static files
// and health checks never are, and a form sent is never refused here, since
// the customer cannot simply ask again for what it did.
func (k *Kit) Admit(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c *echo.Context) error {
		r := c.Request()
		if (r.Method != http.MethodGet && r.Method != http.MethodHead) || !k.held[c.Path()] {
			return next(c)
		}
		var done func()
		var ok bool
		if SpeculativePurpose(r) != "" { // fetched ahead: never waits
			done, ok = k.Admission.TryAdmit()
		} else {
			done, ok = k.Admission.Admit(r.Context())
		}
		if !ok {
			k.metrics.shed.WithLabelValues(c.Path()).Inc()
			k.shedWarn.note(k, c.Path())
			return k.refuse(c)
		}
		defer done()
		return next(c)
	}
}

// keyShed marks a request refused by admit: its access log line is at
// debug level, since the refusals are counted and said every 10 k.
const keyShed = "lk.shed"

// refuse answers a page there is no room for with the Russian 503 and
// Retry-After at next to no cost: the page is prepared once (the shell of
// nobody signed in, as the session is not read for it) and only its nonce
// filled in. An island's JSON gets its JSON as any refusal.
func (k *Kit) refuse(c *echo.Context) error {
	c.Set(keyShed, true)
	w := c.Response()
	w.Header().Set(echo.HeaderRetryAfter, BusyRetry)
	if c.Request().Method == http.MethodHead || WantsJSON(c) {
		return ErrBusy
	}
	f, err := k.frames.busy(k)
	if err != nil {
		return ErrBusy
	}
	return f.whole(w, http.StatusServiceUnavailable, Nonce(c))
}

// shedLog says in one WARN line at most every shedWarnEvery how many pages
// were refused since the last, by route, with the admission's state.
type shedLog struct {
	mu      sync.Mutex
	last    time.Time
	byRoute map[string]int
}

func (l *shedLog) note(k *Kit, route string) {
	l.mu.Lock()
	if l.byRoute == nil {
		l.byRoute = map[string]int{}
	}
	l.byRoute[route]++
	now := time.Now()
	if now.Sub(l.last) < shedWarnEvery {
		l.mu.Unlock()
		return
	}
	routes := l.byRoute
	l.last, l.byRoute = now, nil
	l.mu.Unlock()
	st := k.Admission.State()
	k.Logger.Warn("shedding pages: more asked than the cores can serve", "refused", routes, "limit", st.Limit,
		"in_flight", st.InFlight, "queued", st.Queued, "sched_latency_ms", float64(st.Latency.Microseconds())/1000)
}
