package sandbox

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"lk/gateway"
)

func hotelMeta(o gateway.HotelOrder, client string, canceled, refunded bool) orderMeta {
	in, _ := time.Parse(gateway.LayoutDateTime, o.HourBeg)
	out, _ := time.Parse(gateway.LayoutDateTime, o.HourEnd)
	return orderMeta{Kind: kindHotel, ID: o.OrderID, Client: client, Start: fmtISO(in), End: fmtISO(out),
		Canceled: canceled, Refunded: refunded}
}

// takeNights takes (sign 1) or gives back (sign -1) rooms on the nights from
// in's day up to, not including, out's day.
func (s *Sandbox) takeNights(ctx context.Context, q querier, in, out time.Time, rooms, family, sign int) error {
	for d := dayOf(in); d.Before(dayOf(out)); d = addDays(d, 1) {
		var hd gateway.HotelDay
		err := getRow(ctx, q, &hd, `SELECT data FROM hotel_days WHERE day = ?`, fmtDay(d))
		if errors.Is(err, errNotFound) {
			continue
		}
		if err != nil {
			return err
		}
		hd.Vacant = max(0, hd.Vacant-sign*rooms)
		hd.Family = max(0, hd.Family-sign*family)
		if _, err := q.ExecContext(ctx, `UPDATE hotel_days SET data = ? WHERE day = ?`, mustJSON(hd), fmtDay(d)); err != nil {
			return err
		}
	}
	return nil
}

// handleOpenRooms (POST /sandbox/open-rooms) frees rooms on the nights
// from "in" to "out" (yyyy-mm-dd, out exclusive), as a cancelled stay
// would, for tests whose seeded month lacks a free period.
func (s *Sandbox) handleOpenRooms(w http.ResponseWriter, r *http.Request) {
	var req struct {
		In     string `json:"in"`
		Out    string `json:"out"`
		Rooms  int    `json:"rooms"`
		Family int    `json:"family"`
	}
	err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<12)).Decode(&req)
	in, errIn := time.ParseInLocation("2006-01-02", req.In, s.loc)
	out, errOut := time.ParseInLocation("2006-01-02", req.Out, s.loc)
	if err != nil || errIn != nil || errOut != nil || !out.After(in) || req.Rooms < 0 || req.Family < 0 {
		writeJSON(w, http.StatusBadRequest, map[string]any{"success": false, "errorMessage": "in < out (yyyy-mm-dd), rooms and family are required"})
		return
	}
	if err := s.takeNights(r.Context(), s.db, in, out, req.Rooms, req.Family, -1); err != nil {
		s.internal(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]bool{"success": true})
}

// handleHotelOrders serves hotel/getHotelOrders: activeOrders (not canceled,
// check-out day today or later, soonest first) and historyOrders (the rest,
// latest first), or currentOrder with single=true&orderId=.
func (s *Sandbox) handleHotelOrders(w http.ResponseWriter, r *http.Request) {
	splitOrders[gateway.HotelOrder](s, w, r, kindHotel, func(m orderMeta) string { return m.End })
}

func formOrderID(r *http.Request) string {
	if v := r.FormValue("OrderId"); v != "" {
		return v
	}
	if v := r.FormValue("orderId"); v != "" {
		return v
	}
	return r.FormValue("orderID")
}

// handleHotelCancel serves hotel/cancelOrder (form data OrderId).
func (s *Sandbox) handleHotelCancel(w http.ResponseWriter, r *http.Request) {
	id := formOrderID(r)
	err := orderTx(s, r.Context(), kindHotel, id, func(ctx context.Context, tx *sql.Tx, m orderMeta, o gateway.HotelOrder) error {
		if o.Canceled {
			return refusal("Заказ уже отменен")
		}
		if !o.CanCancel {
			return refusal("Отмена этого заказа недоступна")
		}
		o.Canceled, o.CanCancel, o.CanTransfer = true, false, false
		m.Canceled = true
		if err := putOrder(r.Context(), tx, m, o); err != nil {
			return err
		}
		return s.takeNights(r.Context(), tx, s.parseDT(o.HourBeg), s.parseDT(o.HourEnd), len(o.Rooms), len(o.FamilyRooms), -1)
	})
	s.answerTx(w, r, err, gateway.Answer{Success: true, Message: "Бронирование отменено"})
}

// handleHotelRefund serves hotel/registerRefund: the request is stored and
// the order canceled (it may already be canceled by hotel/cancelOrder, which
// the app calls first).
func (s *Sandbox) handleHotelRefund(w http.ResponseWriter, r *http.Request, in gateway.HotelRefundRequest) {
	id := in.OrderID
	if id == "" {
		id = in.FormRefund.OrderID
	}
	docs, ok := refundDocs(w, in.Documents)
	if !ok {
		return
	}
	err := orderTx(s, r.Context(), kindHotel, id, func(ctx context.Context, tx *sql.Tx, m orderMeta, o gateway.HotelOrder) error {
		if err := s.refundable(m, o.Canceled, o.CanCancel, o.HourBeg, &in.FormRefund, docs); err != nil {
			return err
		}
		body := in
		body.Documents = stripFiles(in.Documents)
		if err := s.storeRefund(ctx, tx, "hotel/registerRefund", id, &in.FormRefund, docs, nil, body); err != nil {
			return err
		}
		wasLive := !o.Canceled
		o.Canceled, o.CanCancel, o.CanTransfer = true, false, false
		m.Canceled, m.Refunded = true, true
		if err := putOrder(ctx, tx, m, o); err != nil {
			return err
		}
		if wasLive {
			return s.takeNights(ctx, tx, s.parseDT(o.HourBeg), s.parseDT(o.HourEnd), len(o.Rooms), len(o.FamilyRooms), -1)
		}
		return nil
	})
	s.answerTx(w, r, err, gateway.Answer{Success: true, Message: msgRefundOK})
}

// handleHotelDates serves hotel/getDates (form data dateIn, dateOut,
// yyyy-mm-dd): the listed nights between them, both included.
func (s *Sandbox) handleHotelDates(w http.ResponseWriter, r *http.Request) {
	from, to := fmtDay(s.today()), "9999-12-31"
	if t, ok := s.parseAny(r.FormValue("dateIn")); ok {
		from = fmtDay(t)
	}
	if t, ok := s.parseAny(r.FormValue("dateOut")); ok {
		to = fmtDay(t)
	}
	days, err := getRows[gateway.HotelDay](r.Context(), s.db, `SELECT data FROM hotel_days WHERE day >= ? AND day <= ? ORDER BY day`, from, to)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	var ans gateway.HotelDatesAnswer
	ans.Success = true
	ans.DateList.Days = days
	writeJSON(w, http.StatusOK, ans)
}

// handlePushReservation serves hotel/pushReservation: the stay moves when
// every night of the new period is listed with enough vacant ordinary and
// family rooms and the nights' prices add up to the order's room amount.
func (s *Sandbox) handlePushReservation(w http.ResponseWriter, r *http.Request, in gateway.PushReservationRequest) {
	err := orderTx(s, r.Context(), kindHotel, in.OrderID, func(ctx context.Context, tx *sql.Tx, m orderMeta, o gateway.HotelOrder) error {
		if o.Canceled || !o.CanTransfer {
			return refusal("Перенос этого бронирования недоступен")
		}
		newIn, ok1 := s.parseAny(in.NewDateIn)
		newOut, ok2 := s.parseAny(in.NewDateOut)
		if !ok1 || !ok2 || !dayOf(newOut).After(dayOf(newIn)) {
			return refusal("Некорректный период проживания")
		}
		today := s.today()
		if dayOf(newIn).Before(today) || dayOf(newIn).After(gateway.AddMonths(today, 1)) {
			return refusal("Перенос возможен на даты с сегодняшнего дня на месяц вперёд")
		}
		if newIn.Hour() == 0 && newIn.Minute() == 0 {
			newIn = at(newIn, 16, 0)
		}
		if newOut.Hour() == 0 && newOut.Minute() == 0 {
			newOut = at(newOut, 14, 0)
		}
		oldIn, oldOut := s.parseDT(o.HourBeg), s.parseDT(o.HourEnd)
		// Free our own nights first so an overlapping move is judged fairly;
		// a refusal rolls this back.
		if err := s.takeNights(ctx, tx, oldIn, oldOut, len(o.Rooms), len(o.FamilyRooms), -1); err != nil {
			return err
		}
		sum := 0.0
		for d := dayOf(newIn); d.Before(dayOf(newOut)); d = addDays(d, 1) {
			var hd gateway.HotelDay
			err := getRow(ctx, tx, &hd, `SELECT data FROM hotel_days WHERE day = ?`, fmtDay(d))
			if errors.Is(err, errNotFound) {
				return refusal("На выбранные даты нет свободных номеров")
			}
			if err != nil {
				return err
			}
			if hd.Vacant < len(o.Rooms) || hd.Family < len(o.FamilyRooms) {
				return refusal("На выбранные даты нет свободных номеров")
			}
			sum += hd.Price*float64(len(o.Rooms)) + hd.PriceFamily*float64(len(o.FamilyRooms))
		}
		if sum != o.AmountRooms {
			return refusal("Стоимость выбранного периода не совпадает со стоимостью заказа")
		}
		if err := s.takeNights(ctx, tx, newIn, newOut, len(o.Rooms), len(o.FamilyRooms), 1); err != nil {
			return err
		}
		o.HourBeg, o.HourEnd = fmtDT(newIn), fmtDT(newOut)
		nm := hotelMeta(o, m.Client, m.Canceled, m.Refunded)
		nm.Start, nm.End = fmtISO(newIn), fmtISO(newOut)
		return putOrder(ctx, tx, nm, o)
	})
	s.answerTx(w, r, err, gateway.Answer{Success: true, Message: "Перенос бронирования выполнен успешно."})
}

func (s *Sandbox) handleHotelPDF(w http.ResponseWriter, r *http.Request) {
	o, ok := pdfOrder(s, w, r, kindHotel, func(o gateway.HotelOrder) bool { return o.Canceled })
	if !ok {
		return
	}
	pdf, err := VoucherPDF(o)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	writePDF(w, "hotel-"+o.OrderID+".pdf", pdf)
}
