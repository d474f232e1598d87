package handlers

import (
	"cmp"
	"context"
	"net/http"

	"github.com/labstack/echo/v5"

	"lk/gateway"
	"lk/store"
	"lk/views"
)

// orderRefundForm is GET …/refund: the amount, the contact prefilled from
// the profile (asked for while the order is fetched), the tickets of a
// water-park order, and the reason and documents when the start date has
// come.
func (s *Server) orderRefundForm(c *echo.Context) error {
	profile := s.profileLater(c)
	o, err := s.guard(c, actRefund)
	if err != nil {
		return err
	}
	return s.refundPage(c, http.StatusOK, o, s.newRefundInput(o, profile(), session(c)), nil, "")
}

// orderRefund is POST …/refund (multipart/form-data). The body is read
// first, within the upload limits, because the guard reads the token from
// it. A file's 'Удалить' shows the form again without that file; otherwise
// the rules are checked on the server (422 with every answer kept, no
// provider call), then the kind's call is made once per token. When a rule
// or the provider refuses, the documents sent are kept for an hour, so the
// next POST sends them without choosing them again.
func (s *Server) orderRefund(c *echo.Context) error {
	in, err := readRefundInput(c)
	if err != nil {
		return err
	}
	o, err := s.guard(c, actRefund)
	if err != nil {
		return err
	}
	in.mode = s.refundMode(o)
	ctx, key := c.Request().Context(), refundFilesKey(session(c), o)
	kept, err := s.files.List(ctx, key)
	if err != nil {
		return err
	}
	in.dropKept(kept)
	if in.remove != "" {
		if _, ok := s.readToken(c, o, actRefund); !ok {
			return s.refundPage(c, http.StatusConflict, o, in, nil, msgStaleForm)
		}
		errs := s.keepRefundFiles(ctx, key, &in)
		if err := s.files.Remove(ctx, key, in.remove); err != nil {
			return err
		}
		return s.refundPage(c, http.StatusOK, o, in, errs, "")
	}
	// A repeated form is answered with its first outcome, whatever the
	// order looks like now.
	if !s.replayed(c, o, actRefund) {
		if errs := in.check(o, kept); len(errs) > 0 {
			errs = append(errs, s.keepRefundFiles(ctx, key, &in)...)
			return s.refundPage(c, http.StatusUnprocessableEntity, o, in, errs, "")
		}
	}
	out, err := s.onlyOnce(c, o, actRefund, func(ctx context.Context) store.Outcome {
		msg, err := o.kind.refund(ctx, s, o, in.request(o, kept))
		if err != nil {
			s.keepRefundFiles(ctx, key, &in)
			return s.failed(o, actRefund, err, msgRefundFailed, msgRefundUnreachable)
		}
		if err := s.files.Clear(ctx, key); err != nil {
			s.log.Warn("refund files not cleared", "err", err)
		}
		return store.Outcome{Status: http.StatusSeeOther, Location: views.PathOrders, Message: cmp.Or(msg, msgRefundDone)}
	})
	if err != nil {
		return err
	}
	return s.finish(c, o, actRefund, out, func(status int, msg string) error {
		return s.refundPage(c, status, o, in, nil, msg)
	})
}

// refundPage shows the refund form of o with the answers of in, the rules
// they break (errs) and why the last attempt failed (msg).
func (s *Server) refundPage(c *echo.Context, status int, o order, in refundInput, errs views.Errors, msg string) error {
	kept, err := s.files.List(c.Request().Context(), refundFilesKey(session(c), o))
	if err != nil {
		return err
	}
	a := views.ActionView{
		Order: o.card, Heading: actRefund.label(o.kind), Lead: msgRefundQuestion,
		Notes: []string{in.amountNote(o), msgRefundDirect},
		URL:   views.OrderPath(string(o.kind.id), o.id, string(actRefund)), Token: s.token(c, o, actRefund),
		Submit: actRefund.label(o.kind), Multipart: true, Error: msg, Errors: errs,
	}
	if in.mode == gateway.RefundModeration {
		a.Notes[1] = msgRefundModeration
	}
	if n := versusNote(o, actRefund); n != "" {
		a.Notes = append(a.Notes, n)
	}
	p := s.page(c, a.Heading, "Возврат по заказу в личном кабинете курорта.")
	p.Nav, p.Invalid = views.NavOrders, len(errs) > 0 || msg != ""
	return render(c, status, views.RefundPage(p, a, in.view(o, kept)))
}

// refundMode is direct before the order's start date, moderation from it on:
// the server's clock, never the form.
func (s *Server) refundMode(o order) gateway.RefundKind {
	return gateway.RefundMode(o.ref.Start, s.now())
}
