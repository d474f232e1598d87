package handlers

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v5"

	"lk/gateway"
	"lk/handlers/web"
	"lk/store"
	"lk/views"
)

func (s *Server) actionParams(c *echo.Context, a action) (kind, string, error) {
	k, id, err := s.orderParams(c)
	if err != nil || !offers(k, a) {
		return nil, "", web.ErrNotFound
	}
	return k, id, nil
}

// withOrder guards an action's page and hands it the order: the session's
// own (404 for anyone else's), allowing the action now (409).
func (s *Server) withOrder(a action, page func(c *echo.Context, o order) error) echo.HandlerFunc {
	return func(c *echo.Context) error {
		k, id, err := s.actionParams(c, a)
		if err != nil {
			return err
		}
		o, err := s.ownOrder(c.Request().Context(), web.SessionOf(c), k, id)
		if err != nil {
			return err
		}
		if !o.can[a] {
			return s.orderError(c, http.StatusConflict, o, s.refusedText(c.Request().Context(), web.SessionOf(c).GUID, o, a, actionTexts[a].never))
		}
		return page(c, o)
	}
}

// act runs an action's POST (see attempt.run).
func (s *Server) act(c *echo.Context, a action, f actionForm) error {
	at, err := s.newAttempt(c, a, f)
	if err != nil {
		return err
	}
	return at.run()
}

// actionAttempt is one POST of an action's form.
type actionAttempt struct {
	s   *Server
	c   *echo.Context
	a   action
	f   actionForm
	ref order
	// seen is the order as read before the attempt (a refund's), or nil.
	seen *order
	key  string
	mine bool   // this POST ran the action
	now  *order // the order as read under the lease
	// reply is this POST's own answer when it did not act.
	reply error
}

func (s *Server) newAttempt(c *echo.Context, a action, f actionForm) (*actionAttempt, error) {
	// An action's rules are checked against the provider now, never a kept answer.
	c.SetRequest(c.Request().WithContext(gateway.Fresh(c.Request().Context())))
	k, id, err := s.actionParams(c, a)
	if err != nil {
		return nil, err
	}
	return &actionAttempt{s: s, c: c, a: a, f: f, ref: order{kind: k, id: id}}, nil
}

// run acts at most once per form token: under the order's lease the order must
// allow the action and pass the form's rules before the token is used up.
func (at *actionAttempt) run() error {
	s, c := at.s, at.c
	t, ok := s.readToken(c, at.ref, at.a)
	if !ok {
		s.countAction(c, at.ref, at.a, "stale")
		return at.stale()
	}
	at.key = onceKey(t)
	out, err := at.claimOnce()
	s.countAction(c, at.ref, at.a, at.outcome(out, err))
	switch {
	case err != nil:
		return err
	case at.reply != nil:
		return quiet(at.reply)
	case !at.mine:
		return at.repeat(out)
	case at.now == nil: // the lease was another form's
		return at.finishFetched(out)
	}
	return s.finish(c, *at.now, at.a, out, at.f)
}

func (at *actionAttempt) claimOnce() (store.Outcome, error) {
	ctx := at.c.Request().Context()
	wait, cancel := context.WithTimeout(ctx, waitFirst)
	defer cancel()
	for {
		out, err := store.Do(wait, at.s.stores.once, at.key, at.s.claimTTL(), keepOutcome, at.work)
		switch {
		case at.mine && err != nil && at.reply == nil:
			at.s.log.Error("action outcome not kept", "action", at.a, "err", err)
		case at.mine || err == nil && out.Status != 0:
		case wait.Err() != nil && ctx.Err() == nil: // the first is still running
			return out, &web.Error{Status: http.StatusConflict, Title: web.MsgServerTitle, Message: msgInProgress}
		case err != nil:
			return out, at.s.storeFailed(at.c, err)
		default: // released without acting: ours to try
			continue
		}
		return out, nil
	}
}

func (at *actionAttempt) work(ctx context.Context) store.Outcome {
	at.mine = true
	return at.s.leased(ctx, at.ref, at.a, at.key, at.leased)
}

func (at *actionAttempt) leased(ctx context.Context) store.Outcome {
	o, err := at.s.ownOrder(ctx, web.SessionOf(at.c), at.ref.kind, at.ref.id)
	switch {
	case err != nil:
		at.reply = err
	case !o.can[at.a]:
		at.reply = at.s.orderError(at.c, http.StatusConflict, o, at.s.refusedText(ctx, web.SessionOf(at.c).GUID, o, at.a, actionTexts[at.a].refused))
	default:
		at.now, at.reply = &o, at.f.check(ctx, o)
	}
	if at.reply != nil {
		return store.Outcome{}
	}
	out := at.f.call(ctx, o)
	at.s.wrote(ctx, web.SessionOf(at.c).GUID) // whatever the outcome: the provider may have acted
	at.s.recordAct(ctx, web.SessionOf(at.c).GUID, o, at.a, out)
	return out
}

// An outcome of nothing done is handed to those waiting and forgotten.
func keepOutcome(out store.Outcome) time.Duration {
	if out.Status == 0 {
		return 0
	}
	return onceTTL
}

// repeat answers a form sent again with its first outcome.
func (at *actionAttempt) repeat(out store.Outcome) error {
	if out.Succeeded() || out.Unknown {
		return at.s.finish(at.c, at.ref, at.a, out, nil)
	}
	return at.finishFetched(out)
}

func (at *actionAttempt) finishFetched(out store.Outcome) error {
	o, err := at.order()
	if err != nil {
		return quiet(err)
	}
	return at.s.finish(at.c, o, at.a, out, at.f)
}

// order is the order as seen before the attempt, or as the provider has it.
func (at *actionAttempt) order() (order, error) {
	if at.seen != nil {
		return *at.seen, nil
	}
	return at.s.ownOrder(at.c.Request().Context(), web.SessionOf(at.c), at.ref.kind, at.ref.id)
}

func quiet(err error) error {
	if errors.Is(err, web.ErrAnswered) {
		return nil
	}
	return err
}

// A form without a valid token (missing, foreign, stale) is checked as usual,
// then comes back with a new token: nothing is done.
func (at *actionAttempt) stale() error {
	s, c, a := at.s, at.c, at.a
	o, err := at.order()
	if err != nil {
		return quiet(err)
	}
	ctx := c.Request().Context()
	if !o.can[a] {
		return s.orderError(c, http.StatusConflict, o, s.refusedText(ctx, web.SessionOf(c).GUID, o, a, actionTexts[a].refused))
	}
	if err := at.f.check(ctx, o); err != nil {
		return quiet(err)
	}
	return s.finish(c, o, a, store.Outcome{Status: http.StatusConflict, Message: msgStaleForm}, at.f)
}

func (s *Server) storeFailed(c *echo.Context, err error) error {
	s.log.ErrorContext(c.Request().Context(), "action token store failed", "path", c.Request().URL.Path, "err", err)
	return web.ErrStoreDown
}

func (s *Server) orderError(c *echo.Context, status int, o order, msg string) error {
	d := s.orderDetail(c, o, msg)
	return &web.Error{Status: status, Message: msg, Page: views.OrderPage(s.orderPage(c, d), d)}
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

// Only the account's own lists, so that the field sends nobody elsewhere.
func backTo(c *echo.Context, fallback string) string {
	switch b := c.FormValue("back"); b {
	case views.PathHome, views.PathOrders:
		return b
	}
	return fallback
}

// One action at a time reaches the provider for an order, across instances: the
// same action gets its outcome, another is told the order is being changed.
func (s *Server) leased(ctx context.Context, o order, a action, key string, do func(context.Context) store.Outcome) store.Outcome {
	busy := store.Outcome{Status: http.StatusConflict, Message: msgOrderBusy}
	lease, me := leaseKey(o), string(a)+" "+key
	taken, cur, err := s.stores.leases.Take(ctx, lease, me, s.leaseTTL())
	if err != nil {
		s.log.ErrorContext(ctx, "order lease failed", "action", a, "err", err)
		return store.Outcome{Status: http.StatusServiceUnavailable, Message: web.ErrStoreDown.Message}
	}
	if !taken {
		act, other, _ := strings.Cut(cur, " ")
		if act != string(a) {
			return busy
		}
		wait, cancel := context.WithTimeout(ctx, s.leaseTTL())
		defer cancel()
		out, err := s.stores.once.Await(wait, other)
		if err != nil || out == nil || out.Status == 0 {
			return busy // the lease ends by itself if its holder is gone
		}
		return *out
	}
	defer func() {
		if err := s.stores.leases.Release(ctx, lease, me); err != nil {
			s.log.WarnContext(ctx, "order lease not released", "err", err)
		}
	}()
	return do(ctx)
}

func leaseKey(o order) string { return "order:" + string(o.kind.info().id) + ":" + o.id }

// leaseMargin is what an action may take beyond its provider call under the lease.
const leaseMargin = 20 * time.Second

// A crashed instance holds an order for well under a minute.
func (s *Server) leaseTTL() time.Duration { return s.callTimeout + leaseMargin }

func (s *Server) claimTTL() time.Duration { return 2 * s.leaseTTL() }

// A success goes on to its page, which shows the message once; a failure shows
// the form again. An island gets JSON to the same end, JavaScript on or off.
func (s *Server) finish(c *echo.Context, o order, a action, out store.Outcome, f actionForm) error {
	if out.Unknown {
		return s.checkOrder(c, o, out)
	}
	if !out.Succeeded() {
		return web.Respond(c, out.Status, web.Answer{Message: out.Message, Token: s.newToken(c, o, a)}, func() error {
			return f.again(o, out.Status, out.Message)
		})
	}
	if out.Message != "" {
		if err := s.sessions.WriteNotice(c.Response(), out.Message); err != nil {
			return err
		}
	}
	return web.Respond(c, http.StatusOK, web.Answer{OK: true, Message: out.Message, Redirect: out.Location}, func() error {
		return web.SeeOther(c, out.Location)
	})
}

// An outcome the provider may have acted on is shown on the order fetched
// afresh, or on the list when it is gone (a move gives a new id).
func (s *Server) checkOrder(c *echo.Context, o order, out store.Outcome) error {
	now, err := orderOf(c.Request().Context(), s, o.kind, web.SessionOf(c).GUID, o.id)
	if err != nil {
		return web.Respond(c, out.Status, web.Answer{Message: out.Message, Redirect: views.PathOrders}, func() error {
			if err := s.sessions.WriteNotice(c.Response(), out.Message); err != nil {
				return err
			}
			return web.SeeOther(c, views.PathOrders)
		})
	}
	return web.Respond(c, out.Status, web.Answer{Message: out.Message, Redirect: now.url()}, func() error {
		return s.orderView(c, out.Status, now, out.Message)
	})
}

// countAction logs and counts an order action's outcome: ok, failed, unknown
// (no answer in time), refused (not called), replay, stale or error (the store).
func (s *Server) countAction(c *echo.Context, ref order, a action, outcome string) {
	kind := string(ref.kind.info().id)
	s.ops.actions.WithLabelValues(kind, string(a), outcome).Inc()
	s.log.InfoContext(c.Request().Context(), "order action", "request_id", web.RequestID(c), "kind", kind, "action", string(a), "order", ref.id, "outcome", outcome)
}

// outcome names what became of one attempt's POST.
func (at *actionAttempt) outcome(out store.Outcome, err error) string {
	switch {
	case err != nil:
		return "error"
	case at.reply != nil:
		return "refused"
	case !at.mine:
		return "replay"
	case out.Unknown:
		return "unknown"
	case out.Succeeded():
		return "ok"
	}
	return "failed"
}
