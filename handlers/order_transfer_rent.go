package handlers

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v5"

	"lk/gateway"
	"lk/store"
	"lk/views"
)

// Texts of a rent move (SPEC §4, §5, §8).
const (
	msgRentMoved       = "Перенос выполнен успешно"
	msgRentMoveFailed  = "Не удалось перенести аренду"
	msgNoWindows       = "На данную дату нет доступных окон"
	msgScheduleFailed  = "Не удалось загрузить расписание на этот день. Попробуйте позже или выберите другой день."
	msgRentMoveLead    = "Выберите день, затем начало и окончание аренды."
	msgPickFrom        = "Выберите время начала."
	msgPickTo          = "Выберите время окончания."
	msgBadDate         = "Введите дату в формате ДД.ММ.ГГГГ."
	msgDateOutOfWindow = "Выберите день не раньше сегодняшнего и не позже чем через месяц."
)

// rentMove is what differs between moving a pavilion rent and a
// celebration-room rent: where the facility is read from the order, and the
// provider's timetable and change calls (SPEC §7).
type rentMove struct {
	facility func(o order) (id, name string)
	schedule func(p Provider, ctx context.Context, facilityID string, day time.Time) (gateway.Schedule, error)
	change   func(p Provider, ctx context.Context, m rentChange) (string, error)
}

// rentChange is a move as both change calls take it.
type rentChange struct {
	clientID, rentID, facilityID, facilityName string
	beg, end                                   string // ISO date-times
	amount                                     float64
}

var pavilionMove = &rentMove{
	facility: func(o order) (string, string) {
		w := o.wire.(gateway.PavilionOrder)
		return w.PavilionID, w.PavilionName
	},
	schedule: Provider.PavilionSchedule,
	change: func(p Provider, ctx context.Context, m rentChange) (string, error) {
		return p.ChangePavilionRent(ctx, gateway.ChangePavilionRequest{
			ClientID: m.clientID, RentID: m.rentID, PavilionID: m.facilityID, PavilionName: m.facilityName,
			NewRentDateBeg: m.beg, NewRentDateEnd: m.end, Amount: m.amount,
		})
	},
}

var roomMove = &rentMove{
	facility: func(o order) (string, string) {
		w := o.wire.(gateway.RoomOrder)
		return w.RoomID, w.RoomName
	},
	schedule: Provider.RoomSchedule,
	change: func(p Provider, ctx context.Context, m rentChange) (string, error) {
		return p.ChangeRoomRent(ctx, gateway.ChangeRoomRequest{
			ClientID: m.clientID, RentID: m.rentID, CelRoomID: m.facilityID, CelRoomName: m.facilityName,
			NewRentDateBeg: m.beg, NewRentDateEnd: m.end, Amount: m.amount,
		})
	},
}

// transfer is the kind's …/transfer.
func (m *rentMove) transfer() *transfer { return &transfer{page: m.page, submit: m.submit} }

// rentForm is the move's answers as they came, and what is wrong with them.
type rentForm struct {
	date, from, to string
	errs           views.Errors
}

// rentDay is a day of the facility: what the page shows and the schedule
// the rules check a move against.
type rentDay struct {
	view     views.RentDay
	schedule gateway.Schedule
	status   int // of the page: 200, or the provider's failure
}

// page is GET …/transfer?date=: the day's hours, as a page or, for the slot
// picker changing the day, as JSON.
func (m *rentMove) page(s *Server, c *echo.Context, o order) error {
	f := rentForm{date: c.QueryParam("date")}
	day, ok := s.rentMoveDay(&f, o)
	var d rentDay
	status := http.StatusOK
	if ok {
		d = m.load(s, c.Request().Context(), o, day)
		status = d.status
	} else {
		status = http.StatusUnprocessableEntity
	}
	if wantsJSON(c) {
		if !ok {
			return c.JSON(status, jsonAnswer{Title: "Ой!", Message: f.errs[0].Message})
		}
		return c.JSON(status, struct {
			OK bool `json:"ok"`
			views.RentDay
		}{status == http.StatusOK, d.view})
	}
	return m.render(s, c, status, o, f, day, d, "")
}

// submit is POST …/transfer: the rules of SPEC §5 on the day's hours, then
// the provider's change call once per token.
func (m *rentMove) submit(s *Server, c *echo.Context, o order) error {
	f := rentForm{date: c.FormValue("date"), from: strings.TrimSpace(c.FormValue("from")), to: strings.TrimSpace(c.FormValue("to"))}
	day, ok := s.rentMoveDay(&f, o)
	from, okFrom := clockOn(day, f.from, false)
	end, okTo := clockOn(day, f.to, true)
	if !okFrom {
		f.errs.Add("from", msgPickFrom)
	}
	if !okTo {
		f.errs.Add("to", msgPickTo)
	}
	var d rentDay
	if ok {
		d = m.load(s, c.Request().Context(), o, day)
		if d.status != http.StatusOK { // nothing to check the hours against
			return m.again(s, c, d.status, o, f, day, d, d.view.Message)
		}
	}
	if len(f.errs) == 0 {
		if err := gateway.CheckSlotMove(d.schedule, from, end, o.amount); err != nil {
			field := "from"
			if errors.Is(err, gateway.ErrPeriodReversed) || errors.Is(err, gateway.ErrPeriodEmpty) {
				field = "to"
			}
			f.errs.Add(field, err.Error())
		}
	}
	if len(f.errs) > 0 {
		return m.again(s, c, http.StatusUnprocessableEntity, o, f, day, d, "")
	}
	out, err := s.onlyOnce(c, o, actTransfer, func(ctx context.Context) store.Outcome {
		fid, name := m.facility(o)
		newID, err := m.change(s.gw, ctx, rentChange{
			clientID: session(c).GUID, rentID: o.id, facilityID: fid, facilityName: name,
			beg: gateway.FormatISO(from, s.loc), end: gateway.FormatISO(end, s.loc), amount: o.amount,
		})
		if err != nil {
			return s.failed(o, actTransfer, err, msgRentMoveFailed, msgServer)
		}
		next := views.PathOrders // the provider moved it but did not say where
		if newID != "" {
			next = views.OrderPath(string(o.kind.id), newID)
			s.movedTo(ctx, o, newID, from)
		}
		return store.Outcome{Status: http.StatusSeeOther, Location: next, Message: msgRentMoved}
	})
	if err != nil {
		return err
	}
	return s.finish(c, o, actTransfer, out, func(status int, msg string) error {
		return m.render(s, c, status, o, f, day, d, msg)
	})
}

// again answers a refused move: the form with the answers kept, or JSON for
// the slot picker (its token was not used, so it may try again with it).
func (m *rentMove) again(s *Server, c *echo.Context, status int, o order, f rentForm, day time.Time, d rentDay, msg string) error {
	if wantsJSON(c) {
		if msg == "" {
			msg = f.errs[0].Message
		}
		return c.JSON(status, jsonAnswer{Title: "Ой!", Message: msg, Token: s.token(c, o, actTransfer)})
	}
	if msg == d.view.Message {
		msg = "" // the hours' place says it already
	}
	return m.render(s, c, status, o, f, day, d, msg)
}

// rentMoveDay reads the day of the form or the query: ГГГГ-ММ-ДД or
// ДД.ММ.ГГГГ, from today to a month ahead. Without one it is the rent's own
// day, or today when that is outside the window.
func (s *Server) rentMoveDay(f *rentForm, o order) (time.Time, bool) {
	first, last := gateway.TransferWindow(s.now().In(s.loc))
	raw := strings.TrimSpace(f.date)
	if raw == "" {
		if !o.ref.Start.IsZero() && gateway.InWindow(o.ref.Start, first, last) {
			return gateway.Day(o.ref.Start, s.loc), true
		}
		return first, true
	}
	day, err := time.ParseInLocation(gateway.LayoutISODate, raw, s.loc)
	if err != nil {
		day, err = gateway.ParseDate(raw, s.loc)
	}
	switch {
	case err != nil:
		f.errs.Add("date", msgBadDate)
	case !gateway.InWindow(day, first, last):
		f.errs.Add("date", msgDateOutOfWindow)
	default:
		return day, true
	}
	return first, false
}

// clockOn is the time "ЧЧ:ММ" on day. An end of "00:00" or "24:00" is the
// midnight that ends the day.
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

// load fetches the facility's hours on day. The order's own hours are
// busy in the provider's timetable but free to move within, so they count
// as free here (and for the rules). A day the provider does not offer has
// no windows; a failure is said in Russian and logged (SPEC §8).
func (m *rentMove) load(s *Server, ctx context.Context, o order, day time.Time) rentDay {
	d := rentDay{status: http.StatusOK, view: views.RentDay{Date: day.Format(gateway.LayoutISODate), Label: views.Date(day), Amount: o.amount}}
	fid, _ := m.facility(o)
	sch, err := m.schedule(s.gw, ctx, fid, day)
	switch {
	case errors.Is(err, gateway.ErrNotFound):
		d.view.Message = msgNoWindows
		d.view.Hours = []views.RentHour{}
		return d
	case err != nil:
		s.log.Warn("rent schedule not loaded", "kind", o.kind.id, "id", o.id, "err", err)
		d.status, _ = explain(err, msgScheduleFailed, msgScheduleFailed)
		if d.status == http.StatusNotFound || d.status == http.StatusUnauthorized {
			d.status = http.StatusBadGateway
		}
		d.view.Message, d.view.Failed, d.view.Hours = msgScheduleFailed, true, []views.RentHour{}
		return d
	}
	own := map[int64]bool{}
	if wfid, _ := m.facility(o); wfid == fid {
		for _, h := range rentHours(o, s.loc) {
			own[h.Unix()] = true
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

// rentHours are the starts of the hours a rent holds now.
func rentHours(o order, loc *time.Location) []time.Time {
	var details []gateway.RentDetail
	switch w := o.wire.(type) {
	case gateway.PavilionOrder:
		details = w.Details
	case gateway.RoomOrder:
		details = w.Details
	}
	out := make([]time.Time, 0, len(details))
	for _, d := range details {
		if t, err := gateway.ParseISO(d.Hour, loc); err == nil {
			out = append(out, t)
		}
	}
	return out
}

// hasWindow tells whether the day has a run of free hours, one after
// another, that costs amount.
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

// render is the move's page.
func (m *rentMove) render(s *Server, c *echo.Context, status int, o order, f rentForm, day time.Time, d rentDay, msg string) error {
	first, last := gateway.TransferWindow(s.now().In(s.loc))
	url := views.OrderPath(string(o.kind.id), o.id, string(actTransfer))
	if d.view.Date == "" { // the day was not read: show the form for it alone
		d.view = views.RentDay{Date: f.date, Label: views.Date(day), Hours: []views.RentHour{}}
	}
	v := views.RentMoveView{
		Action: views.ActionView{
			Order: o.card, Heading: actTransfer.label(o.kind), Lead: msgRentMoveLead,
			URL: url, Token: s.token(c, o, actTransfer), Submit: actTransfer.label(o.kind), Error: msg, Errors: f.errs,
		},
		Day: d.view, From: f.from, To: f.to,
		Min: first.Format(gateway.LayoutISODate), Max: last.Format(gateway.LayoutISODate),
		Window: "С " + views.Date(first) + " по " + views.Date(last),
	}
	v.Props = views.SlotProps{RentDay: d.view, URL: url, DayForm: "#rent-day", Min: v.Min, Max: v.Max, From: f.from, To: f.to}
	p := s.page(c, v.Action.Heading, "Перенос аренды в личном кабинете курорта.")
	p.Nav, p.Invalid, p.Islands = views.NavOrders, len(f.errs) > 0, []string{views.SlotIsland}
	return render(c, status, views.RentMovePage(p, v))
}
