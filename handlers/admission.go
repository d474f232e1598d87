package handlers

import (
	"net/http"
	"sync"
	"time"

	"github.com/labstack/echo/v5"
	"github.com/prometheus/client_golang/prometheus"

	"lk/handlers/web"
)

// shedWarnEvery is how often the log says, while pages are being refused,
// how many were and why.
const shedWarnEvery = 10 * time.Second

// admit lets the account's pages in as the cores can serve them (see
// web.Admission), and answers the rest with the Russian 503 and
// Retry-After. Only the signed-in pages and documents (GET and HEAD of the
// routes marked shed) wait or are refused: the sign-in pages, static files
// and health checks never are, and a form sent is never refused here, since
// the customer cannot simply ask again for what it did.
func (s *Server) admit(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c *echo.Context) error {
		r := c.Request()
		if (r.Method != http.MethodGet && r.Method != http.MethodHead) || !s.shed[c.Path()] {
			return next(c)
		}
		var done func()
		var ok bool
		if speculativePurpose(r) != "" { // fetched ahead: never waits
			done, ok = s.admission.TryAdmit()
		} else {
			done, ok = s.admission.Admit(r.Context())
		}
		if !ok {
			s.metrics.shed.WithLabelValues(c.Path()).Inc()
			s.shedWarn.note(s, c.Path())
			return s.refuse(c)
		}
		defer done()
		return next(c)
	}
}

// keyShed marks a request refused by admit: its access log line is at
// debug level, since the refusals are counted and said every 10 s.
const keyShed = "lk.shed"

// refuse answers a page there is no room for with the Russian 503 and
// Retry-After at next to no cost: the page is prepared once (the shell of
// nobody signed in, as the session is not read for it) and only its nonce
// filled in. An island's JSON gets its JSON as any refusal.
func (s *Server) refuse(c *echo.Context) error {
	c.Set(keyShed, true)
	w := c.Response()
	w.Header().Set(echo.HeaderRetryAfter, busyRetry)
	if c.Request().Method == http.MethodHead || wantsJSON(c) {
		return errBusy
	}
	f, err := s.frames.busy(s)
	if err != nil {
		return errBusy
	}
	return f.whole(w, http.StatusServiceUnavailable, nonce(c))
}

// shedLog says in one WARN line at most every shedWarnEvery how many pages
// were refused since the last, by route, with the admission's state.
type shedLog struct {
	mu      sync.Mutex
	last    time.Time
	byRoute map[string]int
}

func (l *shedLog) note(s *Server, route string) {
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
	st := s.admission.State()
	s.log.Warn("shedding pages: more asked than the cores can serve", "refused", routes, "limit", st.Limit,
		"in_flight", st.InFlight, "queued", st.Queued, "sched_latency_ms", float64(st.Latency.Microseconds())/1000)
}

// admissionMetrics shows the admission's state at every scrape.
func admissionMetrics(a *web.Admission) []prometheus.Collector {
	gauge := func(name, help string, v func(web.AdmissionState) float64) prometheus.Collector {
		return prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help}, func() float64 { return v(a.State()) })
	}
	return []prometheus.Collector{
		gauge("lk_admission_limit", "Pages this instance works on at once at most, as it adapts to its cores.",
			func(st web.AdmissionState) float64 { return float64(st.Limit) }),
		gauge("lk_admission_in_flight", "Pages being worked on now.",
			func(st web.AdmissionState) float64 { return float64(st.InFlight) }),
		gauge("lk_admission_queued", "Pages waiting for their turn now.",
			func(st web.AdmissionState) float64 { return float64(st.Queued) }),
		gauge("lk_admission_sched_latency_seconds", "How long ready goroutines waited for a CPU (90th percentile) when the limit was last adjusted.",
			func(st web.AdmissionState) float64 { return st.Latency.Seconds() }),
	}
}
