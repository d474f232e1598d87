package sandbox

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"

	"lk/gateway"
)

// refusal is a business refusal raised inside a transaction: the
// transaction rolls back and the caller answers success:false with it.
type refusal string

func (r refusal) Error() string { return string(r) }

// answerTx answers the outcome of a transaction: a refusal, an internal
// error, or success.
func (s *Sandbox) answerTx(w http.ResponseWriter, r *http.Request, err error, success any) {
	var ref refusal
	switch {
	case errors.As(err, &ref):
		fail(w, string(ref))
	case err != nil:
		s.internal(w, r, err)
	default:
		writeJSON(w, http.StatusOK, success)
	}
}

func isVIPTicket(t gateway.Ticket) bool { return strings.HasPrefix(t.Title, "VIP") }

func activeTickets(o gateway.AquaOrder) int {
	n := 0
	for _, t := range o.Tickets {
		if t.Status != gateway.TicketRefunded {
			n++
		}
	}
	return n
}

// recountAqua sets the order's totals from its tickets: amount is what is
// not refunded, paymentAmount what still waits for payment.
func recountAqua(o *gateway.AquaOrder) {
	o.Amount, o.PaymentAmount = 0, 0
	for _, t := range o.Tickets {
		switch t.Status {
		case gateway.TicketRefunded:
		case gateway.TicketWaiting:
			o.Amount += t.Price
			o.PaymentAmount += t.Price
		default:
			o.Amount += t.Price
		}
	}
}

// takeSession takes n places of a water-park session (n < 0 gives them back).
func (s *Sandbox) takeSession(ctx context.Context, q querier, id string, n int) error {
	var a gateway.AquaSession
	err := getRow(ctx, q, &a, `SELECT data FROM aqua_sessions WHERE id = ?`, id)
	if errors.Is(err, errNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	a.AvailableCount = max(0, a.AvailableCount-n)
	_, err = q.ExecContext(ctx, `UPDATE aqua_sessions SET data = ? WHERE id = ?`, mustJSON(a), id)
	return err
}

// handleAquaOrders serves aqua/getAquaOrders: activeOrders (not canceled,
// visit day today or later, soonest first) and historyOrders (the rest,
// latest first), or currentOrder with single=true&orderId=.
func (s *Sandbox) handleAquaOrders(w http.ResponseWriter, r *http.Request) {
	splitOrders[gateway.AquaOrder](s, w, r, kindAqua, func(m orderMeta) string { return m.Start })
}

// pdfOrder reads the order of kind a PDF is asked for (query orderId); false
// when it has answered instead: not found, canceled or an internal error.
func pdfOrder[O any](s *Sandbox, w http.ResponseWriter, r *http.Request, kind string, canceled func(O) bool) (O, bool) {
	var o O
	_, err := getOrder(r.Context(), s.db, kind, r.URL.Query().Get("orderId"), &o)
	if errors.Is(err, errNotFound) {
		writeJSON(w, http.StatusNotFound, gateway.Answer{ErrorMessage: msgNotFound})
		return o, false
	}
	if err != nil {
		s.internal(w, r, err)
		return o, false
	}
	if canceled(o) {
		writeJSON(w, http.StatusConflict, gateway.Answer{ErrorMessage: "Заказ отменен"})
		return o, false
	}
	return o, true
}

// splitOrders serves a call that lists a customer's orders of kind split
// into activeOrders (not canceled, the day last reads off the order today or
// later, soonest first) and historyOrders (the rest, latest first), or
// answers currentOrder with single=true&orderId=.
func splitOrders[O any](s *Sandbox, w http.ResponseWriter, r *http.Request, kind string, last func(orderMeta) string) {
	q := r.URL.Query()
	client, id := q.Get("userId"), q.Get("orderId")
	if client == "" {
		writeJSON(w, http.StatusOK, gateway.SplitOrders[O]{Answer: gateway.Answer{ErrorMessage: msgNoClient}})
		return
	}
	if isTrue(q.Get("single")) || id != "" {
		var o O
		m, err := getOrder(r.Context(), s.db, kind, id, &o)
		if errors.Is(err, errNotFound) || err == nil && m.Client != client {
			writeJSON(w, http.StatusOK, gateway.SplitOrders[O]{Answer: gateway.Answer{ErrorMessage: msgNotFound}})
			return
		}
		if err != nil {
			s.internal(w, r, err)
			return
		}
		writeJSON(w, http.StatusOK, gateway.SplitOrders[O]{Answer: gateway.Answer{Success: true}, CurrentOrder: &o})
		return
	}
	list, err := listOrders[O](r.Context(), s.db, kind, client)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	today := fmtDay(s.today())
	ans := gateway.SplitOrders[O]{Answer: gateway.Answer{Success: true}, ActiveOrders: []O{}, HistoryOrders: []O{}}
	for _, o := range list {
		if !o.Meta.Canceled && last(o.Meta) >= today {
			ans.ActiveOrders = append(ans.ActiveOrders, o.Order)
		} else {
			ans.HistoryOrders = append([]O{o.Order}, ans.HistoryOrders...)
		}
	}
	writeJSON(w, http.StatusOK, ans)
}

// handleAquaSessions serves aqua/getSessionsAqua: the sessions of a day.
func (s *Sandbox) handleAquaSessions(w http.ResponseWriter, r *http.Request) {
	day, okDay := s.parseAny(r.URL.Query().Get("date"))
	if !okDay {
		writeJSON(w, http.StatusOK, gateway.AquaSessionsAnswer{Answer: gateway.Answer{ErrorMessage: "Некорректная дата"}, Result: []gateway.AquaSession{}})
		return
	}
	list, err := getRows[gateway.AquaSession](r.Context(), s.db, `SELECT data FROM aqua_sessions WHERE day = ? ORDER BY id`, fmtDay(day))
	if err != nil {
		s.internal(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, gateway.AquaSessionsAnswer{Answer: gateway.Answer{Success: true}, Result: list})
}

func aquaKindByName(name string) (aquaKind, bool) {
	for _, k := range aquaKinds {
		if k.Name == name {
			return k, true
		}
	}
	return aquaKind{}, false
}

// handleTransferTicket serves aqua/transferTicket: the order's tickets move
// to a session of another date (today .. today+30), VIP tickets only to VIP
// sessions and regular to regular, weekday tickets only to weekdays and
// weekend tickets only to weekends, if the session has places for them all.
func (s *Sandbox) handleTransferTicket(w http.ResponseWriter, r *http.Request, in gateway.TransferTicketRequest) {
	err := orderTx(s, r.Context(), kindAqua, in.OrderID, func(ctx context.Context, tx *sql.Tx, m orderMeta, o gateway.AquaOrder) error {
		if o.Canceled || !o.CanTransfer {
			return refusal("Перенос билетов по этому заказу недоступен")
		}
		day, okDay := s.parseAny(in.Date)
		if !okDay {
			return refusal("Некорректная дата")
		}
		day = dayOf(day)
		today := s.today()
		if day.Before(today) || day.After(addDays(today, 30)) {
			return refusal("Перенос возможен на даты с сегодняшнего дня на 30 дней вперёд")
		}
		var sess gateway.AquaSession
		err := getRow(ctx, tx, &sess, `SELECT data FROM aqua_sessions WHERE id = ? AND day = ?`, in.SessionID, fmtDay(day))
		if errors.Is(err, errNotFound) {
			return refusal("Сеанс не найден")
		}
		if err != nil {
			return err
		}
		k, _ := aquaKindByName(sess.Name)
		n := activeTickets(o)
		vip := false
		for _, t := range o.Tickets {
			if t.Status != gateway.TicketRefunded && isVIPTicket(t) {
				vip = true
			}
		}
		old := s.parseDT(o.DateBeg)
		switch {
		case n == 0:
			return refusal("В заказе нет билетов для переноса")
		case vip && !k.VIP:
			return refusal("VIP-билеты можно перенести только на VIP-сеанс")
		case !vip && k.VIP:
			return refusal("Обычные билеты нельзя перенести на VIP-сеанс")
		case gateway.IsWeekend(old) && !gateway.IsWeekend(day):
			return refusal("Билет выходного дня можно перенести только на выходной день")
		case !gateway.IsWeekend(old) && gateway.IsWeekend(day):
			return refusal("Билет буднего дня можно перенести только на будний день")
		case day.Equal(today) && s.nowLocal().Hour() >= k.End:
			return refusal("Этот сеанс уже закончился")
		case in.SessionID == m.Ref:
			return refusal("Билеты уже оформлены на этот сеанс")
		case sess.AvailableCount < n:
			return refusal("Недостаточно свободных мест на выбранный сеанс")
		}
		if err := s.takeSession(ctx, tx, m.Ref, -n); err != nil {
			return err
		}
		if err := s.takeSession(ctx, tx, in.SessionID, n); err != nil {
			return err
		}
		start := at(day, k.Begin, 0)
		o.DateBeg = fmtDT(start)
		for i := range o.Tickets {
			o.Tickets[i].Session = sessionLabel(k)
			o.Tickets[i].EventDate = fmtDT(start)
		}
		m.Start, m.End, m.Ref = fmtISO(start), fmtISO(at(day, k.End, 0)), in.SessionID
		return putOrder(ctx, tx, m, o)
	})
	s.answerTx(w, r, err, gateway.Answer{Success: true, Message: "Вы успешно перенесли билеты на другую дату"})
}

// handleAquaRefund serves aqua/registerRefund1C: the listed paid tickets
// become refunded and the order's amounts shrink; when no ticket is left the
// order is canceled. On or after the visit day a reason (formRefund.comment)
// and documents are required.
func (s *Sandbox) handleAquaRefund(w http.ResponseWriter, r *http.Request, in gateway.AquaRefundRequest) {
	docs, ok := refundDocs(w, in.Documents)
	if !ok {
		return
	}
	err := orderTx(s, r.Context(), kindAqua, in.ReturnOrderID, func(ctx context.Context, tx *sql.Tx, m orderMeta, o gateway.AquaOrder) error {
		if o.Canceled || !o.CanCancel {
			return refusal("Возврат по этому заказу недоступен")
		}
		if len(in.Products) == 0 {
			return refusal("Не выбраны билеты для возврата")
		}
		picked := map[int]bool{}
		for _, p := range in.Products {
			idx := -1
			for i, t := range o.Tickets {
				if p.ProductID != "" && t.ProductUID == p.ProductID || p.Barcode != "" && t.Barcode == p.Barcode {
					idx = i
					break
				}
			}
			if idx < 0 {
				return refusal(fmt.Sprintf("Билет не найден: %s", p.Name))
			}
			if o.Tickets[idx].Status != gateway.TicketPaid {
				return refusal(fmt.Sprintf("Билет %s недоступен для возврата", o.Tickets[idx].TicketNumber))
			}
			picked[idx] = true
		}
		if s.needsModeration(s.parseDT(o.DateBeg)) && !hasReason(in.FormRefund, docs) {
			return refusal(msgNeedReason)
		}
		body := in
		body.Documents = stripFiles(in.Documents)
		if err := s.storeRefund(ctx, tx, "aqua/registerRefund1C", o.OrderID, in.FormRefund, docs, in.Products, body); err != nil {
			return err
		}
		for i := range picked {
			o.Tickets[i].Status = gateway.TicketRefunded
		}
		recountAqua(&o)
		if activeTickets(o) == 0 {
			o.Canceled, o.CanTransfer, o.CanCancel = true, false, false
			m.Canceled = true
		}
		m.Refunded = true
		if err := putOrder(ctx, tx, m, o); err != nil {
			return err
		}
		return s.takeSession(ctx, tx, m.Ref, -len(picked))
	})
	s.answerTx(w, r, err, gateway.Answer{Success: true, Message: msgRefundOK})
}

func (s *Sandbox) handleAquaPDF(w http.ResponseWriter, r *http.Request) {
	o, ok := pdfOrder(s, w, r, kindAqua, func(o gateway.AquaOrder) bool { return o.Canceled })
	if !ok {
		return
	}
	for _, t := range o.Tickets {
		if t.Status == gateway.TicketWaiting {
			writeJSON(w, http.StatusConflict, gateway.Answer{ErrorMessage: "Билет будет доступен после оплаты"})
			return
		}
	}
	sort.SliceStable(o.Tickets, func(i, j int) bool { return o.Tickets[i].TicketNumber < o.Tickets[j].TicketNumber })
	pdf, err := TicketPDF(o)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	writePDF(w, "aqua-"+o.OrderID+".pdf", pdf)
}

func writePDF(w http.ResponseWriter, name string, pdf []byte) {
	w.Header().Set("Content-Type", "application/pdf")
	w.Header().Set("Content-Disposition", `inline; filename="`+name+`"`)
	w.Header().Set("Content-Length", fmt.Sprint(len(pdf)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(pdf)
}
