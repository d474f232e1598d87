package handlers

import (
	"cmp"
	"context"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"time"

	"lk/gateway"
	"lk/handlers/web"
	"lk/views"
	"lk/wallet"
)

// visitLength is a visit whose session names no hours ("Дневной 10:00–16:00").
const visitLength = 2 * time.Hour

// aquaKind gives tickets back through a refund: there is no cancel call.
type aquaKind struct {
	*clock
	p aquaProvider
}

var aquaInfo = &kindInfo{
	id: gateway.KindAqua, label: "Аквапарк",
	document:    &documentInfo{file: "ticket.pdf", label: "Мой билет"},
	pass:        &passInfo{file: "ticket.pkpass", bundle: "tickets.pkpasses"},
	byTickets:   true,
	actions:     []action{actTransfer, actRefund},
	moveIslands: []string{views.CalendarIsland},
}

func (aquaKind) info() *kindInfo { return aquaInfo }

func (k aquaKind) list(ctx context.Context, guid string) ([]order, error) {
	active, history, err := k.p.AquaOrders(ctx, guid)
	return build(append(active, history...), err, k.aquaOrder)
}

func (k aquaKind) one(ctx context.Context, guid, id string) (order, error) {
	o, err := k.p.AquaOrder(ctx, guid, id)
	return buildOne(o, err, k.aquaOrder)
}

func (k aquaKind) document(ctx context.Context, id string) ([]byte, error) {
	return k.p.AquaTicketPDF(ctx, id)
}

// ready counts the tickets that let their holder in: a refunded or unpaid
// ticket has no pass.
func (aquaKind) ready(o order) (int, error) {
	w := o.wire.(gateway.AquaOrder)
	n, refunded := 0, 0
	for _, t := range w.Tickets {
		if gateway.LetsIn(t, w.Canceled) {
			n++
		}
		if t.Status == gateway.TicketRefunded {
			refunded++
		}
	}
	switch {
	case n > 0:
		return n, nil
	case refunded > 0 && refunded == len(w.Tickets):
		return 0, passGone(msgPassRefunded)
	}
	return 0, &web.Error{Status: http.StatusConflict, Title: msgPassTitle, Message: msgPassUnpaid}
}

// A pass per ticket, its code the gate's, as the ticket PDF's QR code.
func (k aquaKind) passes(_ context.Context, o order) ([]wallet.Pass, error) {
	w := o.wire.(gateway.AquaOrder)
	start := k.providerTime(w.DateBeg)
	var out []wallet.Pass
	for _, t := range w.Tickets {
		if !gateway.LetsIn(t, w.Canceled) {
			continue
		}
		out = append(out, wallet.Pass{
			Serial: "aqua-" + w.OrderID + "-" + cmp.Or(t.ID, t.TicketNumber), Style: wallet.EventTicket,
			Description: "Билет в аквапарк, заказ № " + w.OrderID, Code: t.GateCode(w.OrderID),
			Header:    []wallet.Field{{Key: "date", Label: "Дата", Value: views.Date(start)}},
			Primary:   []wallet.Field{{Key: "ticket", Label: "Аквапарк", Value: t.Title}},
			Secondary: []wallet.Field{{Key: "session", Label: "Сеанс", Value: visitTime(w, start)}, {Key: "number", Label: "Билет", Value: "№ " + t.TicketNumber}},
			Auxiliary: []wallet.Field{{Key: "order", Label: "Заказ", Value: "№ " + w.OrderID}, {Key: "price", Label: "Цена", Value: views.Money(t.Price)}},
		})
	}
	return out, nil
}

func (c clock) aquaOrder(o gateway.AquaOrder) order {
	start := c.providerTime(o.DateBeg)
	title := "Заказ № " + o.OrderID
	var refunded float64
	lines := make([]views.TicketLine, 0, len(o.Tickets))
	tickets := make([]ticket, 0, len(o.Tickets))
	for _, t := range o.Tickets {
		name := t.Title
		if suffix := gateway.TicketStatusSuffix(t.Status); suffix != "" {
			name += " " + suffix
		}
		if t.Status == gateway.TicketRefunded {
			refunded += t.Price
		}
		line := views.TicketLine{Number: t.TicketNumber, Title: name, Price: views.Money(t.Price), Status: t.Status}
		if gateway.LetsIn(t, o.Canceled) {
			line.Code = t.GateCode(o.OrderID)
		}
		lines = append(lines, line)
		tickets = append(tickets, ticket{
			id: t.ID, label: "№ " + t.TicketNumber + " · " + t.Title + " · " + views.Money(t.Price),
			status: gateway.TicketStatusSuffix(t.Status), paid: t.Status == gateway.TicketPaid, price: t.Price,
			number: "№ " + t.TicketNumber, refunding: t.Status == gateway.TicketRefunded,
		})
	}
	out := order{
		id: o.OrderID, ref: o.Ref(c.loc), amount: o.Amount, paid: o.Paid, wire: o, tickets: tickets,
		card: newCard(title, views.Date(start)+", "+visitTime(o, start), paidStatus(o.Canceled, o.Paid), o.Amount, []views.KV{
			{Key: "Дата", Value: views.Date(start)},
			{Key: "Время посещения", Value: visitTime(o, start)},
			{Key: "Билетов", Value: gateway.TicketCount(o.Tickets)},
			paidStatus(o.Canceled, o.Paid),
			totalLine(o.Amount),
		}),
		detail: detail(title, []views.KV{
			{Key: "Дата оформления", Value: views.DateTime(c.providerTime(o.RegDate))},
			{Key: "Дата", Value: views.Date(start)},
			{Key: "Время посещения", Value: visitTime(o, start)},
			paidStatus(o.Canceled, o.Paid),
			{Key: "К оплате", Value: views.Money(o.PaymentAmount)},
			{Key: "Возвращено", Value: views.Money(refunded)},
			totalLine(o.Amount),
		}),
		can: map[action]bool{
			actTransfer: o.CanTransfer && !o.Canceled,
			// canCancel: the provider still lets go of the tickets.
			actRefund: o.Paid && !o.Canceled && o.CanCancel && slices.ContainsFunc(o.Tickets, func(t gateway.Ticket) bool { return t.Status == gateway.TicketPaid }),
		},
		event: aquaEvent(o, start),
	}
	out.detail.Tickets = lines
	if o.Canceled && refunded > 0 { // what it cost is what came back, not the provider's 0
		out.card.Amount = "возврат " + views.Money(refunded)
	}
	switch {
	case o.Canceled:
		out.noDoc = msgDocCanceled
	case !gateway.CanShowDocument(o.Canceled, o.Tickets):
		out.noDoc = msgDocUnpaid
		// Its page says why there are no tickets and what to do, while
		// the visit is still ahead.
		if c.upcoming(out.ref) {
			out.detail.Unpaid = msgDocUnpaid
		}
	}
	return out
}

func visitTime(o gateway.AquaOrder, start time.Time) string {
	for _, t := range o.Tickets {
		if t.Session != "" {
			return t.Session
		}
	}
	return views.Clock(start)
}

var sessionHours = regexp.MustCompile(`(\d{1,2})[:.](\d{2})\s*[–—-]\s*(\d{1,2})[:.](\d{2})`)

func aquaEvent(o gateway.AquaOrder, start time.Time) calEvent {
	e := calEvent{Summary: "Аквапарк, заказ № " + o.OrderID, Start: start, End: start.Add(visitLength), Place: "аквапарк",
		Notes: []string{"Билетов: " + gateway.TicketCount(o.Tickets)}}
	session := ""
	for _, t := range o.Tickets {
		if t.Session != "" {
			session = t.Session
			break
		}
	}
	if session != "" {
		e.Notes = append(e.Notes, "Сеанс: "+session)
	}
	if m := sessionHours.FindStringSubmatch(session); m != nil && !start.IsZero() {
		n := make([]int, 4)
		for i := range n {
			n[i], _ = strconv.Atoi(m[i+1])
		}
		y, mo, d := start.Date()
		from := time.Date(y, mo, d, n[0], n[1], 0, 0, start.Location())
		to := time.Date(y, mo, d, n[2], n[3], 0, 0, start.Location())
		if n[0] < 24 && n[2] <= 24 && n[1] < 60 && n[3] < 60 && to.After(from) {
			e.Start, e.End = from, to
		}
	}
	return e
}

// A failure under a non-OK HTTP status reads 'Ошибка при регистрации
// возврата' with its details; a refusal under 200 is the provider's text.
func (k aquaKind) refund(ctx context.Context, o order, r refundRequest) (string, error) {
	w := o.wire.(gateway.AquaOrder)
	products := []gateway.RefundProduct{}
	for _, id := range r.Tickets {
		var t gateway.Ticket // the form's rules let through only paid tickets of the order
		if i := slices.IndexFunc(w.Tickets, func(t gateway.Ticket) bool { return t.ID == id }); i >= 0 && w.Tickets[i].Status == gateway.TicketPaid {
			t = w.Tickets[i]
		}
		products = append(products, gateway.RefundProduct{
			ProductID: t.ProductUID, Barcode: t.Barcode, Price: t.Price, Name: t.Title,
			EventDate: "Дата: " + views.Date(k.providerTime(cmp.Or(t.EventDate, w.DateBeg))), PositionNumber: t.TicketNumber,
		})
	}
	form := r.Form
	msg, err := k.p.RefundAqua(ctx, gateway.AquaRefundRequest{ReturnOrderID: w.OrderID, Products: products, Documents: r.Documents, FormRefund: &form})
	if err != nil {
		return "", httpFailed(err, msgRefundAquaFailed)
	}
	return msg, nil
}

// The tickets move to a session of a day up to 30 days ahead of the same
// weekday class (weekdays or weekends) that fits them.

var aquaDays = &dayWording{
	heading: "Перенести билеты", lead: "Выберите день и сеанс, на которые перенести билеты.",
	button: "Перенести билеты", show: "Показать сеансы", legend: "Сеансы на",
	choose: "Выберите сеанс.", empty: msgNoSessions, fetchFailed: msgAquaFailed,
	field:     "sessionId",
	moveTexts: moveTexts{refused: msgAquaFailed, unreachable: msgAquaFailed, done: msgAquaMoved},
}

func (k aquaKind) movePage(f formBase, o order) error        { return showDays(f.s, f.c, o, k) }
func (k aquaKind) moveForm(f formBase) actionForm            { return readDayMove(f.s, f.c, k) }
func (aquaKind) wording() *dayWording                        { return aquaDays }
func (aquaKind) window(now time.Time) (time.Time, time.Time) { return gateway.AquaTransferWindow(now) }
func (aquaKind) original(o order) string                     { return iso(o.ref.Start) }

func (k aquaKind) dayRule(o order, d time.Time) error {
	return gateway.CheckAquaDate(o.ref.Start, d, k.now())
}

func (k aquaKind) firstDay(o order) time.Time {
	from, to := gateway.AquaTransferWindow(k.now())
	if d := o.ref.Start; gateway.InWindow(d, from, to) {
		return d
	}
	for d := from; !d.After(to); d = d.AddDate(0, 0, 1) {
		if gateway.IsWeekend(d) == gateway.IsWeekend(o.ref.Start) {
			return d
		}
	}
	return from
}

func (k aquaKind) options(ctx context.Context, o order, d time.Time) ([]option, error) {
	list, err := k.p.AquaSessions(ctx, d)
	if err != nil {
		return nil, err
	}
	aq := o.wire.(gateway.AquaOrder)
	tickets := gateway.MovableTickets(aq.Tickets)
	vip, now := gateway.TicketsVIP(tickets), k.now()
	out := make([]option, 0, len(list))
	for _, x := range list {
		why := gateway.CheckSession(x, vip, d, now, len(tickets))
		if why == nil && gateway.SameSession(aq, x, d) {
			why = gateway.ErrSameSession
		}
		out = append(out, option{
			choice: views.TransferChoice{Value: x.SessionID, Title: x.Name + " " + x.SessionTime + "–" + x.EndTime,
				Lines: []string{"Свободных мест: " + strconv.Itoa(x.AvailableCount)}},
			// A full session is listed, disabled, with why.
			why: why, wire: x, shown: why == gateway.ErrSessionFull,
		})
	}
	return out, nil
}

func (k aquaKind) change(ctx context.Context, _ *web.Session, o order, a *dayAnswers) (string, string, error) {
	err := k.p.TransferTickets(ctx, gateway.TransferTicketRequest{
		OrderID: o.id, Date: gateway.FormatDate(a.day, k.loc), SessionID: a.chosen.wire.(gateway.AquaSession).SessionID,
	})
	return o.url(), "", err
}
