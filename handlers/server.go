// Package handlers holds the echo handlers of the personal account: one
// file per screen or action, every route in routes.go, and the middleware.
package handlers

import (
	"log/slog"
	"time"

	"lk/handlers/web"
	"lk/store"
)

// Server is the personal account's HTTP handler: its pages, sign-in and
// order actions, on the request plumbing of web.Kit.
type Server struct {
	web         *web.Kit
	account     accountProvider
	lessons     lessonProvider
	rents       rentProvider
	aqua        aquaProvider
	hotel       hotelProvider
	codes       codeRules // the limits on SMS codes
	stores      stores    // what outlives a request
	log         *slog.Logger
	loc         *time.Location
	now         func() time.Time
	metrics     *metrics
	ops         *opsMetrics
	callTimeout time.Duration
}

// stores keep what an action leaves behind for the requests after it.
type stores struct {
	once   store.Once        // one-time action tokens
	files  store.RefundFiles // refund documents kept after a refusal
	moves  store.Moves       // first ids of moved bookings
	acts   store.Acts        // what each customer last did to an order
	leases store.Leases      // one action at a time per order
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
	if st.acts == nil {
		st.acts = store.NewMemoryActs(now)
	}
}
