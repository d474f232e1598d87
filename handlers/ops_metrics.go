package handlers

import "github.com/prometheus/client_golang/prometheus"

// opsMetrics count what an operator must act on besides requests: a
// ceiling that refused a customer, and the outcome of every order action.
type opsMetrics struct {
	keptRefused   prometheus.Counter // a document not kept: everyone's ceiling is full
	uploadRefused prometheus.Counter // a refund upload refused: the uploads' room is full
}

func newOpsMetrics(reg prometheus.Registerer) (*opsMetrics, error) {
	m := &opsMetrics{
		keptRefused: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "lk_kept_documents_refused_total",
			Help: "Refund documents not kept for a retry because the ceiling of everyone's kept documents (LK_KEPT_DOCUMENTS_MB) was reached.",
		}),
		uploadRefused: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "lk_uploads_refused_total",
			Help: "Refund uploads refused because the room for uploads in flight was full.",
		}),
	}
	for _, c := range []prometheus.Collector{m.keptRefused, m.uploadRefused} {
		if err := reg.Register(c); err != nil {
			return nil, err
		}
	}
	return m, nil
}
