package handlers

import (
	"github.com/prometheus/client_golang/prometheus"
)

// metrics count the sign-in's steps and what its limits refused.
type metrics struct {
	refusals *prometheus.CounterVec
	signins  *prometheus.CounterVec
	budget   *prometheus.GaugeVec
	spent    *prometheus.CounterVec
}

func newMetrics(reg prometheus.Registerer) (*metrics, error) {
	m := &metrics{
		refusals: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "lk_signin_limit_refusals_total", Help: "Sign-in steps refused by a limit, by limit.",
		}, []string{"limit"}),
		signins: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "lk_signin_attempts_total", Help: "Sign-in steps by step and outcome.",
		}, []string{"step", "outcome"}),
		budget: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "lk_sms_budget_used_ratio", Help: "Share of the SMS code budget used, by budget (sms_hour, sms_day, and the shares sms_hour_signup, sms_hour_unknown, …), as of a code this instance sent lately.",
		}, []string{"budget"}),
		spent: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "lk_sms_budget_refusals_total", Help: "Codes refused because an SMS budget was spent, by who asked (signup, unknown_browser, known_browser) and budget.",
		}, []string{"class", "budget"}),
	}
	for _, c := range []prometheus.Collector{m.refusals, m.signins, m.budget, m.spent} {
		if err := reg.Register(c); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// opsMetrics count what an operator must act on besides requests: a
// ceiling that refused a customer, and the outcome of every order action.
type opsMetrics struct {
	keptRefused prometheus.Counter // a document not kept: everyone's ceiling is full
	actions     *prometheus.CounterVec
}

func newOpsMetrics(reg prometheus.Registerer) (*opsMetrics, error) {
	m := &opsMetrics{
		keptRefused: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "lk_kept_documents_refused_total",
			Help: "Refund documents not kept for a retry because the ceiling of everyone's kept documents (LK_KEPT_DOCUMENTS_MB) was reached.",
		}),
		actions: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "lk_actions_total",
			Help: "Order actions (confirm, transfer, cancel, refund) by kind of order and outcome; a form sent again is a replay.",
		}, []string{"kind", "action", "outcome"}),
	}
	for _, c := range []prometheus.Collector{m.keptRefused, m.actions} {
		if err := reg.Register(c); err != nil {
			return nil, err
		}
	}
	return m, nil
}
