package web

import (
	"net/http"
	"sync"
	"time"

	"github.com/labstack/echo/v5"
)

// shedWarnEvery is how often the log sums up the pages refused.
const shedWarnEvery = 10 * time.Second

// Admit lets GET and HEAD of held routes in as the cores can serve them and
// answers the rest with the Russian 503 and Retry-After. A form sent is never
// refused here: the customer cannot simply ask again.
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

// keyShed marks a refused request: its log line is debug, as refusals are summed up.
const keyShed = "lk.shed"

// refuse answers with the Russian 503 at next to no cost: the page of nobody
// signed in is prepared once and only its nonce filled in.
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

// shedLog says in one WARN line per shedWarnEvery how many pages were refused, by route.
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
