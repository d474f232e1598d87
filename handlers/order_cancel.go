package handlers

import (
	"cmp"
	"context"
	"net/http"
	"strings"

	"github.com/labstack/echo/v5"

	"lk/gateway"
	"lk/store"
	"lk/views"
)

// Texts of a cancellation (SPEC §8, §9).
const (
	msgCancelFailed    = "Не удалось отменить заказ"
	msgLessonCanceled  = "Запись отменена."
	msgRentCanceled    = "Аренда отменена."
	msgHotelCanceled   = "Бронирование отменено."
	msgMoneyBack       = "Деньги на карту вернутся в течение 5-10 дней (максимально возможный срок - 30 дней)."
	msgCancelNoRefund  = "Бронирование отменено, но возврат не оформлен"
	msgCancelQuestion  = "Вы уверены, что хотите отменить заказ?"
	msgCancelUnpaidFee = "Заказ не оплачен, поэтому возвращать нечего."
)

// orderCancelForm is GET …/cancel: what will be cancelled, the amount and
// what happens to the money; the customer confirms with a POST.
func (s *Server) orderCancelForm(c *echo.Context) error {
	o, err := s.guard(c, actCancel)
	if err != nil {
		return err
	}
	return s.cancelPage(c, http.StatusOK, o, "")
}

func (s *Server) cancelPage(c *echo.Context, status int, o order, msg string) error {
	a := views.ActionView{
		Order: o.card, Heading: actCancel.label(o.kind), Lead: msgCancelQuestion,
		URL: views.OrderPath(string(o.kind.id), o.id, string(actCancel)), Token: s.token(c, o, actCancel),
		Submit: actCancel.label(o.kind), Danger: true, Error: msg,
	}
	if o.paid {
		a.Notes = []string{"К возврату: " + views.Money(o.amount) + ". " + msgMoneyBack}
	} else {
		a.Notes = []string{msgCancelUnpaidFee}
	}
	p := s.page(c, a.Heading, "Отмена заказа в личном кабинете курорта.")
	p.Nav, p.Invalid = views.NavOrders, msg != ""
	return render(c, status, views.ActionPage(p, a))
}

// orderCancel is POST …/cancel: the kind's provider calls, once per token.
// Lessons and rents leave the customer's orders when cancelled, so the
// customer lands on the list; other kinds stay, marked 'Отменен'.
func (s *Server) orderCancel(c *echo.Context) error {
	o, err := s.guard(c, actCancel)
	if err != nil {
		return err
	}
	out, err := s.onlyOnce(c, o, actCancel, func(ctx context.Context) store.Outcome {
		msg, err := o.kind.cancel(ctx, s, session(c), o)
		if err != nil {
			return s.failed(o, actCancel, err, msgCancelFailed, msgServer)
		}
		if o.paid && o.kind != hotelKind {
			msg += " " + msgMoneyBack
		}
		next := views.PathOrders
		if o.kind.keepsCanceled {
			next = views.OrderPath(string(o.kind.id), o.id)
		}
		return store.Outcome{Status: http.StatusSeeOther, Location: next, Message: msg}
	})
	if err != nil {
		return err
	}
	return s.finish(c, o, actCancel, out, func(status int, msg string) error {
		return s.cancelPage(c, status, o, msg)
	})
}

// cancelHotel is hotel/cancelOrder and, for a paid stay, hotel/registerRefund
// right after it, so that the customer need not ask for the money apart.
func cancelHotel(ctx context.Context, s *Server, sess *Session, o order) (string, error) {
	h := o.wire.(gateway.HotelOrder)
	if err := s.gw.CancelHotelOrder(ctx, h.OrderID); err != nil {
		return "", err
	}
	if !o.paid {
		return msgHotelCanceled, nil
	}
	info, err := s.gw.ClientInfo(ctx, sess.Token)
	var msg string
	if err == nil {
		msg, err = s.gw.RefundHotel(ctx, gateway.HotelRefundRequest{
			Documents: []gateway.File{}, OrderID: h.OrderID, FormRefund: refundContact(info, sess, h.OrderID),
		})
	}
	if err != nil {
		// The stay is cancelled: say so, and what is missing.
		s.log.Error("hotel cancelled without its refund", "id", h.OrderID, "err", err)
		_, why := explain(err, msgRefundFailed, msgServer)
		// The stay no longer offers a refund (the provider's order has no
		// flag for one still owed): the resort's staff finish it.
		msg := msgCancelNoRefund + ": " + strings.TrimSuffix(why, ".") + "."
		if s.site.SupportPhone != "" {
			msg += " Позвоните в службу поддержки: " + s.site.SupportPhone + "."
		}
		return "", &outcomeError{store.Outcome{Status: http.StatusBadGateway, Message: msg}}
	}
	return msgHotelCanceled + " " + cmp.Or(msg, msgRefundDone), nil
}

// outcomeError is an action's failure whose outcome is already worded.
type outcomeError struct{ out store.Outcome }

func (e *outcomeError) Error() string { return e.out.Message }

// refundContact is the refund form's contact part from the profile.
func refundContact(info gateway.PersonalInfo, sess *Session, orderID string) gateway.RefundForm {
	f := gateway.RefundForm{Email: info.Email, Phone: cmp.Or(info.Tel, sess.Phone), OrderID: orderID}
	f.Surname, f.Name, f.SecondName = splitFIO(info.FIO, sess.Name)
	return f
}
