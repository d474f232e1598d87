package handlers

import (
	"cmp"
	"context"
	"net/http"
	"time"

	"github.com/labstack/echo/v5"

	"lk/gateway"
	"lk/store"
	"lk/views"
)

// hotelTransfer moves a hotel stay to other dates (SPEC §4, §5, §9): the
// nights of hotel/getDates with their availability for the order's rooms and
// their price; check-in and check-out in order, every night available, the
// nights' prices adding up to the order's room amount; then
// hotel/pushReservation with check-in 16:00 and check-out 14:00.
var hotelTransfer = &transfer{page: hotelTransferPage, submit: hotelTransferSubmit}

const (
	hotelCheckIn  = 16 // o'clock (SPEC §9)
	hotelCheckOut = 14
)

// hotelAnswers are the answers of a hotel transfer and the range shown.
type hotelAnswers struct {
	from, to, in, out string
	errs              views.Errors
}

func hotelTransferPage(s *Server, c *echo.Context, o order) error {
	h := o.wire.(gateway.HotelOrder)
	a := hotelAnswers{from: c.QueryParam("from"), to: c.QueryParam("to"), in: c.QueryParam("dateIn"), out: c.QueryParam("dateOut")}
	if a.in == "" && a.out == "" {
		a.in, a.out = iso(s.providerTime(h.HourBeg)), iso(s.providerTime(h.HourEnd))
	}
	return s.hotelRender(c, o, http.StatusOK, a, "")
}

func hotelTransferSubmit(s *Server, c *echo.Context, o order) error {
	h := o.wire.(gateway.HotelOrder)
	a := hotelAnswers{in: c.FormValue("dateIn"), out: c.FormValue("dateOut")}
	from, to := gateway.TransferWindow(s.now())
	in, msg := s.formDay(a.in, from, to)
	if msg != "" {
		a.errs.Add("dateIn", msg)
	}
	out, msgOut := s.formDay(a.out, from, to.AddDate(0, 0, 31))
	switch {
	case msgOut != "":
		a.errs.Add("dateOut", msgOut)
	case msg == "" && out.Before(in):
		a.errs.Add("dateOut", gateway.ErrRangeReversed.Error())
	case msg == "" && out.Equal(in):
		a.errs.Add("dateOut", gateway.ErrRangeEmpty.Error())
	}
	if len(a.errs) > 0 {
		return s.hotelRender(c, o, http.StatusUnprocessableEntity, a, "")
	}
	days, err := s.gw.HotelDates(c.Request().Context(), in, out)
	if err != nil {
		status, text := explain(err, msgHotelDates, msgHotelDates)
		return s.hotelRender(c, o, status, a, text)
	}
	if err := gateway.CheckHotelRange(days, in, out, h); err != nil {
		a.errs.Add("dateIn", err.Error())
		return s.hotelRender(c, o, http.StatusUnprocessableEntity, a, "")
	}
	res, err := s.onlyOnce(c, o, actTransfer, func(ctx context.Context) store.Outcome {
		msg, err := s.gw.PushReservation(ctx, gateway.PushReservationRequest{
			OrderID:    h.OrderID,
			NewDateIn:  gateway.FormatISO(in.Add(hotelCheckIn*time.Hour), s.loc),
			NewDateOut: gateway.FormatISO(out.Add(hotelCheckOut*time.Hour), s.loc),
		})
		if err != nil {
			return s.failed(o, actTransfer, err, msgHotelMoveFailed, msgHotelRegister)
		}
		return store.Outcome{Status: http.StatusSeeOther, Location: views.OrderPath(string(gateway.KindHotel), o.id), Message: cmp.Or(msg, msgHotelMoved)}
	})
	if err != nil {
		return err
	}
	return s.finish(c, o, actTransfer, res, func(status int, msg string) error {
		return s.hotelRender(c, o, status, a, msg)
	})
}

// hotelRange is the range of nights the page lists: ?from=&to= or the first
// day of this month to the end of the next (SPEC §9), never before today.
func (s *Server) hotelRange(a *hotelAnswers) (from, to time.Time) {
	today := gateway.Day(s.now(), s.loc)
	from = today.AddDate(0, 0, 1-today.Day())
	to = from.AddDate(0, 2, -1)
	if d, err := gateway.ParseDay(a.from, s.loc); a.from != "" && err != nil {
		a.errs.Add("from", msgBadDay)
	} else if err == nil {
		from = d
	}
	if d, err := gateway.ParseDay(a.to, s.loc); a.to != "" && err != nil {
		a.errs.Add("to", msgBadDay)
	} else if err == nil {
		to = d
	}
	if from.Before(today) {
		from = today
	}
	if to.Before(from) || to.After(from.AddDate(0, 3, 0)) {
		to = from.AddDate(0, 2, 0) // at most a few months in one answer
	}
	return from, to
}

// hotelRender shows the hotel transfer page with the answers a, their rule
// errors and a failure msg.
func (s *Server) hotelRender(c *echo.Context, o order, status int, a hotelAnswers, msg string) error {
	h := o.wire.(gateway.HotelOrder)
	rooms, family := gateway.HotelRooms(h)
	from, to := s.hotelRange(&a)
	wFrom, wTo := gateway.TransferWindow(s.now())
	url := views.OrderPath(string(o.kind.id), o.id, string(actTransfer))
	v := views.HotelTransferView{
		Action: views.ActionView{
			Order: o.card, Heading: "Перенести бронирование",
			Lead:  "Выберите даты заезда и выезда. Стоимость проживания в номерах должна остаться прежней: " + views.Money(h.AmountRooms) + ".",
			Notes: []string{"Заезд с 16:00, выезд до 14:00."},
			URL:   url, Token: s.token(c, o, actTransfer), Submit: "Готово", Error: msg, Errors: a.errs,
		},
		From: views.DayField{Name: "from", Label: "Показать с", Value: iso(from)},
		To:   views.DayField{Name: "to", Label: "по", Value: iso(to)},
		In:   views.DayField{Name: "dateIn", Label: "Дата заезда", Value: a.in, Min: iso(wFrom), Max: iso(wTo)},
		Out:  views.DayField{Name: "dateOut", Label: "Дата выезда", Value: a.out, Min: iso(wFrom.AddDate(0, 0, 1)), Max: iso(wTo.AddDate(0, 0, 31))},
	}
	days, err := s.gw.HotelDates(c.Request().Context(), from, to)
	if err != nil {
		st, text := explain(err, msgHotelDates, msgHotelDates)
		v.Error, status = text, max(status, st)
	}
	byDay := make(map[string]gateway.HotelDay, len(days))
	for _, d := range days {
		byDay[gateway.HotelDayKey(d)] = d
	}
	last := wFrom
	for d := from; !d.After(to); d = d.AddDate(0, 0, 1) {
		day, listed := byDay[iso(d)]
		ok := listed && gateway.HotelDayAvailable(day, rooms, family)
		price := gateway.HotelNightPrice(day, rooms, family)
		dv := views.HotelDayView{Date: views.Date(d), Weekday: weekdays[d.Weekday()], Available: ok}
		if ok {
			dv.Price = views.Money(price)
		}
		v.Days = append(v.Days, dv)
		if listed {
			v.Calendar.Days = append(v.Calendar.Days, views.CalendarDay{Date: iso(d), Vacant: day.Vacant, Family: day.Family, Price: price, Label: views.Money(price)})
			last = d
		}
	}
	// The calendar picks the listed nights and the morning after the last.
	end := last.AddDate(0, 0, 1)
	v.Calendar = views.CalendarProps{
		Mode: "range", Min: iso(wFrom), Max: iso(end), DayForm: "#transfer-day", Label: "Даты проживания",
		Start: "dateIn", End: "dateOut", From: a.in, To: a.out, Days: v.Calendar.Days,
		Rooms: rooms, Family: family, Amount: h.AmountRooms,
		Texts: map[string]string{"unavailable": gateway.ErrDayUnavailable.Error(), "price": gateway.ErrRangePrice.Error(), "checkIn": "Заезд", "checkOut": "Выезд"},
	}
	p := s.page(c, "Перенести бронирование", "Перенос бронирования отеля в личном кабинете курорта.")
	p.Nav, p.Invalid, p.Islands = views.NavOrders, len(a.errs) > 0, []string{views.CalendarIsland}
	return render(c, status, views.HotelTransferPage(p, v))
}

var weekdays = [...]string{"вс", "пн", "вт", "ср", "чт", "пт", "сб"}
