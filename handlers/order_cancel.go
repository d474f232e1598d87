package handlers

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v5"

	"lk/handlers/web"
	"lk/store"
	"lk/views"
)

// orderCancelForm is GET …/cancel: what will be cancelled, the amount and
// what happens to the money; the customer confirms with a POST.
func (s *Server) orderCancelForm(c *echo.Context, o order) error {
	return s.cancelPage(c, http.StatusOK, o, "")
}

func (s *Server) cancelPage(c *echo.Context, status int, o order, msg string) error {
	a := views.ActionView{
		Order: o.card, Heading: actCancel.label(o.kind), Lead: msgCancelQuestion,
		URL: o.url(string(actCancel)), Token: s.newToken(c, o, actCancel),
		Submit: actCancel.label(o.kind), Danger: true, Error: msg,
	}
	if o.paid {
		a.Notes = []string{"К возврату: " + views.Money(o.amount) + ". " + msgMoneyBack}
	} else {
		a.Notes = []string{msgCancelUnpaidFee}
	}
	if n := versusNote(o, actCancel); n != "" {
		a.Notes = append(a.Notes, n)
	}
	p := s.page(c, a.Heading, "Отмена заказа в личном кабинете курорта.")
	p.Nav, p.Invalid = views.NavOrders, msg != ""
	return s.render(c, status, views.ActionPage(p, a))
}

// orderCancel is POST …/cancel: the kind's provider calls, once per token.
// Every cancel, as every refund, lands on the list of orders with its
// notice, whatever the kind: a cancelled lesson or rent is no longer there
// to show, a cancelled stay or ticket is, marked 'Отменен'.
func (s *Server) orderCancel(c *echo.Context) error {
	return s.act(c, actCancel, cancelForm{formBase{s, c}})
}

type cancelForm struct{ formBase }

func (f cancelForm) call(ctx context.Context, o order) store.Outcome {
	msg, err := o.kind.(canceler).cancel(ctx, f.s, web.SessionOf(f.c), o)
	if err != nil {
		return f.s.actionFailed(ctx, o, actCancel, err, msgCancelFailed, web.MsgRequestFailed)
	}
	return store.Outcome{Status: http.StatusSeeOther, Location: views.PathOrders, Message: msg}
}

func (f cancelForm) again(o order, status int, msg string) error {
	return f.s.cancelPage(f.c, status, o, msg)
}
