package web

import (
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/labstack/echo/v5"
	"github.com/prometheus/client_golang/prometheus"

	"lk/views"
)

// shedWarnEvery is how often the log sums up the pages refused.
const shedWarnEvery = 10 * time.Second

// Admitter lets GET and HEAD of held routes in as the cores can serve them and
// answers the rest with the Russian 503 and Retry-After. A form sent is never
// refused here: the customer cannot simply ask again.
type Admitter struct {
	admission *Admission
	held      map[string]bool // routes whose pages wait their turn or are refused
	shed      *prometheus.CounterVec
	warn      shedLog
	log       *slog.Logger
	busy      busyPage
}

// NewAdmitter registers the admission's metrics; a nil a is an adaptive default.
func NewAdmitter(a *Admission, site *views.Site, assets *views.Assets, log *slog.Logger, reg prometheus.Registerer) (*Admitter, error) {
	if a == nil {
		a = NewAdmission(AdmissionConfig{})
	}
	ad := &Admitter{admission: a, held: map[string]bool{}, log: log, busy: busyPage{site: site, assets: assets},
		shed: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "lk_http_shed_total", Help: "Pages refused with 503 because more were asked than the cores can serve, by route.",
		}, []string{"route"}),
	}
	if err := register(reg, append(admissionMetrics(a), ad.shed)...); err != nil {
		return nil, err
	}
	return ad, nil
}

// Hold marks a route whose pages take their turn under overload.
func (ad *Admitter) Hold(route string) { ad.held[route] = true }

func (ad *Admitter) Admit(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c *echo.Context) error {
		r := c.Request()
		if (r.Method != http.MethodGet && r.Method != http.MethodHead) || !ad.held[c.Path()] {
			return next(c)
		}
		var done func()
		var ok bool
		if speculativePurpose(r) != "" { // fetched ahead: never waits
			done, ok = ad.admission.tryAdmit()
		} else {
			done, ok = ad.admission.admit(r.Context())
		}
		if !ok {
			ad.shed.WithLabelValues(c.Path()).Inc()
			ad.warn.note(ad, c.Path())
			return ad.refuse(c)
		}
		defer done()
		return next(c)
	}
}

// refuse answers with the Russian 503 at next to no cost: the page of nobody
// signed in is prepared once and only its nonce filled in.
func (ad *Admitter) refuse(c *echo.Context) error {
	c.Set(keyShed, true)
	w := c.Response()
	w.Header().Set(echo.HeaderRetryAfter, busyRetry)
	if c.Request().Method == http.MethodHead || WantsJSON(c) {
		return ErrBusy
	}
	f, err := ad.busy.get()
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

func (l *shedLog) note(ad *Admitter, route string) {
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
	st := ad.admission.state()
	ad.log.Warn("shedding pages: more asked than the cores can serve", "refused", routes, "limit", st.Limit,
		"in_flight", st.InFlight, "queued", st.Queued, "sched_latency_ms", float64(st.Latency.Microseconds())/1000)
}

// admissionMetrics shows the admission's state at every scrape.
func admissionMetrics(a *Admission) []prometheus.Collector {
	gauge := func(name, help string, v func(admissionState) float64) prometheus.Collector {
		return prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help}, func() float64 { return v(a.state()) })
	}
	return []prometheus.Collector{
		gauge("lk_admission_limit", "Pages this instance works on at once at most, as it adapts to its cores.",
			func(st admissionState) float64 { return float64(st.Limit) }),
		gauge("lk_admission_in_flight", "Pages being worked on now.",
			func(st admissionState) float64 { return float64(st.InFlight) }),
		gauge("lk_admission_queued", "Pages waiting for their turn now.",
			func(st admissionState) float64 { return float64(st.Queued) }),
		gauge("lk_admission_sched_latency_seconds", "How long ready goroutines waited for a CPU (90th percentile) when the limit was last adjusted.",
			func(st admissionState) float64 { return st.Latency.Seconds() }),
	}
}
