package handlers

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v5"

	"lk/gateway"
	"lk/views"
)

// kind is everything that differs between the five kinds of orders: the
// label, how its orders are fetched (always with the session's own client
// id), how one becomes a card and a detail page, its document, the actions
// it offers and the provider calls behind them. Handlers, the guard and the
// views loop over kinds instead of switching on the kind.
type kind struct {
	id     gateway.Kind
	label  string
	labels map[action]string // buttons worded for this kind, 'Отменить запись'
	failed string            // SPEC §8's text when the provider gave none; "" for the generic one
	// list fetches the customer's orders of this kind; one fetches one of
	// them (gateway.ErrNotFound for anyone else's).
	list func(ctx context.Context, s *Server, guid string) ([]order, error)
	one  func(ctx context.Context, s *Server, guid, id string) (order, error)
	// document is 'Мой билет' or 'Мой ваучер'; nil when the kind has none.
	document *document
	// keepsCanceled: a cancelled order stays in the customer's orders,
	// marked 'Отменен' (lessons and rents leave them).
	keepsCanceled bool
	// actions are what this kind offers at all, in the order of the
	// buttons; whether one order allows an action now is order.can.
	actions []action
	// cancel makes the provider calls that cancel o; it returns the notice
	// (SPEC §8 or the provider's) for the customer.
	cancel func(ctx context.Context, s *Server, sess *Session, o order) (string, error)
	// refund registers a refund of o and returns the provider's message.
	refund func(ctx context.Context, s *Server, o order, r refundRequest) (string, error)
	// transfer is the kind's move to another day or other hours.
	transfer *transfer
}

// refundRequest is what a refund sends besides the order: the customer's
// contact and reason, the documents, and for the water park the tickets.
type refundRequest struct {
	Form      gateway.RefundForm
	Documents []gateway.File
	Tickets   []string // ticket ids
}

// transfer is a kind's …/transfer: its page (GET) and its move (POST),
// both called after the guard.
type transfer struct {
	page   func(s *Server, c *echo.Context, o order) error
	submit func(s *Server, c *echo.Context, o order) error
}

// document is a kind's PDF (SPEC §7: named by type and order id).
type document struct {
	file  string // "ticket.pdf"
	label string // 'Мой билет'
	fetch func(p Provider, ctx context.Context, id string) ([]byte, error)
}

// order is one order of any kind as pages and actions need it, built once
// from the provider's answer by its kind's builder.
type order struct {
	kind   *kind
	id     string
	ref    gateway.OrderRef // start, end, canceled: for the active/history split
	amount float64          // what a cancellation or refund is about
	paid   bool             // money was taken, so a cancellation returns it
	card   views.OrderCard  // without its actions
	detail views.OrderDetail
	can    map[action]bool // what the order allows now (the provider's flags and SPEC §4)
	noDoc  string          // why the document may not be opened; "" when it may
	event  calEvent        // the booking as a calendar event (order_calendar.go)
	wire   any             // the provider's order: gateway.LessonOrder, …
}

// kinds is the table, in the order the pages show the kinds.
var kinds = []*kind{lessonKind, pavilionKind, aquaKind, hotelKind, roomKind}

// kindOf finds a kind by its id.
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
	case a == actCancel && k.cancel == nil, a == actRefund && k.refund == nil, a == actTransfer && k.transfer == nil:
		return false
	}
	return slices.Contains(k.actions, a)
}

// orders fetches the customer's orders of this kind.
func (k *kind) orders(ctx context.Context, s *Server, guid string) ([]order, error) {
	list, err := k.list(ctx, s, guid)
	for i := range list {
		k.stamp(&list[i])
	}
	return list, err
}

// order fetches one of the customer's orders of this kind.
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

// build turns a list of one kind's wire orders into orders.
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

// buildOne is build for one order.
func buildOne[T any](wire T, err error, b func(T) order) (order, error) {
	if err != nil {
		return order{}, err
	}
	return b(wire), nil
}

var lessonKind = &kind{
	id: gateway.KindLesson, label: "Занятие с инструктором",
	list: func(ctx context.Context, s *Server, guid string) ([]order, error) {
		l, err := s.gw.LessonOrders(ctx, guid)
		return build(l, err, s.lessonOrder)
	},
	one: func(ctx context.Context, s *Server, guid, id string) (order, error) {
		o, err := s.gw.LessonOrder(ctx, guid, id)
		return buildOne(o, err, s.lessonOrder)
	},
	actions: []action{actConfirm, actTransfer, actCancel},
	labels:  map[action]string{actTransfer: "Перенести запись", actCancel: "Отменить запись"},
	cancel: func(ctx context.Context, s *Server, sess *Session, o order) (string, error) {
		l := o.wire.(gateway.LessonOrder)
		return msgLessonCanceled, s.gw.CancelLesson(ctx, gateway.CancelLessonRequest{ClientID: sess.GUID, LessonID: l.DocID, Sum: l.Cost})
	},
	transfer: lessonTransfer.transfer(),
}

var pavilionKind = &kind{
	id: gateway.KindPavilion, label: "Аренда беседки",
	list: func(ctx context.Context, s *Server, guid string) ([]order, error) {
		l, err := s.gw.PavilionOrders(ctx, guid)
		return build(l, err, s.pavilionOrder)
	},
	one: func(ctx context.Context, s *Server, guid, id string) (order, error) {
		o, err := s.gw.PavilionOrder(ctx, guid, id)
		return buildOne(o, err, s.pavilionOrder)
	},
	actions:  []action{actTransfer, actCancel, actRefund},
	labels:   map[action]string{actTransfer: "Перенести аренду", actCancel: "Отменить аренду"},
	transfer: pavilionMove.transfer(),
	refund:   refundPavilion,
	cancel: func(ctx context.Context, s *Server, sess *Session, o order) (string, error) {
		return msgRentCanceled, s.gw.CancelPavilionRent(ctx, gateway.CancelRentRequest{ClientID: sess.GUID, RentID: o.id, Amount: o.amount})
	},
}

var roomKind = &kind{
	id: gateway.KindRoom, label: "Аренда зала",
	list: func(ctx context.Context, s *Server, guid string) ([]order, error) {
		l, err := s.gw.RoomOrders(ctx, guid)
		return build(l, err, s.roomOrder)
	},
	one: func(ctx context.Context, s *Server, guid, id string) (order, error) {
		o, err := s.gw.RoomOrder(ctx, guid, id)
		return buildOne(o, err, s.roomOrder)
	},
	actions:  []action{actTransfer, actCancel, actRefund},
	labels:   map[action]string{actTransfer: "Перенести аренду", actCancel: "Отменить аренду"},
	transfer: roomMove.transfer(),
	refund:   refundRoom,
	cancel: func(ctx context.Context, s *Server, sess *Session, o order) (string, error) {
		return msgRentCanceled, s.gw.CancelRoomRent(ctx, gateway.CancelRentRequest{ClientID: sess.GUID, RentID: o.id, Amount: o.amount})
	},
}

var aquaKind = &kind{
	id: gateway.KindAqua, label: "Аквапарк",
	list: func(ctx context.Context, s *Server, guid string) ([]order, error) {
		active, history, err := s.gw.AquaOrders(ctx, guid)
		return build(append(active, history...), err, s.aquaOrder)
	},
	one: func(ctx context.Context, s *Server, guid, id string) (order, error) {
		o, err := s.gw.AquaOrder(ctx, guid, id)
		return buildOne(o, err, s.aquaOrder)
	},
	document:      &document{file: "ticket.pdf", label: "Мой билет", fetch: Provider.AquaTicketPDF},
	keepsCanceled: true,
	// Tickets are given back through a refund: there is no cancel call.
	actions:  []action{actTransfer, actRefund},
	refund:   refundAqua,
	transfer: aquaTransfer.transfer(),
}

var hotelKind = &kind{
	id: gateway.KindHotel, label: "Отель", failed: msgHotelFailed,
	list: func(ctx context.Context, s *Server, guid string) ([]order, error) {
		active, history, err := s.gw.HotelOrders(ctx, guid)
		return build(append(active, history...), err, s.hotelOrder)
	},
	one: func(ctx context.Context, s *Server, guid, id string) (order, error) {
		o, err := s.gw.HotelOrder(ctx, guid, id)
		return buildOne(o, err, s.hotelOrder)
	},
	document:      &document{file: "voucher.pdf", label: "Мой ваучер", fetch: Provider.HotelVoucherPDF},
	keepsCanceled: true,
	actions:       []action{actTransfer, actCancel, actRefund},
	labels:        map[action]string{actCancel: "Отменить бронирование"},
	cancel:        cancelHotel,
	refund:        refundHotel,
	transfer:      hotelTransfer,
}

// ---- builders: the provider's order as cards, pages and flags (SPEC §2) ----

func (s *Server) lessonOrder(o gateway.LessonOrder) order {
	id, title := o.DocID, lessonTitle(o)
	lines := []views.KV{
		{Key: "Занятие", Value: o.ExerciseSort},
		{Key: "Дата и время", Value: views.DateTime(s.providerTime(o.DateBeg))},
		{Key: "Инструктор", Value: o.TrainerName},
		total(o.Cost),
	}
	return order{
		id: id, ref: o.Ref(s.loc), amount: o.Cost, paid: o.Cost > 0, wire: o,
		card: card(title, views.DateTime(s.providerTime(o.DateBeg)), views.KV{}, o.Cost, lines),
		detail: detail(title, append([]views.KV{
			{Key: "Дата оформления", Value: views.DateTime(s.providerTime(o.RegDate))},
			lines[0], lines[1], lines[2],
			{Key: "Способ оплаты", Value: msgPayOnSite},
		}, lines[3])),
		can:   map[action]bool{actConfirm: o.CanConfirm, actTransfer: o.CanTransfer, actCancel: o.CanCancel},
		event: lessonEvent(o, s.providerTime(o.DateBeg)),
	}
}

func (s *Server) pavilionOrder(o gateway.PavilionOrder) order {
	return s.rentOrder(o.Ref(s.loc), o.CanTransfer, o.CanCancel, o)
}

func (s *Server) roomOrder(o gateway.RoomOrder) order {
	return s.rentOrder(o.Ref(s.loc), o.CanTransfer, o.CanCancel, o)
}

// rentOrder builds a pavilion or celebration-room rent from its summary.
func (s *Server) rentOrder(ref gateway.OrderRef, canTransfer, canCancel bool, wire any) order {
	id, name := ref.ID, ref.Name
	lines := []views.KV{
		{Key: "Дата", Value: views.Date(ref.Start)},
		{Key: "Время аренды", Value: span(ref.Start, ref.End)},
		total(ref.Amount),
	}
	return order{
		id: id, ref: ref, amount: ref.Amount, paid: ref.Amount > 0, wire: wire,
		card:   card(name, views.Date(ref.Start)+", "+span(ref.Start, ref.End), views.KV{}, ref.Amount, lines),
		detail: detail(name, append([]views.KV{{Key: "Название", Value: name}}, lines...)),
		// A rent the provider still lets go of can be refunded instead of
		// cancelled (from its first day on, with a reason and documents).
		can:   map[action]bool{actTransfer: canTransfer, actCancel: canCancel, actRefund: canCancel && ref.Amount > 0},
		event: calEvent{Start: ref.Start, End: ref.End, Place: name},
	}
}

func (s *Server) aquaOrder(o gateway.AquaOrder) order {
	start := s.providerTime(o.DateBeg)
	title := "Заказ № " + o.OrderID
	var refunded float64
	tickets := make([]views.TicketLine, 0, len(o.Tickets))
	for _, t := range o.Tickets {
		name := t.Title
		if suffix := gateway.TicketStatusSuffix(t.Status); suffix != "" {
			name += " " + suffix
		}
		if t.Status == gateway.TicketRefunded {
			refunded += t.Price
		}
		line := views.TicketLine{Number: t.TicketNumber, Title: name, Price: views.Money(t.Price), Status: t.Status}
		if t.Status == gateway.TicketPaid && !o.Canceled {
			line.Code = t.GateCode(o.OrderID)
		}
		tickets = append(tickets, line)
	}
	out := order{
		id: o.OrderID, ref: o.Ref(s.loc), amount: o.Amount, paid: o.Paid, wire: o,
		card: card(title, views.Date(start)+", "+visitTime(o, start), status(o.Canceled, o.Paid), o.Amount, []views.KV{
			{Key: "Дата", Value: views.Date(start)},
			{Key: "Время посещения", Value: visitTime(o, start)},
			{Key: "Билетов", Value: strconv.Itoa(len(o.Tickets))},
			status(o.Canceled, o.Paid),
			total(o.Amount),
		}),
		detail: detail(title, []views.KV{
			{Key: "Дата оформления", Value: views.DateTime(s.providerTime(o.RegDate))},
			{Key: "Дата", Value: views.Date(start)},
			{Key: "Время посещения", Value: visitTime(o, start)},
			status(o.Canceled, o.Paid),
			{Key: "К оплате", Value: views.Money(o.PaymentAmount)},
			{Key: "Возвращено", Value: views.Money(refunded)},
			total(o.Amount),
		}),
		can: map[action]bool{
			actTransfer: o.CanTransfer && !o.Canceled,
			// canCancel: the provider still lets go of the tickets (not
			// for a past visit).
			actRefund: o.Paid && !o.Canceled && o.CanCancel && slices.ContainsFunc(o.Tickets, func(t gateway.Ticket) bool { return t.Status == gateway.TicketPaid }),
		},
	}
	out.detail.Tickets = tickets
	out.event = aquaEvent(o, start)
	switch {
	case o.Canceled:
		out.noDoc = msgDocCanceled
	case !gateway.CanShowDocument(o.Canceled, o.Tickets):
		out.noDoc = msgDocUnpaid
	}
	return out
}

func (s *Server) hotelOrder(o gateway.HotelOrder) order {
	title := "Заказ № " + o.OrderID
	var rooms []views.RoomGuests
	for _, r := range slices.Concat(o.Rooms, o.FamilyRooms) {
		g := views.RoomGuests{Title: strings.TrimSpace("№ " + r.Number + ", " + r.Title)}
		for _, p := range r.Guests {
			g.Guests = append(g.Guests, fullName(p))
		}
		for _, p := range r.Childrens {
			g.Guests = append(g.Guests, fullName(p)+" (ребёнок)")
		}
		rooms = append(rooms, g)
	}
	stay := views.Date(s.providerTime(o.HourBeg)) + " — " + views.Date(s.providerTime(o.HourEnd))
	out := order{
		id: o.OrderID, ref: o.Ref(s.loc), amount: o.Amount, paid: o.Paid && !o.Canceled, wire: o,
		card: card(title, stay, status(o.Canceled, o.Paid), o.Amount, []views.KV{
			{Key: "Период проживания", Value: stay},
			status(o.Canceled, o.Paid),
			total(o.Amount),
		}),
		detail: detail(title, []views.KV{
			{Key: "Период проживания", Value: views.DateTime(s.providerTime(o.HourBeg)) + " — " + views.DateTime(s.providerTime(o.HourEnd))},
			status(o.Canceled, o.Paid),
			{Key: "Проживание в номерах", Value: views.Money(o.AmountRooms)},
			{Key: "Дополнительные места", Value: views.Money(o.AmountAddPlaces)},
			{Key: "Дети", Value: views.Money(o.AmountChildren)},
			total(o.Amount),
		}),
		can: map[action]bool{
			actTransfer: o.CanTransfer && !o.Canceled,
			// A paid stay is cancelled together with its refund, which
			// needs a reason and documents from the first day on: then
			// the refund is the way out.
			actCancel: o.CanCancel && !o.Canceled && (!o.Paid || gateway.RefundMode(s.providerTime(o.HourBeg), s.now()) == gateway.RefundDirect),
			actRefund: o.Paid && !o.Canceled && o.CanCancel,
		},
	}
	out.detail.Rooms = rooms
	out.event = calEvent{Summary: "Проживание в отеле, заказ № " + o.OrderID, Start: s.providerTime(o.HourBeg), End: s.providerTime(o.HourEnd), Place: "отель"}
	if !gateway.CanShowDocument(o.Canceled, nil) {
		out.noDoc = msgDocCanceled
	}
	return out
}

// card is an order in a list: the compact summary (when, status, amount)
// and the full lines that action pages show.
func card(title, when string, st views.KV, amount float64, lines []views.KV) views.OrderCard {
	return views.OrderCard{Title: title, When: when, Status: st, Amount: views.Money(amount), Lines: lines}
}

func detail(title string, lines []views.KV) views.OrderDetail {
	return views.OrderDetail{Title: title, Lines: lines}
}

// ---- formatting shared by the builders ----

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

func lessonTitle(o gateway.LessonOrder) string {
	if o.KindOfSport == "" {
		return "Занятие № " + o.DocID
	}
	return o.KindOfSport
}

// visitTime is the session of the tickets ("Дневной 10:00–16:00"), or the
// visit's start when the tickets do not name one.
func visitTime(o gateway.AquaOrder, start time.Time) string {
	for _, t := range o.Tickets {
		if t.Session != "" {
			return t.Session
		}
	}
	return views.Clock(start)
}

func fullName(g gateway.Guest) string {
	return strings.Join(strings.Fields(g.Family+" "+g.Name+" "+g.SecondName), " ")
}
