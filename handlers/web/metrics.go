package web

import "github.com/prometheus/client_golang/prometheus"

// counters are the plumbing's metrics.
type counters struct {
	requests    *prometheus.CounterVec
	duration    *prometheus.HistogramVec
	shed        *prometheus.CounterVec
	speculative *prometheus.CounterVec
}

func newMetrics(reg prometheus.Registerer, a *Admission) (*counters, error) {
	m := &counters{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "lk_http_requests_total", Help: "HTTP requests by route, method and status.",
		}, []string{"route", "method", "status"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "lk_http_request_duration_seconds", Help: "HTTP request durations by route and method.",
			Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"route", "method"}),
		shed: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "lk_http_shed_total", Help: "Pages refused with 503 because more were asked than the cores can serve, by route.",
		}, []string{"route"}),
		speculative: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "lk_speculative_requests_total",
			Help: "Pages fetched ahead of a tap (Sec-Purpose), by route and purpose (prefetch, prerender).",
		}, []string{"route", "purpose"}),
	}
	cs := []prometheus.Collector{m.requests, m.duration, m.shed, m.speculative}
	for _, c := range append(cs, admissionMetrics(a)...) {
		if err := reg.Register(c); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// admissionMetrics shows the admission's state at every scrape.
func admissionMetrics(a *Admission) []prometheus.Collector {
	gauge := func(name, help string, v func(AdmissionState) float64) prometheus.Collector {
		return prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help}, func() float64 { return v(a.State()) })
	}
	return []prometheus.Collector{
		gauge("lk_admission_limit", "Pages this instance works on at once at most, as it adapts to its cores.",
			func(st AdmissionState) float64 { return float64(st.Limit) }),
		gauge("lk_admission_in_flight", "Pages being worked on now.",
			func(st AdmissionState) float64 { return float64(st.InFlight) }),
		gauge("lk_admission_queued", "Pages waiting for their turn now.",
			func(st AdmissionState) float64 { return float64(st.Queued) }),
		gauge("lk_admission_sched_latency_seconds", "How long ready goroutines waited for a CPU (90th percentile) when the limit was last adjusted.",
			func(st AdmissionState) float64 { return st.Latency.Seconds() }),
	}
}
