package handlers

import (
	"cmp"
	"context"
	"net/http"
	neturl "net/url"
	"strings"
	"time"

	"lk/gateway"
	"lk/handlers/web"
	"lk/store"
	"lk/views"
)

// rentKind is the pavilion rents (room false) and the celebration-room
// rents (room true).
type rentKind struct {
	*clock
	room bool
	p    rentProvider
}

var (
	pavilionInfo = rentInfo(gateway.KindPavilion, "Аренда беседки")
	roomInfo     = rentInfo(gateway.KindRoom, "Аренда зала")
)

func rentInfo(id gateway.Kind, label string) *kindInfo {
	return &kindInfo{
		id: id, label: label, renumbers: true,
		actions:     []action{actTransfer, actCancel, actRefund},
		labels:      map[action]string{actTransfer: "Перенести аренду", actCancel: "Отменить аренду"},
		choose:      map[action]string{actCancel: msgRentCancelChoose, actRefund: msgRefundChoose},
		moveIslands: []string{views.CalendarIsland, views.SlotIsland},
	}
}

func (k rentKind) info() *kindInfo {
	if k.room {
		return roomInfo
	}
	return pavilionInfo
}

func (k rentKind) list(ctx context.Context, guid string) ([]order, error) {
	if k.room {
		l, err := k.p.RoomOrders(ctx, guid)
		return build(l, err, k.roomOrder)
	}
	l, err := k.p.PavilionOrders(ctx, guid)
	return build(l, err, k.pavilionOrder)
}

func (k rentKind) one(ctx context.Context, guid, rentID string) (order, error) {
	if k.room {
		o, err := k.p.RoomOrder(ctx, guid, rentID)
		return buildOne(o, err, k.roomOrder)
	}
	o, err := k.p.PavilionOrder(ctx, guid, rentID)
	return buildOne(o, err, k.pavilionOrder)
}

func (k rentKind) cancel(ctx context.Context, sess *web.Session, o order) (string, error) {
	r := gateway.CancelRentRequest{ClientID: sess.GUID, RentID: o.id, Amount: o.amount}
	var err error
	if k.room {
		err = k.p.CancelRoomRent(ctx, r)
	} else {
		err = k.p.CancelPavilionRent(ctx, r)
	}
	return withMoneyBack(msgRentCanceled, o), err
}

func (k rentKind) refund(ctx context.Context, o order, r refundRequest) (string, error) {
	switch w := o.wire.(rent).wire.(type) {
	case gateway.RoomOrder:
		return k.p.RefundRoom(ctx, gateway.RoomRefundRequest{Documents: r.Documents, RentItem: w, FormRefund: r.Form})
	default:
		return k.p.RefundPavilion(ctx, gateway.PavilionRefundRequest{Documents: r.Documents, RentItem: w.(gateway.PavilionOrder), FormRefund: r.Form})
	}
}

func (k rentKind) schedule(ctx context.Context, facilityID string, day time.Time) (gateway.Schedule, error) {
	if k.room {
		return k.p.RoomSchedule(ctx, facilityID, day)
	}
	return k.p.PavilionSchedule(ctx, facilityID, day)
}

func (k rentKind) change(ctx context.Context, m rentChange) (string, error) {
	if k.room {
		return k.p.ChangeRoomRent(ctx, gateway.ChangeRoomRequest{
			ClientID: m.clientID, RentID: m.rentID, CelRoomID: m.facilityID, CelRoomName: m.facilityName,
			NewRentDateBeg: m.beg, NewRentDateEnd: m.end, Amount: m.amount,
		})
	}
	return k.p.ChangePavilionRent(ctx, gateway.ChangePavilionRequest{
		ClientID: m.clientID, RentID: m.rentID, PavilionID: m.facilityID, PavilionName: m.facilityName,
		NewRentDateBeg: m.beg, NewRentDateEnd: m.end, Amount: m.amount,
	})
}

type rent struct {
	ref                      gateway.OrderRef
	canTransfer, canCancel   bool
	facilityID, facilityName string
	hours                    []gateway.RentDetail // the hours it holds now
	wire                     any                  // gateway.PavilionOrder or gateway.RoomOrder
}

func (c clock) pavilionOrder(o gateway.PavilionOrder) order {
	return c.rentOrder(rent{o.Ref(c.loc), o.CanTransfer, o.CanCancel, o.PavilionID, o.PavilionName, o.Details, o})
}

func (c clock) roomOrder(o gateway.RoomOrder) order {
	return c.rentOrder(rent{o.Ref(c.loc), o.CanTransfer, o.CanCancel, o.RoomID, o.RoomName, o.Details, o})
}

func (c clock) rentOrder(r rent) order {
	ref, name := r.ref, r.ref.Name
	lines := []views.KV{
		{Key: "Дата", Value: views.Date(ref.Start)},
		{Key: "Время аренды", Value: hoursSpan(ref.Start, ref.End)},
		totalLine(ref.Amount),
	}
	return order{
		id: ref.ID, ref: ref, amount: ref.Amount, paid: ref.Amount > 0, wire: r,
		card:   newCard(name, views.Date(ref.Start)+", "+hoursSpan(ref.Start, ref.End), views.KV{}, ref.Amount, lines),
		detail: detail(name, append([]views.KV{{Key: "Название", Value: name}}, lines...)),
		// A rent the provider still lets go of can be refunded instead of cancelled.
		can:   map[action]bool{actTransfer: r.canTransfer, actCancel: r.canCancel, actRefund: r.canCancel && ref.Amount > 0},
		event: calEvent{Start: ref.Start, End: ref.End, Place: name},
	}
}

type rentChange struct {
	clientID, rentID, facilityID, facilityName string
	beg, end                                   string // ISO date-times
	amount                                     float64
}

type rentForm struct {
	date, from, to string
	errs           views.Errors
	posted         bool
	loaded         bool // day, dayOK and hours are read
	day            time.Time
	dayOK          bool    // the date was read and is in the window
	hours          rentDay // the facility's hours on day, when dayOK
	start, end     time.Time
}

type rentDay struct {
	view     views.RentDay
	schedule gateway.Schedule
	status   int // of the page: 200, or the provider's failure
}

// A rent moves to other hours from today to a month ahead: free, one after
// another, costing what the rent cost.
type rentMove struct {
	formBase
	k rentKind
	f *rentForm
}

var rentMoveTexts = moveTexts{refused: msgRentMoveFailed, unreachable: web.MsgRequestFailed, done: msgMoved}

func (k rentKind) moveForm(b formBase) actionForm {
	c := b.c
	f := &rentForm{date: c.FormValue("date"), from: strings.TrimSpace(c.FormValue("from")), to: strings.TrimSpace(c.FormValue("to")), posted: true}
	return rentMove{b, k, f}
}

func (k rentKind) movePage(b formBase, o order) error {
	// Hours in the address are shown chosen, as a kept form's (nothing is sent).
	c := b.c
	f := &rentForm{date: c.QueryParam("date"), from: c.QueryParam("from"), to: c.QueryParam("to")}
	return rentMove{b, k, f}.again(o, http.StatusOK, "")
}

func (m rentMove) load(ctx context.Context, o order) {
	s, f := m.s, m.f
	if f.loaded {
		return
	}
	f.loaded = true
	f.day, f.dayOK = s.rentMoveDay(f, o)
	if f.dayOK {
		f.hours = m.hours(ctx, o, f.day)
	}
}

func (m rentMove) check(ctx context.Context, o order) verdict {
	status, msg := m.judge(ctx, o)
	return verdict{status, msg}
}

func (m rentMove) judge(ctx context.Context, o order) (int, string) {
	m.load(ctx, o)
	f := m.f
	start, okFrom := clockOn(f.day, f.from, false)
	end, okTo := clockOn(f.day, f.to, true)
	if !okFrom {
		f.errs.Add("from", msgPickFrom)
	}
	if !okTo {
		f.errs.Add("to", msgPickTo)
	}
	if f.dayOK && f.hours.status != http.StatusOK { // nothing to check the hours against
		return f.hours.status, f.hours.view.Message
	}
	if len(f.errs) == 0 {
		if err := gateway.CheckSlotMove(f.hours.schedule, start, end, o.amount); err != nil {
			f.errs.Add(slotField(err), err.Error())
		}
	}
	if len(f.errs) > 0 {
		return http.StatusUnprocessableEntity, ""
	}
	f.start, f.end = start, end
	return 0, ""
}

func (m rentMove) call(ctx context.Context, o order) store.Outcome {
	s, sess := m.s, web.SessionOf(m.c)
	r := o.wire.(rent)
	newID, err := m.k.change(ctx, rentChange{
		clientID: sess.GUID, rentID: o.id, facilityID: r.facilityID, facilityName: r.facilityName,
		beg: gateway.FormatISO(m.f.start, s.loc), end: gateway.FormatISO(m.f.end, s.loc), amount: o.amount,
	})
	if err != nil || newID == "" { // the provider moved it but did not say where
		return s.moved(ctx, o, rentMoveTexts, views.PathOrders, "", err)
	}
	s.moves.movedTo(ctx, sess.GUID, o, newID, m.f.start)
	return s.moved(ctx, o, rentMoveTexts, views.OrderPath(string(m.k.info().id), newID), "", nil)
}

// Without a day, the rent's own, or today when that is outside the window.
func (c clock) rentMoveDay(f *rentForm, o order) (time.Time, bool) {
	first, last := gateway.TransferWindow(c.now().In(c.loc))
	if strings.TrimSpace(f.date) == "" {
		if !o.ref.Start.IsZero() && gateway.InWindow(o.ref.Start, first, last) {
			return gateway.Day(o.ref.Start, c.loc), true
		}
		return first, true
	}
	day, msg := c.formDay(f.date, first, last, dayMessages)
	if msg != "" {
		f.errs.Add("date", msg)
		return first, false
	}
	return day, true
}

// An end of "00:00" or "24:00" is the midnight that ends the day.
func clockOn(day time.Time, hhmm string, end bool) (time.Time, bool) {
	if end && (hhmm == "24:00" || hhmm == "00:00") {
		return day.AddDate(0, 0, 1), true
	}
	t, err := time.Parse("15:04", hhmm)
	if err != nil {
		return time.Time{}, false
	}
	return time.Date(day.Year(), day.Month(), day.Day(), t.Hour(), t.Minute(), 0, 0, day.Location()), true
}

// The order's own hours are busy in the provider's timetable but free to
// move within, so they count as free here and for the rules.
func (m rentMove) hours(ctx context.Context, o order, day time.Time) rentDay {
	s := m.s
	d := rentDay{status: http.StatusOK, view: views.RentDay{Date: day.Format(gateway.LayoutISODate), Label: views.Date(day), Amount: o.amount}}
	r := o.wire.(rent)
	sch, err := m.k.schedule(ctx, r.facilityID, day)
	if err != nil {
		d.view.Hours = []views.RentHour{}
		switch f := explain(err, msgScheduleFailed, msgScheduleFailed); f.status {
		case http.StatusNotFound: // a day the provider does not offer
			d.view.Message = msgNoWindows
			return d
		case http.StatusUnauthorized: // the page stays; only its hours failed
			d.status = http.StatusBadGateway
		default:
			d.status = f.status
		}
		s.log.WarnContext(ctx, "rent schedule not loaded", "kind", o.kind.info().id, "order", o.id, "err", err)
		d.view.Message, d.view.Failed = msgScheduleFailed, true
		return d
	}
	own := map[int64]bool{}
	for _, h := range r.hours {
		if t, err := gateway.ParseISO(h.Hour, s.loc); err == nil {
			own[t.Unix()] = true
		}
	}
	d.view.HourCost, d.view.Cost = sch.Cost, views.Money(sch.Cost)
	if sch.Cost > 0 {
		d.view.Need = gateway.FormatHours(o.amount / sch.Cost)
	}
	d.view.Hours = make([]views.RentHour, 0, len(sch.Details))
	for i, h := range sch.Details {
		t, err := gateway.ParseISO(h.Hour, s.loc)
		if err != nil {
			continue
		}
		if own[t.Unix()] {
			sch.Details[i].Status = 0
		}
		d.view.Hours = append(d.view.Hours, views.RentHour{
			From: views.Clock(t), To: views.Clock(gateway.SlotEnd(t)), Free: sch.Details[i].Status == 0, Own: own[t.Unix()],
		})
	}
	d.schedule = sch
	if !hasWindow(d.view.Hours, o.amount, sch.Cost) {
		d.view.Message = msgNoWindows
	}
	return d
}

func hasWindow(hours []views.RentHour, amount, cost float64) bool {
	if cost <= 0 {
		return false
	}
	need := amount / cost
	if need < 1 || need != float64(int(need)) {
		return false
	}
	run := 0
	for i, h := range hours {
		switch {
		case !h.Free:
			run = 0
		case i > 0 && hours[i-1].To == h.From && hours[i-1].Free:
			run++
		default:
			run = 1
		}
		if run >= int(need) {
			return true
		}
	}
	return false
}

// The slot picker gets the day's hours as JSON (GET) or why a move was
// refused, with a fresh token (POST).
func (m rentMove) again(o order, status int, msg string) error {
	s, c := m.s, m.c
	m.load(c.Request().Context(), o)
	f := m.f
	d := f.hours
	if !f.posted {
		status = d.status
		if !f.dayOK {
			status = http.StatusUnprocessableEntity
		}
	}
	var data any = struct {
		OK bool `json:"ok"`
		views.RentDay
	}{status == http.StatusOK, d.view}
	switch {
	case f.posted: // the slot picker may try again with the fresh token
		data = web.Answer{Message: cmp.Or(msg, firstError(f.errs)), Token: s.newToken(c, o, actTransfer)}
	case !f.dayOK:
		data = web.Answer{Message: firstError(f.errs)}
	}
	return web.Respond(c, status, data, func() error { return m.page(o, status, msg) })
}

func (m rentMove) page(o order, status int, msg string) error {
	s, c := m.s, m.c
	f := m.f
	d := f.hours
	if f.posted && msg == d.view.Message {
		msg = "" // the hours' place says it already
	}
	first, last := gateway.TransferWindow(s.now().In(s.loc))
	url := o.url(string(actTransfer))
	if d.view.Date == "" { // the day was not read: show the form for it alone
		d.view = views.RentDay{Date: f.date, Label: views.Date(f.day), Hours: []views.RentHour{}}
	}
	v := views.RentMoveView{
		Action: views.ActionView{
			Order: o.card, Heading: actTransfer.label(o.kind), Lead: msgRentMoveLead,
			URL: url, Token: s.newToken(c, o, actTransfer), Submit: actTransfer.label(o.kind), Error: msg, Errors: f.errs,
		},
		Day: d.view, From: f.from, To: f.to,
		Min: first.Format(gateway.LayoutISODate), Max: last.Format(gateway.LayoutISODate),
		Window: "С " + views.Date(first) + " по " + views.Date(last),
	}
	v.Props = views.SlotProps{RentDay: d.view, URL: url, DayForm: "#rent-day", Min: v.Min, Max: v.Max, From: f.from, To: f.to}
	booked := ""
	if !o.ref.Start.IsZero() {
		booked = iso(gateway.Day(o.ref.Start, s.loc))
	}
	chosen := ""
	if f.dayOK {
		chosen = iso(f.day)
	}
	v.Month = s.monthView("day", c.QueryParam("month"), f.day, first, last, neturl.Values{"date": {chosen}}, func(t time.Time) views.MonthDay {
		md := views.MonthDay{Name: views.DayName(t, bookedName(iso(t) == booked)), Booked: iso(t) == booked, Chosen: iso(t) == chosen}
		if gateway.InWindow(t, first, last) {
			md.Href = dayLink(t)
		} else {
			md.Off = true
		}
		return md
	})
	v.Month.Legend = booked != ""
	v.Calendar = views.RentCalendar{CalendarWindow: views.CalendarWindow{Min: v.Min, Max: v.Max, Today: s.today(), Label: "День", Month: v.Month.Value + "-01"},
		Value: d.view.Date, Target: "#rent-day input[name=date]", Booked: booked}
	pg := s.page(c, v.Action.Heading, "Перенос аренды в личном кабинете курорта.")
	pg.Nav, pg.Invalid, pg.Islands = views.NavOrders, len(f.errs) > 0, o.kind.info().moveIslands
	return s.render(c, status, views.RentMovePage(pg, v))
}
