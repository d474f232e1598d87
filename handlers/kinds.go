package handlers

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"lk/wallet"
	"strings"
	"time"

	"lk/gateway"
	"lk/handlers/web"
	"lk/views"
)

// kind is one kind of order, a type in its own file (kind_*.go) that fetches
// its orders with the session's own client id. What it offers is an optional
// interface: confirmer, canceler, refunder, mover, documenter.
type kind interface {
	info() *kindInfo
	list(ctx context.Context, guid string) ([]order, error)
	one(ctx context.Context, guid, id string) (order, error)
}

type confirmer interface {
	confirm(ctx context.Context, sess *web.Session, o order) error
}

type canceler interface {
	cancel(ctx context.Context, sess *web.Session, o order) (string, error)
}

type refunder interface {
	refund(ctx context.Context, o order, r refundRequest) (string, error)
}

type documenter interface {
	document(ctx context.Context, id string) ([]byte, error)
}

// passer is a kind whose bookings go to Apple Wallet.
type passer interface {
	// ready is how many passes o has now, or why it has none.
	ready(o order) (int, error)
	passes(ctx context.Context, o order) ([]wallet.Pass, error)
}

// passInfo names an order's passes: file for one, bundle for several.
type passInfo struct {
	file, bundle string
}

type kindInfo struct {
	id     gateway.Kind
	label  string
	labels map[action]string // buttons worded for this kind, 'Отменить запись'
	// versus: how a paid order's cancel and refund differ for the money.
	versus map[action]string
	// choose: the same, one sentence per button beside the order's buttons.
	choose    map[action]string
	failed    string        // a failed fetch's text when the provider gave none
	document  *documentInfo // nil without a PDF
	pass      *passInfo     // nil without Wallet passes
	renumbers bool          // a move gives the booking a new id
	byTickets bool
	actions   []action // in the order of the buttons
	// moveIslands' files are fetched while an order offering the move is read.
	moveIslands []string
}

type documentInfo struct {
	file  string // "ticket.pdf"
	label string // 'Мой билет'
}

type order struct {
	kind    kind
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

type ticket struct {
	id     string
	label  string // "№ 1 · Взрослый · 1 500 ₽"
	status string // "(возвращен)", "" for a paid one
	paid   bool   // the only ones a refund may give back
	number string // "№ 1"
	// refunding: a refund of it is registered (by another tab, say).
	refunding bool
	price     float64 // of a paid one
}

func stamp(k kind, o *order) {
	i := k.info()
	o.kind = k
	o.card.Kind, o.card.KindLabel, o.card.ID, o.card.URL = string(i.id), i.label, o.id, views.OrderPath(string(i.id), o.id)
	o.detail.Kind, o.detail.KindLabel, o.detail.ID = string(i.id), i.label, o.id
}

func (o order) url(part ...string) string {
	return views.OrderPath(string(o.kind.info().id), o.id, part...)
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

func newCard(title, when string, st views.KV, amount float64, lines []views.KV) views.OrderCard {
	return views.OrderCard{Title: title, When: when, Status: st, Amount: views.Money(amount), Lines: lines}
}

func detail(title string, lines []views.KV) views.OrderDetail {
	return views.OrderDetail{Title: title, Lines: lines}
}

// chooseNotes say what each money-back button does, when the page offers both.
func chooseNotes(o order, shown []views.Action) []string {
	var cancel, refund bool
	for _, b := range shown {
		cancel = cancel || b.Name == string(actCancel)
		refund = refund || b.Name == string(actRefund)
	}
	if !cancel || !refund {
		return nil
	}
	return []string{o.kind.info().choose[actCancel], o.kind.info().choose[actRefund]}
}

func versusNote(o order, a action) string {
	if !o.paid || !o.can[actCancel] || !o.can[actRefund] {
		return ""
	}
	return o.kind.info().versus[a]
}

func hoursSpan(from, to time.Time) string {
	return views.Clock(from) + "–" + views.Clock(to)
}

func totalLine(v float64) views.KV { return views.KV{Key: "Итого", Value: views.Money(v)} }

func paidStatus(canceled, paid bool) views.KV {
	class := "badge-err"
	if paid && !canceled {
		class = "badge-ok"
	}
	return views.KV{Key: "Статус", Value: gateway.StatusLabel(canceled, paid), Class: class}
}

// Ids as the provider issues them are safe in a file name and a header.
func validID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	return strings.IndexFunc(id, func(r rune) bool {
		return !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '-' || r == '_' || r == '.')
	}) < 0
}

// withMoneyBack adds to a paid order's cancellation when the money comes back.
func withMoneyBack(msg string, o order) string {
	if o.paid {
		return msg + " " + msgMoneyBack
	}
	return msg
}

// Summary defaults to "{kind}: {title}".
type calEvent struct {
	Summary string
	Start   time.Time
	End     time.Time
	Place   string // after the resort's name: "Беседка №3"
	Notes   []string
}

type refundRequest struct {
	Form      gateway.RefundForm
	Documents []gateway.File
	Tickets   []string // ticket ids
}

// action is the last part of its URL, /orders/{type}/{id}/{action}.
type action string

const (
	actConfirm  action = "confirm"
	actTransfer action = "transfer"
	actCancel   action = "cancel"
	actRefund   action = "refund"
)

// refused is said to a posted form, which was shown while the order allowed
// the action; never to a page the order may never have allowed.
var actionTexts = map[action]struct{ label, refused, never string }{
	actConfirm:  {"Подтвердить запись", "Эту запись уже подтвердили или её нельзя подтвердить.", "Эту запись уже подтвердили или её нельзя подтвердить."},
	actTransfer: {"Перенести", "Этот заказ уже нельзя перенести.", "Этот заказ нельзя перенести."},
	actCancel:   {"Отменить", "Этот заказ уже нельзя отменить.", "Этот заказ нельзя отменить."},
	actRefund:   {"Оформить возврат", "По этому заказу возврат оформить нельзя.", "По этому заказу возврат оформить нельзя."},
}

func (a action) label(k kind) string {
	if l, ok := k.info().labels[a]; ok {
		return l
	}
	return actionTexts[a].label
}

func movedKey(k kind, id string) string { return string(k.info().id) + "-" + id }

// The store keeps a digest of the client's id, never the id itself.
func ownerMark(guid string) string {
	sum := sha256.Sum256([]byte("lk-moved-owner\x00" + guid))
	return hex.EncodeToString(sum[:12])
}
