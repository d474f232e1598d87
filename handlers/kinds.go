package handlers

import (
	"context"
	"slices"
	"time"

	"lk/gateway"
	"lk/views"
)

// kind is everything that differs between the kinds of orders: the label,
// how its orders are fetched (always with the session's own client id), how
// one becomes a card and a detail page, its document, the actions it offers
// and the provider calls behind them. Each kind fills one in its own file
// (kind_lesson.go, kind_rent.go, kind_aqua.go, kind_hotel.go); everything
// else loops over kinds and never names one.
type kind struct {
	id     gateway.Kind
	label  string
	labels map[action]string // buttons worded for this kind, 'Отменить запись'
	// versus says, on the page of a paid order's cancel or refund, how the
	// two differ for the customer's money, when the order offers both.
	versus map[action]string
	failed string // what a failed fetch says when the provider gave no text; "" for the generic one
	// list fetches the customer's orders of this kind; one fetches one of
	// them (the provider answers "not found" for anyone else's).
	list func(ctx context.Context, s *Server, guid string) ([]order, error)
	one  func(ctx context.Context, s *Server, guid, id string) (order, error)
	// document is 'Мой билет' or 'Мой ваучер'; nil when the kind has none.
	document *document
	// keepsCanceled: a cancelled order stays in the customer's orders,
	// marked 'Отменен'; the others leave the list.
	keepsCanceled bool
	// byTickets: a refund gives back the tickets the customer picks, not
	// the whole order.
	byTickets bool
	// actions are what this kind offers at all, in the order of the
	// buttons; whether one order allows an action now is order.can.
	actions []action
	confirm func(ctx context.Context, s *Server, sess *Session, o order) error
	// cancel makes the provider calls that cancel o and returns the notice
	// the customer reads after it.
	cancel func(ctx context.Context, s *Server, sess *Session, o order) (string, error)
	// refund registers a refund of o and returns the provider's message.
	refund   func(ctx context.Context, s *Server, o order, r refundRequest) (string, error)
	transfer mover
}

// document is a kind's PDF, named by the kind and the order id.
type document struct {
	file  string // "ticket.pdf"
	label string // 'Мой билет'
	fetch func(ctx context.Context, s *Server, id string) ([]byte, error)
}

// order is one order of any kind as pages and actions need it, built once
// from the provider's answer by its kind's builder.
type order struct {
	kind    *kind
	id      string
	ref     gateway.OrderRef // start, end, canceled: for the active/history split
	amount  float64          // what a cancellation or refund is about
	paid    bool             // money was taken, so a cancellation returns it
	card    views.OrderCard  // without its actions
	detail  views.OrderDetail
	can     map[action]bool // what the order allows now
	noDoc   string          // why the document may not be opened; "" when it may
	event   calEvent        // the booking as a calendar event
	tickets []ticket        // what a refund by tickets may give back
	wire    any             // the provider's order, read only in its kind's file
}

// ticket is one ticket of an order as a refund form shows and checks it.
type ticket struct {
	id     string
	label  string  // "№ 1 · Взрослый · 1 500 ₽"
	status string  // "(возвращен)", "" for a paid one
	paid   bool    // the only ones a refund may give back
	price  float64 // of a paid one
}

// kinds is the table, in the order the pages show the kinds.
var kinds = []*kind{lessonKind, pavilionKind, aquaKind, hotelKind, roomKind}

func kindOf(id gateway.Kind) *kind {
	for _, k := range kinds {
		if k.id == id {
			return k
		}
	}
	return nil
}

// offers tells whether the kind has action a at all.
func (k *kind) offers(a action) bool {
	switch {
	case a == actConfirm && k.confirm == nil, a == actCancel && k.cancel == nil,
		a == actRefund && k.refund == nil, a == actTransfer && k.transfer == nil:
		return false
	}
	return slices.Contains(k.actions, a)
}

func (k *kind) orders(ctx context.Context, s *Server, guid string) ([]order, error) {
	list, err := k.list(ctx, s, guid)
	for i := range list {
		k.stamp(&list[i])
	}
	return list, err
}

func (k *kind) order(ctx context.Context, s *Server, guid, id string) (order, error) {
	o, err := k.one(ctx, s, guid, id)
	if err == nil {
		k.stamp(&o)
	}
	return o, err
}

// stamp marks what a builder made as this kind's.
func (k *kind) stamp(o *order) {
	o.kind = k
	o.card.Kind, o.card.KindLabel, o.card.ID, o.card.URL = string(k.id), k.label, o.id, views.OrderPath(string(k.id), o.id)
	o.detail.Kind, o.detail.KindLabel, o.detail.ID = string(k.id), k.label, o.id
}

// url is the address of o's page, or of its action or document part.
func (o order) url(part ...string) string {
	return views.OrderPath(string(o.kind.id), o.id, part...)
}

func build[T any](wire []T, err error, b func(T) order) ([]order, error) {
	if err != nil {
		return nil, err
	}
	out := make([]order, 0, len(wire))
	for _, w := range wire {
		out = append(out, b(w))
	}
	return out, nil
}

func buildOne[T any](wire T, err error, b func(T) order) (order, error) {
	if err != nil {
		return order{}, err
	}
	return b(wire), nil
}

// card is an order in a list: the compact summary (when, status, amount)
// and the full lines that action pages show.
func card(title, when string, st views.KV, amount float64, lines []views.KV) views.OrderCard {
	return views.OrderCard{Title: title, When: when, Status: st, Amount: views.Money(amount), Lines: lines}
}

func detail(title string, lines []views.KV) views.OrderDetail {
	return views.OrderDetail{Title: title, Lines: lines}
}

// versusNote is what the kind says on action a's page of o about the other
// way to get the money back ("" when it says nothing).
func versusNote(o order, a action) string {
	if !o.paid || !o.can[actCancel] || !o.can[actRefund] {
		return ""
	}
	return o.kind.versus[a]
}

// providerTime reads one of the provider's dates (dd.mm.yyyy hh:mm:ss, ISO,
// …) in the resort's zone; an unreadable one is the zero time.
func (s *Server) providerTime(raw string) time.Time {
	t, _ := gateway.ParseDateTime(raw, s.loc)
	return t
}

// span is "12:00–15:00".
func span(from, to time.Time) string {
	return views.Clock(from) + "–" + views.Clock(to)
}

func total(v float64) views.KV { return views.KV{Key: "Итого", Value: views.Money(v)} }

func status(canceled, paid bool) views.KV {
	class := "badge-err"
	if paid && !canceled {
		class = "badge-ok"
	}
	return views.KV{Key: "Статус", Value: gateway.StatusLabel(canceled, paid), Class: class}
}
