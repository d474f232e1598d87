package handlers

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/labstack/echo/v5"

	"lk/gateway"
	"lk/handlers/web"
	"lk/store"
	"lk/views"
)

// The profile is asked for only once the order is known to be the customer's.
func (s *Server) orderRefundForm(c *echo.Context, o order) error {
	info, err := s.account.ClientInfo(c.Request().Context(), web.SessionOf(c).Token)
	if err != nil {
		s.log.WarnContext(c.Request().Context(), "refund form without the profile", "err", err)
	} else {
		s.heard(web.SessionOf(c), info)
	}
	in := s.newRefundInput(o, info, web.SessionOf(c))
	var errs views.Errors
	if k := s.keptFor(c); k != nil {
		errs = s.restoreRefund(c.Request().Context(), web.SessionOf(c), o, &in, k)
	}
	return s.refundPage(c, http.StatusOK, o, in, errs, "")
}

// The order must be the session's own and the upload find room (else 503 with
// Retry-After) before a byte of the body is read; a form sent before is known
// by the short id in its URL. Documents are read only when the order allows a
// refund; a refused attempt keeps them for an hour.
func (s *Server) orderRefund(c *echo.Context) error {
	f := &refundForm{formBase: formBase{s, c}}
	defer f.done()
	at, err := s.newAttempt(c, actRefund)
	if err != nil {
		return err
	}
	at.f = f
	out, err := s.sentBefore(c)
	if err != nil {
		return err
	}
	if out == nil || !out.Succeeded() && !out.Unknown {
		o, shown, err := f.prepare(c.Request().Context(), at.target)
		if err != nil {
			return err
		}
		if shown.status != 0 {
			return s.refundPage(c, shown.status, o, shown.in, shown.errs, shown.msg)
		}
		f.order = &o
	}
	if out != nil {
		s.countAction(c, at.target, actRefund, "replay")
		return at.repeat(*out)
	}
	return at.run()
}

type refundForm struct {
	formBase
	order  *order // as read before the attempt, or nil
	in     *refundInput
	errs   views.Errors // the form's, as its check found them
	key    string
	kept   []store.RefundFile
	took   bool  // an upload's room, given back as the answer is written
	weight int64 // how much room
	given  sync.Once
}

func (f *refundForm) seen() *order { return f.order }

// refundShown is the page a refund's reading shows instead (status 0: none).
type refundShown struct {
	status int
	in     refundInput
	errs   views.Errors
	msg    string
}

func (f *refundForm) prepare(ctx context.Context, target order) (order, refundShown, error) {
	s, c := f.s, f.c
	o, err := s.ownOrder(ctx, web.SessionOf(c), target.kind, target.id)
	if err == nil {
		shown, err := f.read(ctx, o)
		return o, shown, err
	}
	// Read past, or a browser still sending its files gets a reset, not the page.
	_, _ = io.Copy(io.Discard, c.Request().Body)
	return order{}, refundShown{}, err
}

func (f *refundForm) read(ctx context.Context, o order) (refundShown, error) {
	s, c := f.s, f.c
	mode := s.refundMode(o)
	f.key = refundFilesKey(web.SessionOf(c), o)
	kept, err := s.stores.files.List(ctx, f.key)
	if err != nil {
		return refundShown{}, err
	}
	// An upload takes room for its body and the kept files it sends.
	f.weight = c.Request().ContentLength
	for _, k := range kept {
		f.weight += int64(k.Size)
	}
	if f.took = f.takeRoom(ctx); f.took {
		// Given back as the answer goes, so that a form the customer sends
		// again at once finds it whatever the handler still does.
		if res, err := echo.UnwrapResponse(c.Response()); err == nil {
			res.Before(f.giveRoom)
		}
	} else {
		in, err := readRefundInput(c, false)
		if err != nil {
			return refundShown{}, err
		}
		in.mode = mode
		c.Response().Header().Set(echo.HeaderRetryAfter, uploadRetry)
		return refundShown{status: http.StatusServiceUnavailable, in: in, msg: msgUploadsBusy}, nil
	}
	// A form that takes no documents has none read, kept or sent.
	in, err := readRefundInput(c, o.can[actRefund] && mode == gateway.RefundModeration)
	if err != nil {
		return refundShown{}, err
	}
	in.mode, f.in, f.kept = mode, &in, kept
	in.dropKept(f.kept)
	if in.remove == "" {
		return refundShown{}, nil
	}
	if _, ok := s.readToken(c, o, actRefund); !ok {
		return refundShown{status: http.StatusConflict, in: in, msg: msgStaleForm}, nil
	}
	errs := s.keepRefundFiles(ctx, web.SessionOf(c), f.key, &in)
	if err := s.stores.files.Remove(ctx, f.key, in.remove); err != nil {
		return refundShown{}, err
	}
	return refundShown{status: http.StatusOK, in: in, errs: errs}, nil
}

// takeRoom takes the upload's room; a repeat in flight waits for its outcome.
func (f *refundForm) takeRoom(ctx context.Context) bool {
	for {
		ok, same := f.s.uploads.take(web.SessionOf(f.c).ID, f.c.QueryParam("form"), f.weight)
		if ok || same == nil {
			return ok
		}
		select {
		case <-same:
		case <-ctx.Done():
			f.s.uploads.refuse(refusedSession)
			return false
		}
	}
}

func (f *refundForm) done() {
	f.giveRoom()
	_, _ = io.Copy(io.Discard, f.c.Request().Body)
}

// giveRoom gives the upload's room back once, at the answer or the handler's end.
func (f *refundForm) giveRoom() {
	f.given.Do(func() {
		if f.took {
			f.s.uploads.release(web.SessionOf(f.c).ID, f.weight)
		}
	})
}

// Another tab may have refunded tickets: the rules are checked on the order now.
func (f *refundForm) check(ctx context.Context, o order) verdict {
	// The same tickets sent again from another tab are no mistake of the form.
	if numbers, rest := o.refunding(f.in.tickets); len(numbers) > 0 {
		f.in.tickets = rest
		f.s.keepRefundFiles(ctx, web.SessionOf(f.c), f.key, f.in)
		return verdict{http.StatusConflict, fmt.Sprintf(msgTicketsRefunding, strings.Join(numbers, ", "))}
	}
	if errs := f.in.check(o, f.kept); len(errs) > 0 {
		f.errs = append(errs, f.s.keepRefundFiles(ctx, web.SessionOf(f.c), f.key, f.in)...)
		return verdict{http.StatusUnprocessableEntity, ""}
	}
	return verdict{}
}

func (f *refundForm) call(ctx context.Context, o order) store.Outcome {
	s := f.s
	// The kept files' bytes are read only now, to be sent.
	kept, err := s.stores.files.Read(ctx, f.key)
	if err != nil {
		s.log.ErrorContext(ctx, "kept refund files not read", "err", err)
		return s.actionFailed(ctx, o, actRefund, err, msgRefundFailed, msgRefundUnreachable)
	}
	msg, err := o.kind.(refunder).refund(ctx, o, f.in.request(o, kept))
	if err != nil {
		s.keepRefundFiles(ctx, web.SessionOf(f.c), f.key, f.in)
		return s.actionFailed(ctx, o, actRefund, err, msgRefundFailed, msgRefundUnreachable)
	}
	if err := s.stores.files.Clear(ctx, f.key); err != nil {
		s.log.WarnContext(ctx, "refund files not cleared", "err", err)
	}
	return store.Outcome{Status: http.StatusSeeOther, Location: views.PathOrders, Message: cmp.Or(msg, msgRefundDone)}
}

func (f *refundForm) again(o order, status int, msg string) error {
	return f.s.refundPage(f.c, status, o, *f.in, f.errs, msg)
}

func (s *Server) refundPage(c *echo.Context, status int, o order, in refundInput, errs views.Errors, msg string) error {
	kept, err := s.stores.files.List(c.Request().Context(), refundFilesKey(web.SessionOf(c), o))
	if err != nil {
		return err
	}
	// The short id rides in the URL, so a repeat is known before its body is read.
	token, form := s.tokenAndForm(c, o, actRefund)
	a := views.ActionView{
		Order: o.card, Heading: actRefund.label(o.kind), Lead: msgRefundQuestion,
		Notes: []string{in.amountNote(o), msgRefundDirect},
		URL:   views.OrderPath(string(o.kind.info().id), o.id, string(actRefund)) + "?form=" + url.QueryEscape(form), Token: token,
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
	if in.mode == gateway.RefundModeration {
		p.Islands = []string{views.FilesEnhance}
	}
	return s.render(c, status, views.RefundPage(p, a, in.view(o, kept)))
}

// sentBefore is the kept first outcome of the form the URL names, or nil, so
// the body and its token decide: an id only finds an outcome, it never acts.
func (s *Server) sentBefore(c *echo.Context) (*store.Outcome, error) {
	form := c.QueryParam("form")
	if form == "" || len(form) > 64 {
		return nil, nil
	}
	ctx, cancel := context.WithTimeout(c.Request().Context(), waitFirst)
	defer cancel()
	out, err := s.stores.once.Await(ctx, onceKey(actionToken{Nonce: form}))
	switch {
	case ctx.Err() != nil && c.Request().Context().Err() == nil: // the first is still running
		return nil, &web.Error{Status: http.StatusConflict, Title: web.MsgServerTitle, Message: msgInProgress}
	case err != nil:
		return nil, s.storeFailed(c, err)
	case out != nil && out.Status == 0:
		return nil, nil
	}
	return out, nil
}
