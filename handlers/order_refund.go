package handlers

import (
	"cmp"
	"context"
	"io"
	"net/http"
	"net/url"

	"github.com/labstack/echo/v5"

	"lk/gateway"
	"lk/store"
	"lk/views"
)

// orderRefundForm is GET …/refund: the amount, the contact prefilled from
// the profile, the tickets of a water-park order, and the reason and
// documents when the start date has come. The profile is asked for only
// once the order is known to be the customer's.
func (s *Server) orderRefundForm(c *echo.Context, o order) error {
	info, err := s.account.ClientInfo(c.Request().Context(), session(c).Token)
	if err != nil {
		s.log.Warn("refund form without the profile", "err", err)
	}
	return s.refundPage(c, http.StatusOK, o, s.newRefundInput(o, info, session(c)), nil, "")
}

// orderRefund is POST …/refund (multipart/form-data). Before a byte of the
// body is read, the kind must offer refunds, the order must be the
// session's own (404 and no provider call otherwise), and the upload must
// find room: one at a time per session and a bounded number of bytes in the
// process; without room the customer gets 503 with Retry-After and the
// form again with what was typed (the files are read past, not kept). The
// documents are read only when the order allows a refund now; otherwise the
// body is read past for the token, so that a repeated form still gets its
// first outcome. A file's 'Удалить' shows the form again without that
// file; otherwise the rules are checked on the server (422 with every
// answer kept, no provider call), then the kind's call is made once per
// token. When a rule or the provider refuses, the documents sent are kept
// for an hour, so the next POST sends them without choosing them again.
func (s *Server) orderRefund(c *echo.Context) error {
	defer s.releaseForm(c)
	o, err := s.reach(c, actRefund)
	if err != nil {
		// Decided before the body was read, so nothing of it is kept; it
		// is read past (within the route's size and time limits) because a
		// browser still sending its files would otherwise get the
		// connection reset instead of the page that says why.
		_, _ = io.Copy(io.Discard, c.Request().Body)
		return err
	}
	release, ok := s.uploads.take(session(c).ID, c.Request().ContentLength)
	if !ok {
		in, err := readRefundInput(c, false)
		if err != nil {
			return err
		}
		in.mode = s.refundMode(o)
		c.Response().Header().Set(echo.HeaderRetryAfter, uploadRetry)
		return s.refundPage(c, http.StatusServiceUnavailable, o, in, nil, msgUploadsBusy)
	}
	defer release()
	in, err := readRefundInput(c, o.can[actRefund])
	if err != nil {
		return err
	}
	// A form without its token in the URL (shown before it was put there)
	// is claimed now that the body is read.
	if err := s.claimForm(c, o, actRefund); err != nil {
		return err
	}
	if !o.can[actRefund] && !s.replaying(c) {
		return s.orderError(c, http.StatusConflict, o, actionTexts[actRefund].refused)
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
	if !s.replaying(c) {
		if errs := in.check(o, kept); len(errs) > 0 {
			errs = append(errs, s.keepRefundFiles(ctx, key, &in)...)
			return s.refundPage(c, http.StatusUnprocessableEntity, o, in, errs, "")
		}
	}
	out, err := s.onlyOnce(c, o, actRefund, func(ctx context.Context, now order) store.Outcome {
		// Another tab may have refunded tickets since the answers were
		// checked: they are checked again against the order as it is.
		if errs := in.check(now, kept); len(errs) > 0 {
			s.keepRefundFiles(ctx, key, &in)
			return store.Outcome{Status: http.StatusUnprocessableEntity, Message: firstError(errs)}
		}
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
	// The token rides in the form's URL too, so that a repeated upload is
	// known before its body is read.
	token := s.token(c, o, actRefund)
	a := views.ActionView{
		Order: o.card, Heading: actRefund.label(o.kind), Lead: msgRefundQuestion,
		Notes: []string{in.amountNote(o), msgRefundDirect},
		URL:   views.OrderPath(string(o.kind.id), o.id, string(actRefund)) + "?token=" + url.QueryEscape(token), Token: token,
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
