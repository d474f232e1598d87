package handlers

import (
	"context"
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

func (s *Server) runAction(c *echo.Context, a action, f actionForm) error {
	at, err := s.newAttempt(c, a)
	if err != nil {
		return err
	}
	at.f = f
	return at.run()
}

type actionAttempt struct {
	s *Server
	c *echo.Context
	a action
	f actionForm
	// target is the order the URL names: its kind and id, parsed once.
	target order
	key    string
	mine   bool   // this POST ran the action
	now    *order // the order as read under the lease
	// reply or verdict: this POST's own answer when it did not act.
	reply   error
	verdict verdict
}

func (s *Server) newAttempt(c *echo.Context, a action) (*actionAttempt, error) {
	// An action's rules are checked against the provider now, never a kept answer.
	c.SetRequest(c.Request().WithContext(gateway.Fresh(c.Request().Context())))
	k, id, err := s.actionParams(c, a)
	if err != nil {
		return nil, err
	}
	return &actionAttempt{s: s, c: c, a: a, target: order{kind: k, id: id}}, nil
}

// run acts at most once per form token: under the order's lease the order must
// allow the action and pass the form's rules before the token is used up.
func (at *actionAttempt) run() error {
	s, c := at.s, at.c
	t, ok := s.readToken(c, at.target, at.a)
	if !ok {
		s.countAction(c, at.target, at.a, "stale")
		return at.stale()
	}
	at.key = onceKey(t)
	out, err := at.claimOnce()
	s.countAction(c, at.target, at.a, at.outcome(out, err))
	switch {
	case err != nil:
		return err
	case at.reply != nil:
		return at.reply
	case !at.verdict.passed():
		return at.f.again(*at.now, at.verdict.status, at.verdict.msg)
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
		case at.mine && err != nil && !at.refused():
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
	return at.s.leased(ctx, at.target, at.a, at.key, at.leased)
}

func (at *actionAttempt) leased(ctx context.Context) store.Outcome {
	o, err := at.s.ownOrder(ctx, web.SessionOf(at.c), at.target.kind, at.target.id)
	switch {
	case err != nil:
		at.reply = err
	case !o.can[at.a]:
		at.reply = at.s.orderError(at.c, http.StatusConflict, o, at.s.refusedText(ctx, web.SessionOf(at.c).GUID, o, at.a, actionTexts[at.a].refused))
	default:
		at.now, at.verdict = &o, at.f.check(ctx, o)
	}
	if at.refused() {
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

func (at *actionAttempt) repeat(out store.Outcome) error {
	if out.Succeeded() || out.Unknown {
		return at.s.finish(at.c, at.target, at.a, out, nil)
	}
	return at.finishFetched(out)
}

func (at *actionAttempt) finishFetched(out store.Outcome) error {
	o, err := at.order()
	if err != nil {
		return err
	}
	return at.s.finish(at.c, o, at.a, out, at.f)
}

// seer is a form that read the order before the attempt (a refund's).
type seer interface {
	seen() *order
}

func (at *actionAttempt) order() (order, error) {
	if f, ok := at.f.(seer); ok && f.seen() != nil {
		return *f.seen(), nil
	}
	return at.s.ownOrder(at.c.Request().Context(), web.SessionOf(at.c), at.target.kind, at.target.id)
}

// refused tells an attempt that did not act: its order or its form said no.
func (at *actionAttempt) refused() bool { return at.reply != nil || !at.verdict.passed() }

// A form without a valid token (missing, foreign, stale) is checked as usual,
// then comes back with a new token: nothing is done.
func (at *actionAttempt) stale() error {
	s, c, a := at.s, at.c, at.a
	o, err := at.order()
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	if !o.can[a] {
		return s.orderError(c, http.StatusConflict, o, s.refusedText(ctx, web.SessionOf(c).GUID, o, a, actionTexts[a].refused))
	}
	if v := at.f.check(ctx, o); !v.passed() {
		return at.f.again(o, v.status, v.msg)
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
		held, other, _ := strings.Cut(cur, " ")
		if held != string(a) {
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
	now, err := orderOf(c.Request().Context(), o.kind, web.SessionOf(c).GUID, o.id)
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

// countAction logs and counts an action's outcome (see outcome; stale: no valid token).
func (s *Server) countAction(c *echo.Context, target order, a action, outcome string) {
	kind := string(target.kind.info().id)
	s.ops.actions.WithLabelValues(kind, string(a), outcome).Inc()
	s.log.InfoContext(c.Request().Context(), "order action", "request_id", web.RequestID(c), "kind", kind, "action", string(a), "order", target.id, "outcome", outcome)
}

func (at *actionAttempt) outcome(out store.Outcome, err error) string {
	switch {
	case err != nil:
		return "error"
	case at.refused():
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
