// Package handlers holds the echo handlers of the personal account: one
// file per screen, action or kind of order, every route in routes.go, on the
// request plumbing of handlers/web.
package handlers

import (
	"log/slog"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"lk/handlers/web"
	"lk/store"
)

// Server is the personal account's HTTP handler: its pages, sign-in and
// order actions, on the request plumbing of web.
type Server struct {
	sessions    *web.Sessions
	shell       *shell
	uploads     *uploads
	kinds       []kind // in the order the pages show them
	account     accountProvider
	codes       codeRules // the limits on SMS codes
	stores      stores    // what outlives a request
	log         *slog.Logger
	clock       // the resort's
	moves       moveBook
	metrics     *metrics
	ops         *opsMetrics
	callTimeout time.Duration
	passes      *passKit // nil: no Wallet passes
}

// moveBook keeps where moved bookings went and their first ids.
type moveBook struct {
	moves store.Moves
	log   *slog.Logger
}

// stores keep what an action leaves behind for the requests after it.
type stores struct {
	once   store.Once        // one-time action tokens
	files  store.RefundFiles // refund documents kept after a refusal
	moves  store.Moves       // first ids of moved bookings
	acts   store.Acts        // what each customer last did to an order
	leases store.Leases      // one action at a time per order
	// numbers whose codes were entered: their codes come from the
	// customers' shares of the SMS budget
	numbers store.Numbers
	// forms sent after their session ended, waiting for the sign-in
	kept store.KeptForms
}

// fill puts the in-memory store in place of each that was not given.
func (st *stores) fill(now func() time.Time) {
	if st.once == nil {
		st.once = store.NewMemoryOnce(now)
	}
	if st.leases == nil {
		st.leases = store.NewMemoryLeases(now)
	}
	if st.files == nil {
		st.files = store.NewMemoryRefundFiles(now)
	}
	if st.moves == nil {
		st.moves = store.NewMemoryMoves(now)
	}
	if st.kept == nil {
		st.kept = store.NewMemoryKeptForms(now)
	}
	if st.acts == nil {
		st.acts = store.NewMemoryActs(now)
	}
	if st.numbers == nil {
		st.numbers = store.NewMemoryNumbers(now)
	}
}

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
			Name: "lk_sms_budget_refusals_total", Help: "Codes refused because an SMS budget was spent, by who asked (signup, new_number, unknown_browser, known_browser) and budget.",
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
	keptRefused   prometheus.Counter // a document not kept: everyone's ceiling is full
	actions       *prometheus.CounterVec
	uploadRefused *prometheus.CounterVec // by reason
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
		uploadRefused: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "lk_uploads_refused_total",
			Help: "Refund uploads refused with 503 before their documents were read, by reason: full (the room for uploads in flight), session (another upload of the session in flight), draining (the instance shuts down).",
		}, []string{"reason"}),
	}
	for _, c := range []prometheus.Collector{m.keptRefused, m.actions, m.uploadRefused} {
		if err := reg.Register(c); err != nil {
			return nil, err
		}
	}
	return m, nil
}
