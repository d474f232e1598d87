package handlers

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	neturl "net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"lk/gateway"
	"lk/handlers/web"
	"lk/store"
	"lk/views"
	"lk/wallet"
)

type hotelKind struct {
	*clock
	p       hotelProvider
	account accountProvider // a paid stay's refund needs the customer's contacts
	log     *slog.Logger
	support string // the support phone, for a cancellation left to the staff
}

var hotelInfo = &kindInfo{
	id: gateway.KindHotel, label: "Отель", failed: msgHotelFailed,
	document:    &documentInfo{file: "voucher.pdf", label: "Мой ваучер"},
	pass:        &passInfo{file: "voucher.pkpass"},
	actions:     []action{actTransfer, actCancel, actRefund},
	labels:      map[action]string{actCancel: "Отменить бронирование"},
	versus:      map[action]string{actCancel: msgHotelCancelVersus, actRefund: msgHotelRefundVersus},
	choose:      map[action]string{actCancel: msgHotelCancelChoose, actRefund: msgRefundChoose},
	moveIslands: []string{views.CalendarIsland},
}

func (hotelKind) info() *kindInfo { return hotelInfo }

func (k hotelKind) list(ctx context.Context, guid string) ([]order, error) {
	active, history, err := k.p.HotelOrders(ctx, guid)
	return build(append(active, history...), err, k.hotelOrder)
}

func (k hotelKind) one(ctx context.Context, guid, id string) (order, error) {
	o, err := k.p.HotelOrder(ctx, guid, id)
	return buildOne(o, err, k.hotelOrder)
}

func (k hotelKind) document(ctx context.Context, id string) ([]byte, error) {
	return k.p.HotelVoucherPDF(ctx, id)
}

func (k hotelKind) refund(ctx context.Context, o order, r refundRequest) (string, error) {
	return k.p.RefundHotel(ctx, gateway.HotelRefundRequest{Documents: r.Documents, OrderID: o.id, FormRefund: r.Form})
}

func (c clock) hotelOrder(o gateway.HotelOrder) order {
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
	in, out := c.providerTime(o.HourBeg), c.providerTime(o.HourEnd)
	stay := views.Date(in) + " — " + views.Date(out)
	res := order{
		id: o.OrderID, ref: o.Ref(c.loc), amount: o.Amount, paid: o.Paid && !o.Canceled, wire: o,
		card: newCard(title, stay, paidStatus(o.Canceled, o.Paid), o.Amount, []views.KV{
			{Key: "Период проживания", Value: stay},
			paidStatus(o.Canceled, o.Paid),
			totalLine(o.Amount),
		}),
		detail: detail(title, []views.KV{
			{Key: "Период проживания", Value: views.DateTime(in) + " — " + views.DateTime(out)},
			paidStatus(o.Canceled, o.Paid),
			{Key: "Проживание в номерах", Value: views.Money(o.AmountRooms)},
			{Key: "Дополнительные места", Value: views.Money(o.AmountAddPlaces)},
			{Key: "Дети", Value: views.Money(o.AmountChildren)},
			totalLine(o.Amount),
		}),
		can: map[action]bool{
			actTransfer: o.CanTransfer && !o.Canceled,
			// A paid stay is cancelled with its refund, which needs a reason and
			// documents from the first day on: then the refund is the way out.
			actCancel: o.CanCancel && !o.Canceled && (!o.Paid || gateway.RefundMode(in, c.now()) == gateway.RefundDirect),
			actRefund: o.Paid && !o.Canceled && o.CanCancel,
		},
		event: calEvent{Summary: "Проживание в отеле, заказ № " + o.OrderID, Start: in, End: out, Place: "отель"},
	}
	res.detail.Rooms = rooms
	if !gateway.CanShowDocument(o.Canceled, nil) {
		res.noDoc = msgDocCanceled
	}
	return res
}

func (hotelKind) ready(order) (int, error) { return 1, nil }

// The voucher's pass, its code the voucher's (the order number). The
// guests' names stay on the voucher: a pass shows on a lock screen.
func (k hotelKind) passes(_ context.Context, o order) ([]wallet.Pass, error) {
	h := o.wire.(gateway.HotelOrder)
	in, out := k.providerTime(h.HourBeg), k.providerTime(h.HourEnd)
	var rooms []string
	for _, r := range slices.Concat(h.Rooms, h.FamilyRooms) {
		rooms = append(rooms, strings.TrimSpace("№ "+r.Number+", "+r.Title))
	}
	p := wallet.Pass{
		Serial: "hotel-" + h.OrderID, Style: wallet.Generic, Description: "Ваучер на проживание в отеле, заказ № " + h.OrderID, Code: h.OrderID,
		Header:    []wallet.Field{{Key: "order", Label: "Заказ", Value: "№ " + h.OrderID}},
		Primary:   []wallet.Field{{Key: "stay", Label: "Проживание в отеле", Value: views.Date(in) + " — " + views.Date(out)}},
		Secondary: []wallet.Field{{Key: "in", Label: "Заезд", Value: views.DateTime(in)}, {Key: "out", Label: "Выезд", Value: views.DateTime(out)}},
		Auxiliary: []wallet.Field{{Key: "status", Label: "Статус", Value: gateway.StatusLabel(h.Canceled, h.Paid)}},
	}
	if h.TotalGuestsCount > 0 {
		p.Auxiliary = append(p.Auxiliary, wallet.Field{Key: "guests", Label: "Гостей", Value: strconv.Itoa(h.TotalGuestsCount)})
	}
	if len(rooms) > 0 {
		p.Back = []wallet.Field{{Key: "rooms", Label: "Номера", Value: strings.Join(rooms, "\n")}}
	}
	return []wallet.Pass{p}, nil
}

func fullName(g gateway.Guest) string {
	return strings.Join(strings.Fields(g.Family+" "+g.Name+" "+g.SecondName), " ")
}

// A paid stay's refund is registered right after, so that the customer need
// not ask for the money apart.
func (k hotelKind) cancel(ctx context.Context, sess *web.Session, o order) (string, error) {
	if err := k.p.CancelHotelOrder(ctx, o.id); err != nil {
		if code := gateway.FailedStatus(err); code != 0 {
			undone := msgCancelFailed
			if o.paid {
				undone = msgRefundFailed
			}
			return "", providerFailed(fmt.Sprintf("%s %d. %s.", msgHTTPError, code, undone))
		}
		return "", err
	}
	if !o.paid {
		return msgHotelCanceled, nil
	}
	info, err := k.account.ClientInfo(ctx, sess.Token)
	var msg string
	if err == nil {
		msg, err = k.p.RefundHotel(ctx, gateway.HotelRefundRequest{
			Documents: []gateway.File{}, OrderID: o.id, FormRefund: refundContact(info, sess, o.id),
		})
	}
	if err != nil {
		// The order no longer offers a refund: the resort's staff finish it.
		k.log.ErrorContext(ctx, "hotel cancelled without its refund", "order", o.id, "err", err)
		msg := msgCancelNoRefund + ": " + strings.TrimSuffix(explain(err, msgRefundFailed, web.MsgRequestFailed).message, ".") + "."
		if k.support != "" {
			msg += " Позвоните в службу поддержки: " + k.support + "."
		}
		return "", providerFailed(msg)
	}
	return msgHotelCanceled + " " + cmp.Or(msg, msgRefundDone), nil
}

const (
	hotelCheckIn  = 16
	hotelCheckOut = 14
)

type hotelAnswers struct {
	from, to, in, out string
	errs              views.Errors
	dayIn, dayOut     time.Time
}

type hotelMove struct {
	formBase
	k hotelKind
	a *hotelAnswers
}

func (k hotelKind) moveForm(f formBase) actionForm {
	return hotelMove{f, k, &hotelAnswers{in: f.c.FormValue("dateIn"), out: f.c.FormValue("dateOut")}}
}

// The current stay is shown as such, not as a choice to be judged.
func (k hotelKind) movePage(f formBase, o order) error {
	q := f.c.QueryParam
	a := &hotelAnswers{from: q("from"), to: q("to"), in: q("dateIn"), out: q("dateOut")}
	return hotelMove{f, k, a}.again(o, http.StatusOK, "")
}

var hotelMoveTexts = moveTexts{refused: msgHotelMoveFailed, unreachable: msgHotelRegister, done: msgHotelMoved}

// Every night available for the order's rooms, the nights' prices adding up
// to the order's room amount.
func (m hotelMove) check(ctx context.Context, o order) verdict {
	status, msg := m.judge(ctx, o)
	return verdict{status, msg}
}

func (m hotelMove) judge(ctx context.Context, o order) (int, string) {
	s, a := m.s, m.a
	from, to := gateway.TransferWindow(s.now())
	in, msg := s.formDay(a.in, from, to, dayMessages)
	if msg != "" {
		a.errs.Add("dateIn", msg)
	}
	out, msgOut := s.formDay(a.out, from, to.AddDate(0, 0, 31), dayMessages)
	switch {
	case msgOut != "":
		a.errs.Add("dateOut", msgOut)
	case msg == "" && out.Before(in):
		a.errs.Add("dateOut", gateway.ErrRangeReversed.Error())
	case msg == "" && out.Equal(in):
		a.errs.Add("dateOut", gateway.ErrRangeEmpty.Error())
	}
	h := o.wire.(gateway.HotelOrder)
	// A move to the dates already booked is refused, not reported done.
	if msg == "" && msgOut == "" && in.Equal(s.stayDay(h.HourBeg)) && out.Equal(s.stayDay(h.HourEnd)) {
		a.errs.Add("dateIn", msgHotelSameDates)
	}
	if len(a.errs) > 0 {
		return http.StatusUnprocessableEntity, ""
	}
	days, err := m.k.p.HotelDates(ctx, in, out)
	if err != nil {
		f := explain(err, msgHotelDates, msgHotelDates)
		return f.status, f.message
	}
	if err := gateway.CheckHotelRange(s.withOwnNights(days, h), in, out, h); err != nil {
		a.errs.Add("dateIn", err.Error())
		return http.StatusUnprocessableEntity, ""
	}
	a.dayIn, a.dayOut = in, out
	return 0, ""
}

func (m hotelMove) call(ctx context.Context, o order) store.Outcome {
	s, a := m.s, m.a
	msg, err := m.k.p.PushReservation(ctx, gateway.PushReservationRequest{
		OrderID:    o.id,
		NewDateIn:  gateway.FormatISO(a.dayIn.Add(hotelCheckIn*time.Hour), s.loc),
		NewDateOut: gateway.FormatISO(a.dayOut.Add(hotelCheckOut*time.Hour), s.loc),
	})
	return s.moved(ctx, o, hotelMoveTexts, o.url(), msg, err)
}

// The stay's own rooms on its own nights are free for it: the provider
// frees them before it moves it.
func (c clock) withOwnNights(days []gateway.HotelDay, h gateway.HotelOrder) []gateway.HotelDay {
	rooms, family := gateway.HotelRooms(h)
	in, out := c.stayDay(h.HourBeg), c.stayDay(h.HourEnd)
	res := slices.Clone(days)
	for i := range res {
		d, err := gateway.ParseDay(gateway.HotelDayKey(res[i]), c.loc)
		if err == nil && !d.Before(in) && d.Before(out) {
			res[i].Vacant += rooms
			res[i].Family += family
		}
	}
	return res
}

func (c clock) stayDay(raw string) time.Time {
	return gateway.Day(c.providerTime(raw), c.loc)
}

// Without ?from=&to=, this month and the next; days before today are asked
// too but cannot be chosen. A range that cannot be read is the default one
// (old links of the range form).
func (c clock) hotelRange(a *hotelAnswers) (from, to time.Time) {
	today := gateway.Day(c.now(), c.loc)
	from = today.AddDate(0, 0, 1-today.Day())
	to = from.AddDate(0, 2, -1)
	if d, err := gateway.ParseDay(a.from, c.loc); err == nil {
		from = d
	}
	if d, err := gateway.ParseDay(a.to, c.loc); err == nil {
		to = d
	}
	if to.Before(from) || to.After(from.AddDate(0, 3, 0)) {
		to = from.AddDate(0, 2, 0) // at most a few months in one answer
	}
	return from, to
}

// hotelNights are the nights the move page offers, the stay's own free for it.
type hotelNights struct {
	byDay         map[string]gateway.HotelDay
	rooms, family int
	min, max      time.Time // the calendar's days: the window's first to the morning after the last night listed
}

func (n hotelNights) free(d time.Time) bool {
	day, ok := n.byDay[iso(d)]
	return ok && !d.Before(n.min) && d.Before(n.max) && gateway.HotelDayAvailable(day, n.rooms, n.family)
}

// checkOut tells whether d can end a stay from start: every night before
// it free (its own morning need not be).
func (n hotelNights) checkOut(start, d time.Time) bool {
	if !d.After(start) || d.After(n.max) {
		return false
	}
	for t := start; t.Before(d); t = t.AddDate(0, 0, 1) {
		if !n.free(t) {
			return false
		}
	}
	return true
}

// stayPick is the stay chosen in the month; zero times for what is not.
func (c clock) stayPick(a *hotelAnswers) (in, out time.Time) {
	in, err := gateway.ParseDay(a.in, c.loc)
	if err != nil {
		return time.Time{}, time.Time{}
	}
	out, err = gateway.ParseDay(a.out, c.loc)
	if err != nil || !out.After(in) {
		out = time.Time{}
	}
	return in, out
}

// hotelDayLink is what a tap on d does, as the island's: the first tap (or one
// on a complete stay, or before the check-in) chooses a free check-in, the
// next a check-out, the check-in again clears it; "" when d cannot be taken.
func hotelDayLink(n hotelNights, in, out, last, d time.Time) string {
	switch {
	case in.IsZero() || !out.IsZero() || d.Before(in):
		if n.free(d) && !d.After(last) {
			return "?dateIn=" + iso(d)
		}
	case d.Equal(in):
		return "?"
	case n.checkOut(in, d):
		return "?dateIn=" + iso(in) + "&dateOut=" + iso(d)
	}
	return ""
}

func (m hotelMove) again(o order, status int, msg string) error {
	s, c, a := m.s, m.c, m.a
	h := o.wire.(gateway.HotelOrder)
	rooms, family := gateway.HotelRooms(h)
	from, to := s.hotelRange(a)
	wFrom, wTo := gateway.TransferWindow(s.now())
	url := o.url(string(actTransfer))
	v := views.HotelTransferView{
		Action: views.ActionView{
			Order: o.card, Heading: "Перенести бронирование",
			Lead: "Выберите даты заезда и выезда. Стоимость проживания в номерах должна остаться прежней: " + views.Money(h.AmountRooms) + ".",
			Notes: []string{
				"Сейчас: " + views.Date(s.providerTime(h.HourBeg)) + " — " + views.Date(s.providerTime(h.HourEnd)) + ".",
				"Заезд с 16:00, выезд до 14:00.",
			},
			URL: url, Token: s.newToken(c, o, actTransfer), Submit: msgDone, Error: msg, Errors: a.errs,
		},
		In:  views.DayField{Name: "dateIn", ID: "day-in", Label: "Дата заезда", Value: a.in, Min: iso(wFrom), Max: iso(wTo)},
		Out: views.DayField{Name: "dateOut", ID: "day-out", Label: "Дата выезда", Value: a.out, Min: iso(wFrom.AddDate(0, 0, 1)), Max: iso(wTo.AddDate(0, 0, 31))},
	}
	days, err := m.k.p.HotelDates(c.Request().Context(), from, to)
	if err != nil {
		f := explain(err, msgHotelDates, msgHotelDates)
		v.Error, status = f.message, max(status, f.status)
	}
	days = s.withOwnNights(days, h)
	n := hotelNights{byDay: make(map[string]gateway.HotelDay, len(days)), rooms: rooms, family: family, min: wFrom}
	for _, d := range days {
		n.byDay[gateway.HotelDayKey(d)] = d
	}
	last := wFrom
	first := from
	if first.Before(wFrom) {
		first = wFrom
	}
	for d := first; !d.After(to); d = d.AddDate(0, 0, 1) {
		if day, listed := n.byDay[iso(d)]; listed {
			price := gateway.HotelNightPrice(day, rooms, family)
			v.Calendar.Days = append(v.Calendar.Days, views.CalendarDay{Date: iso(d), Vacant: day.Vacant, Family: day.Family, Price: price, Label: views.Money(price)})
			last = d
		}
	}
	n.max = last.AddDate(0, 0, 1)
	stayIn, stayOut := s.stayDay(h.HourBeg), s.stayDay(h.HourEnd)
	in, out := s.stayPick(a)
	describeStay(&v, a, n, in, out, stayIn, stayOut, h.AmountRooms)
	shown := wFrom
	switch {
	case !in.IsZero():
		shown = in
	case !stayIn.Before(wFrom) && !stayIn.After(n.max):
		shown = stayIn
	}
	keep := neturl.Values{"dateIn": {iso(in)}, "dateOut": {iso(out)}}
	v.Month = s.monthView("range", c.QueryParam("month"), shown, wFrom, n.max, keep, func(d time.Time) views.MonthDay {
		booked := !d.Before(stayIn) && !d.After(stayOut)
		md := views.MonthDay{Booked: booked, Chosen: d.Equal(in) || d.Equal(out), InRange: d.After(in) && !out.IsZero() && d.Before(out)}
		full := ""
		if day, listed := n.byDay[iso(d)]; listed && !d.Before(wFrom) && d.Before(n.max) {
			full = msgNoRoom
			if n.free(d) {
				price := gateway.HotelNightPrice(day, rooms, family)
				full, md.Note = views.Money(price), views.Thousands(price)
			}
		}
		md.Name = views.DayName(d, full, bookedName(booked))
		if !d.Before(wFrom) && !d.After(n.max) {
			md.Href = hotelDayLink(n, in, out, wTo, d)
		}
		md.Off = md.Href == ""
		return md
	})
	v.Month.Legend = stayIn.Before(stayOut)
	v.Calendar = views.StayCalendar{
		CalendarWindow: views.CalendarWindow{Min: iso(wFrom), Max: iso(n.max), Today: s.today(), Label: "Даты проживания", Month: v.Month.Value + "-01"}, Stay: [2]string{iso(stayIn), iso(stayOut)},
		Start: "dateIn", End: "dateOut", From: iso(in), To: iso(out), Days: v.Calendar.Days, Rooms: rooms, Family: family, Amount: h.AmountRooms,
		Texts: views.StayTexts{Unavailable: gateway.ErrDayUnavailable.Error(), Price: gateway.ErrRangePrice.Error(), Same: msgHotelSameDates, CheckIn: "Заезд", CheckOut: "Выезд"},
	}
	p := s.page(c, "Перенести бронирование", "Перенос бронирования отеля в личном кабинете курорта.")
	p.Nav, p.Invalid, p.Islands = views.NavOrders, len(a.errs) > 0, hotelInfo.moveIslands
	return s.render(c, status, views.HotelTransferPage(p, v))
}

// describeStay says the stay chosen as the island does; 'Готово' only for one the rules accept.
func describeStay(v *views.HotelTransferView, a *hotelAnswers, n hotelNights, in, out, stayIn, stayOut time.Time, amount float64) {
	v.DayIn, v.DayOut = iso(in), iso(out)
	if v.DayIn == "" { // what the refused form sent, kept for another try
		v.DayIn, v.DayOut = a.in, a.out
	}
	sum := "Заезд: " + cmp.Or(chosenDate(iso(in), in), "—") + ", Выезд: " + cmp.Or(chosenDate(iso(out), out), "—")
	done := !in.IsZero() && !out.IsZero()
	switch {
	case done:
		price, nights, free := 0.0, 0, true
		for d := in; d.Before(out); d = d.AddDate(0, 0, 1) {
			price += gateway.HotelNightPrice(n.byDay[iso(d)], n.rooms, n.family)
			free = free && n.free(d)
			nights++
		}
		sum += fmt.Sprintf(", ночей: %d, %s", nights, views.Money(price))
		switch {
		case !free:
			v.Problem = gateway.ErrDayUnavailable.Error()
		case math.Abs(price-amount) >= 0.005:
			v.Problem = gateway.ErrRangePrice.Error()
		case in.Equal(stayIn) && out.Equal(stayOut):
			v.Problem = msgHotelSameDates
		}
	case !in.IsZero():
		v.Say = "Заезд " + views.Date(in) + ". Теперь выберите день выезда."
	}
	v.Sum = sum
	v.Action.NothingToSubmit = !done || v.Problem != ""
}
