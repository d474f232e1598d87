package sandbox

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"lk/gateway"
)

// Rent kinds share everything but their JSON names.
const (
	pavilionKind = kindPavilion
	roomKind     = kindRoom
)

// rent is a pavilion or celebration-room rent, whichever its kind.
type rent struct {
	FacilityID   string
	FacilityName string
	HourBeg      string
	HourEnd      string
	Amount       float64
	Cost         float64
	ClientID     string
	Details      []gateway.RentDetail
	CanTransfer  bool
	CanCancel    bool
}

func (r rent) id() string {
	if len(r.Details) == 0 {
		return ""
	}
	return r.Details[0].RentID
}

func (r rent) pavilion() gateway.PavilionOrder {
	return gateway.PavilionOrder{PavilionID: r.FacilityID, PavilionName: r.FacilityName, HourBeg: r.HourBeg, HourEnd: r.HourEnd,
		Amount: r.Amount, Cost: r.Cost, ClientID: r.ClientID, Details: r.Details, CanTransfer: r.CanTransfer, CanCancel: r.CanCancel}
}

func (r rent) room() gateway.RoomOrder {
	return gateway.RoomOrder{RoomID: r.FacilityID, RoomName: r.FacilityName, HourBeg: r.HourBeg, HourEnd: r.HourEnd,
		Amount: r.Amount, Cost: r.Cost, ClientID: r.ClientID, Details: r.Details, CanTransfer: r.CanTransfer, CanCancel: r.CanCancel}
}

func fromPavilion(o gateway.PavilionOrder) rent {
	return rent{o.PavilionID, o.PavilionName, o.HourBeg, o.HourEnd, o.Amount, o.Cost, o.ClientID, o.Details, o.CanTransfer, o.CanCancel}
}

func fromRoom(o gateway.RoomOrder) rent {
	return rent{o.RoomID, o.RoomName, o.HourBeg, o.HourEnd, o.Amount, o.Cost, o.ClientID, o.Details, o.CanTransfer, o.CanCancel}
}

func (r rent) wire(kind string) any {
	if kind == roomKind {
		return r.room()
	}
	return r.pavilion()
}

func facilities(kind string) []facility {
	if kind == roomKind {
		return celRooms
	}
	return pavilions
}

func findFacility(kind, id string) (facility, bool) {
	for _, f := range facilities(kind) {
		if f.ID == id {
			return f, true
		}
	}
	return facility{}, false
}

func makeRent(f facility, client, rentID string, start time.Time, hours int, regDate string) rent {
	r := rent{
		FacilityID: f.ID, FacilityName: f.Name, HourBeg: fmtDT(start), HourEnd: fmtDT(start.Add(time.Duration(hours) * time.Hour)),
		Amount: f.Cost * float64(hours), Cost: f.Cost, ClientID: client,
	}
	for i := range hours {
		r.Details = append(r.Details, gateway.RentDetail{
			RentID: rentID, Cost: f.Cost, Hour: fmtISO(start.Add(time.Duration(i) * time.Hour)), Status: 1, RegDate: regDate,
		})
	}
	return r
}

func (s *Sandbox) putRent(ctx context.Context, q querier, kind string, r rent, canceled bool) error {
	m := orderMeta{Kind: kind, ID: r.id(), Client: r.ClientID, Start: fmtISO(s.parseDT(r.HourBeg)),
		End: fmtISO(s.parseDT(r.HourEnd)), Ref: r.FacilityID, Canceled: canceled}
	return putOrder(ctx, q, m, r.wire(kind))
}

func (s *Sandbox) putRentMeta(ctx context.Context, q querier, kind string, m orderMeta, r rent) error {
	return putOrder(ctx, q, m, r.wire(kind))
}

func (s *Sandbox) getRent(ctx context.Context, q querier, kind, id string) (rent, orderMeta, error) {
	if kind == roomKind {
		var o gateway.RoomOrder
		m, err := getOrder(ctx, q, kind, id, &o)
		return fromRoom(o), m, err
	}
	var o gateway.PavilionOrder
	m, err := getOrder(ctx, q, kind, id, &o)
	return fromPavilion(o), m, err
}

func (s *Sandbox) listRents(ctx context.Context, q querier, kind, client string) ([]stored[rent], error) {
	var out []stored[rent]
	if kind == roomKind {
		list, err := listOrders[gateway.RoomOrder](ctx, q, kind, client)
		for _, o := range list {
			out = append(out, stored[rent]{o.Meta, fromRoom(o.Order)})
		}
		return out, err
	}
	list, err := listOrders[gateway.PavilionOrder](ctx, q, kind, client)
	for _, o := range list {
		out = append(out, stored[rent]{o.Meta, fromPavilion(o.Order)})
	}
	return out, err
}

// markHours sets the status of a rent's hours in its facility's timetable
// (1 busy, 0 free). Days outside the window are skipped.
func (s *Sandbox) markHours(ctx context.Context, q querier, kind string, r rent, status int) error {
	byDay := map[string][]string{}
	for _, d := range r.Details {
		t, ok := s.parseAny(d.Hour)
		if !ok {
			continue
		}
		byDay[fmtDay(t)] = append(byDay[fmtDay(t)], fmtISO(t))
	}
	for day, hours := range byDay {
		var sch gateway.Schedule
		err := getRow(ctx, q, &sch, `SELECT data FROM schedules WHERE kind = ? AND facility = ? AND day = ?`, kind, r.FacilityID, day)
		if errors.Is(err, errNotFound) {
			continue
		}
		if err != nil {
			return err
		}
		for i := range sch.Details {
			for _, h := range hours {
				if sch.Details[i].Hour == h {
					sch.Details[i].Status = status
				}
			}
		}
		if _, err := q.ExecContext(ctx, `UPDATE schedules SET data = ? WHERE kind = ? AND facility = ? AND day = ?`,
			mustJSON(sch), kind, r.FacilityID, day); err != nil {
			return err
		}
	}
	return nil
}

func rentAnswer(kind string, a gateway.Answer, list []rent) any {
	if kind == roomKind {
		out := gateway.RoomOrdersAnswer{Answer: a, Timetable: []gateway.RoomOrder{}}
		for _, r := range list {
			out.Timetable = append(out.Timetable, r.room())
		}
		return out
	}
	out := gateway.PavilionOrdersAnswer{Answer: a, Timetable: []gateway.PavilionOrder{}}
	for _, r := range list {
		out.Timetable = append(out.Timetable, r.pavilion())
	}
	return out
}

// rentOrders serves Rent/getPavilionRentTimetableForCurrentClient and
// CelRooms/getCelRoomsTimetableForCurrentClient: the client's live rents
// (canceled and moved-away rents are gone), or one with single=true&rentId=.
func (s *Sandbox) rentOrders(kind string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		client, id := q.Get("clientId"), q.Get("rentId")
		if client == "" {
			writeJSON(w, http.StatusOK, rentAnswer(kind, gateway.Answer{ErrorMessage: msgNoClient}, nil))
			return
		}
		if isTrue(q.Get("single")) || id != "" {
			o, m, err := s.getRent(r.Context(), s.db, kind, id)
			if errors.Is(err, errNotFound) || err == nil && (m.Client != client || m.Canceled) {
				writeJSON(w, http.StatusOK, rentAnswer(kind, gateway.Answer{ErrorMessage: msgNotFound}, nil))
				return
			}
			if err != nil {
				s.internal(w, r, err)
				return
			}
			writeJSON(w, http.StatusOK, rentAnswer(kind, gateway.Answer{Success: true}, []rent{o}))
			return
		}
		list, err := s.listRents(r.Context(), s.db, kind, client)
		if err != nil {
			s.internal(w, r, err)
			return
		}
		var live []rent
		for _, o := range list {
			if !o.Meta.Canceled {
				live = append(live, o.Order)
			}
		}
		writeJSON(w, http.StatusOK, rentAnswer(kind, gateway.Answer{Success: true}, live))
	}
}

func facilityNotFound(kind string) string {
	if kind == roomKind {
		return "Зал не найден"
	}
	return "Беседка не найдена"
}

// rentSchedule serves Rent/getPavilionRentTimetable and
// CelRooms/getCelRoomsTimetable: one day's hours of a facility. Hours of
// today that have begun are busy. Days outside the window answer an empty
// timetable.
func (s *Sandbox) rentSchedule(kind string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		fid := q.Get("pavilionId")
		if kind == roomKind {
			fid = q.Get("celRoomId")
		}
		empty := gateway.ScheduleAnswer{Timetable: []gateway.Schedule{}}
		if _, found := findFacility(kind, fid); !found {
			empty.ErrorMessage = facilityNotFound(kind)
			writeJSON(w, http.StatusOK, empty)
			return
		}
		day, okDay := s.parseAny(q.Get("date"))
		if !okDay {
			empty.ErrorMessage = "Некорректная дата"
			writeJSON(w, http.StatusOK, empty)
			return
		}
		var sch gateway.Schedule
		err := getRow(r.Context(), s.db, &sch, `SELECT data FROM schedules WHERE kind = ? AND facility = ? AND day = ?`, kind, fid, fmtDay(day))
		if errors.Is(err, errNotFound) {
			empty.Success = true
			writeJSON(w, http.StatusOK, empty)
			return
		}
		if err != nil {
			s.internal(w, r, err)
			return
		}
		now := s.nowLocal()
		for i, h := range sch.Details {
			if t, ok := s.parseAny(h.Hour); ok && !t.After(now) {
				sch.Details[i].Status = 1
			}
		}
		writeJSON(w, http.StatusOK, gateway.ScheduleAnswer{Answer: gateway.Answer{Success: true}, Timetable: []gateway.Schedule{sch}})
	}
}

// rentItem reads the rent a refund names in the provider's shape of kind.
func rentItem[O any](raw json.RawMessage, from func(O) rent) (rent, error) {
	var o O
	if err := json.Unmarshal(raw, &o); err != nil {
		return rent{}, err
	}
	return from(o), nil
}

// rentCancel serves Rent/cancelPavilionRent and CelRooms/cancelCelRoomRent.
func (s *Sandbox) rentCancel(kind string) http.HandlerFunc {
	return posted(func(w http.ResponseWriter, r *http.Request, in gateway.CancelRentRequest) {
		err := s.inTx(r.Context(), func(tx *sql.Tx) error {
			o, m, err := s.getRent(r.Context(), tx, kind, in.RentID)
			if errors.Is(err, errNotFound) || err == nil && (m.Client != in.ClientID || m.Canceled) {
				return refusal(msgNotFound)
			}
			if err != nil {
				return err
			}
			if !o.CanCancel {
				return refusal("Отмена этой аренды недоступна")
			}
			o.CanCancel, o.CanTransfer = false, false
			m.Canceled = true
			if err := s.putRentMeta(r.Context(), tx, kind, m, o); err != nil {
				return err
			}
			return s.markHours(r.Context(), tx, kind, o, 0)
		})
		s.answerTx(w, r, err, gateway.Answer{Success: true, Message: "Аренда отменена"})
	})
}

// rentRefund serves Rent/registerRefund and CelRooms/registerRefund: the
// request is stored, the rent is canceled and its hours freed.
func (s *Sandbox) rentRefund(kind string) http.HandlerFunc {
	path := "Rent/registerRefund"
	if kind == roomKind {
		path = "CelRooms/registerRefund"
	}
	return func(w http.ResponseWriter, r *http.Request) {
		var in struct {
			Documents  []gateway.File     `json:"documents"`
			RentItem   json.RawMessage    `json:"rentItem"`
			FormRefund gateway.RefundForm `json:"formRefund"`
		}
		if !decode(w, r, &in) {
			return
		}
		var item rent
		if len(in.RentItem) > 0 {
			var err error
			if kind == roomKind {
				item, err = rentItem(in.RentItem, fromRoom)
			} else {
				item, err = rentItem(in.RentItem, fromPavilion)
			}
			if err != nil {
				badRequest(w, "Некорректный запрос")
				return
			}
		}
		rentID := item.id()
		if rentID == "" {
			rentID = in.FormRefund.OrderID
		}
		docs, ok := refundDocs(w, in.Documents)
		if !ok {
			return
		}
		err := s.inTx(r.Context(), func(tx *sql.Tx) error {
			o, m, err := s.getRent(r.Context(), tx, kind, rentID)
			if errors.Is(err, errNotFound) {
				return refusal(msgNotFound)
			}
			if err != nil {
				return err
			}
			if err := s.refundable(m, m.Canceled, o.CanCancel, o.HourBeg, &in.FormRefund, docs); err != nil {
				return err
			}
			body := map[string]any{"documents": stripFiles(in.Documents), "rentItem": in.RentItem, "formRefund": in.FormRefund}
			if err := s.storeRefund(r.Context(), tx, path, rentID, &in.FormRefund, docs, nil, body); err != nil {
				return err
			}
			wasLive := !m.Canceled
			o.CanCancel, o.CanTransfer = false, false
			m.Canceled, m.Refunded = true, true
			if err := s.putRentMeta(r.Context(), tx, kind, m, o); err != nil {
				return err
			}
			if wasLive {
				return s.markHours(r.Context(), tx, kind, o, 0)
			}
			return nil
		})
		s.answerTx(w, r, err, gateway.Answer{Success: true, Message: msgRefundOK})
	}
}

// rentChange serves Rent/changePavilionRentPeriod and
// CelRooms/changeCelRoomRentPeriod: the rent moves to new hours under a new
// rent id; the old rent is gone.
func (s *Sandbox) rentChange(kind string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var client, rentID, fid, begS, endS string
		var amount float64
		if kind == roomKind {
			var in gateway.ChangeRoomRequest
			if !decode(w, r, &in) {
				return
			}
			client, rentID, fid, begS, endS, amount = in.ClientID, in.RentID, in.CelRoomID, in.NewRentDateBeg, in.NewRentDateEnd, in.Amount
		} else {
			var in gateway.ChangePavilionRequest
			if !decode(w, r, &in) {
				return
			}
			client, rentID, fid, begS, endS, amount = in.ClientID, in.RentID, in.PavilionID, in.NewRentDateBeg, in.NewRentDateEnd, in.Amount
		}
		var msg, newID string
		err := s.inTx(r.Context(), func(tx *sql.Tx) error {
			ctx := r.Context()
			o, m, err := s.getRent(ctx, tx, kind, rentID)
			if errors.Is(err, errNotFound) || err == nil && (m.Client != client || m.Canceled) {
				msg = msgNotFound
				return nil
			}
			if err != nil {
				return err
			}
			if !o.CanTransfer {
				msg = "Перенос этой аренды недоступен"
				return nil
			}
			if fid == "" {
				fid = o.FacilityID
			}
			fac, found := findFacility(kind, fid)
			if !found {
				msg = facilityNotFound(kind)
				return nil
			}
			beg, ok1 := s.parseAny(begS)
			end, ok2 := s.parseAny(endS)
			if !ok1 || !ok2 || !end.After(beg) || beg.Minute() != 0 || beg.Second() != 0 || end.Sub(beg)%time.Hour != 0 {
				msg = "Некорректный период аренды"
				return nil
			}
			day := dayOf(beg)
			if beg.Hour() < firstHour || end.After(at(day, closeHour, 0)) {
				msg = fmt.Sprintf("Аренда возможна с %02d:00 до %02d:00", firstHour, closeHour)
				return nil
			}
			if !beg.After(s.nowLocal()) || !day.Before(addDays(s.today(), Window)) {
				msg = "Выбранная дата недоступна для переноса"
				return nil
			}
			hours := int(end.Sub(beg) / time.Hour)
			if float64(hours)*fac.Cost != amount || amount != o.Amount {
				msg = fmt.Sprintf("Такой период невозможен, необходимо выбрать от и до, вам доступно: %g ч.", o.Amount/fac.Cost)
				return nil
			}
			var sch gateway.Schedule
			err = getRow(ctx, tx, &sch, `SELECT data FROM schedules WHERE kind = ? AND facility = ? AND day = ?`, kind, fac.ID, fmtDay(day))
			if errors.Is(err, errNotFound) {
				msg = "Выбранная дата недоступна для переноса"
				return nil
			}
			if err != nil {
				return err
			}
			own := map[string]bool{}
			if fac.ID == o.FacilityID {
				for _, d := range o.Details {
					if t, ok := s.parseAny(d.Hour); ok {
						own[fmtISO(t)] = true
					}
				}
			}
			busy := map[string]bool{}
			for _, h := range sch.Details {
				if h.Status != 0 {
					busy[h.Hour] = true
				}
			}
			for t := beg; t.Before(end); t = t.Add(time.Hour) {
				if busy[fmtISO(t)] && !own[fmtISO(t)] {
					msg = "Невозможно выбрать период с неактивными часами."
					return nil
				}
			}
			if err := s.markHours(ctx, tx, kind, o, 0); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `DELETE FROM orders WHERE kind = ? AND id = ?`, kind, rentID); err != nil {
				return err
			}
			if newID, err = nextID(ctx, tx); err != nil {
				return err
			}
			n := makeRent(fac, client, newID, beg, hours, fmtDT(s.nowLocal()))
			n.CanTransfer, n.CanCancel = o.CanTransfer, o.CanCancel
			if err := s.putRent(ctx, tx, kind, n, false); err != nil {
				return err
			}
			return s.markHours(ctx, tx, kind, n, 1)
		})
		switch {
		case err != nil:
			s.internal(w, r, err)
		case msg != "":
			writeJSON(w, http.StatusOK, gateway.ChangeRentAnswer{Answer: gateway.Answer{ErrorMessage: msg}})
		default:
			writeJSON(w, http.StatusOK, gateway.ChangeRentAnswer{Answer: gateway.Answer{Success: true, Message: "Перенос выполнен успешно"}, NewRentID: newID})
		}
	}
}
