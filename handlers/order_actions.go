package handlers

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v5"

	"lk/gateway"
	"lk/store"
	"lk/views"
)

// action is what a customer can do with an order; its name is the last part
// of its URL, /orders/{type}/{id}/{action}.
type action string

const (
	actConfirm  action = "confirm"
	actTransfer action = "transfer"
	actCancel   action = "cancel"
	actRefund   action = "refund"
)

// actionTexts are each action's button and why an order does not allow
// it: refused when the customer posts a form, which was shown while the
// order allowed it (so it no longer does), never when the customer only
// opens the action, which the order may never have allowed.
var actionTexts = map[action]struct{ label, refused, never string }{
	actConfirm:  {"Подтвердить запись", "Эту запись уже подтвердили или её нельзя подтвердить.", "Эту запись уже подтвердили или её нельзя подтвердить."},
	actTransfer: {"Перенести", "Этот заказ уже нельзя перенести.", "Этот заказ нельзя перенести."},
	actCancel:   {"Отменить", "Этот заказ уже нельзя отменить.", "Этот заказ нельзя отменить."},
	actRefund:   {"Оформить возврат", "По этому заказу возврат оформить нельзя.", "По этому заказу возврат оформить нельзя."},
}

func (a action) label(k kind) string {
	if l, ok := k.info().labels[a]; ok {
		return l
	}
	return actionTexts[a].label
}

// where says which buttons an order shows: a card in a list offers only what
// is done in place; the order's page offers everything.
type where int

const (
	onCard where = iota
	onPage
)

// actions lists the buttons of o: its document, 'Добавить в календарь' while
// it is ahead, then every action its kind
// offers and the order allows now. An action done in place is a form with a
// one-time token; the others are links to their own pages.
func (s *Server) actions(c *echo.Context, o order, w where) []views.Action {
	var out []views.Action
	kind := string(o.kind.info().id)
	if doc := o.kind.info().document; w == onPage && doc != nil && o.noDoc == "" {
		out = append(out, views.Action{Name: "document", Label: doc.label, URL: views.OrderPath(kind, o.id, doc.file), Download: true})
	}
	if w == onPage {
		if b, ok := s.calendarAction(o); ok {
			out = append(out, b)
		}
	}
	for _, a := range o.kind.info().actions {
		inPlace := a == actConfirm
		if !offers(o.kind, a) || !o.can[a] || w == onCard && !inPlace {
			continue
		}
		b := views.Action{Name: string(a), Label: a.label(o.kind), URL: views.OrderPath(kind, o.id, string(a))}
		if inPlace {
			b.Token = s.token(c, o, a)
			if w == onCard {
				b.Back = c.Request().URL.Path
			}
		} else {
			b.Style = "btn-2"
		}
		out = append(out, b)
	}
	return out
}

// actionParams reads the URL of action a: its kind must offer it (404).
func actionParams(c *echo.Context, a action) (kind, string, error) {
	k, id, err := orderParams(c)
	if err != nil || !offers(k, a) {
		return nil, "", errNotFound
	}
	return k, id, nil
}

// shownOrder is the guard of an action's page: the order fetched with the
// session's own client id (404 for anyone else's), allowing the action now
// (409 with the reason on the order's page).
func (s *Server) shownOrder(c *echo.Context, a action) (order, error) {
	k, id, err := actionParams(c, a)
	if err != nil {
		return order{}, err
	}
	o, err := s.ownOrder(c.Request().Context(), session(c), k, id)
	if err != nil {
		return o, err
	}
	if !o.can[a] {
		return o, s.orderError(c, http.StatusConflict, o, actionTexts[a].never)
	}
	return o, nil
}

// poster is what an action's POST does with the order as it is under the
// lease.
type poster interface {
	// check applies the form's rules; an error is the answer (the form
	// again with 422) and the provider's action is not called.
	check(ctx context.Context, o order) error
	call(ctx context.Context, o order) store.Outcome
	// again is the form again with why the action failed.
	again(o order, status int, msg string) error
}

// act runs action a's POST at most once per form token (store.Do). Under
// the order's lease the order is fetched with the session's own client id
// (404 for anyone else's), must allow a (409), and the form's rules are
// checked on that fresh read before the provider is called; until then
// nothing is used up and the same form may be sent again. A repeated form
// gets the first outcome (repeat). Without a valid token nothing is done
// and the form comes back with a new one. seen is the order already
// fetched (a refund's, before its body was read), or nil.
func (s *Server) act(c *echo.Context, a action, p poster, seen *order) error {
	k, id, err := actionParams(c, a)
	if err != nil {
		return err
	}
	ctx, ref := c.Request().Context(), order{kind: k, id: id}
	t, ok := s.readToken(c, ref, a)
	pr, prepares := p.(preparer)
	if !ok && prepares { // the token may be in the body
		o, err := pr.prepare(ctx)
		if err != nil {
			return quiet(err)
		}
		seen = &o
		t, ok = s.readToken(c, ref, a)
	}
	if !ok {
		return s.actStale(c, a, p, ref, seen)
	}
	key := onceKey(t)
	var (
		mine  bool
		now   *order // as read under the lease
		reply error  // this request's own reply when it did not act
	)
	work := func(ctx context.Context) store.Outcome {
		mine = true
		if prepares && seen == nil {
			o, err := pr.prepare(ctx)
			if seen, reply = &o, err; err != nil {
				return store.Outcome{}
			}
		}
		return s.leased(ctx, ref, a, key, func(ctx context.Context) store.Outcome {
			o, err := s.ownOrder(ctx, session(c), k, id)
			switch {
			case err != nil:
				reply = err
			case !o.can[a]:
				reply = s.orderError(c, http.StatusConflict, o, actionTexts[a].refused)
			default:
				now, reply = &o, p.check(ctx, o)
			}
			if reply != nil {
				return store.Outcome{}
			}
			return p.call(ctx, o)
		})
	}
	wait, cancel := context.WithTimeout(ctx, waitFirst)
	defer cancel()
	for {
		out, err := store.Do(wait, s.once, key, s.claimTTL(), keepOutcome, work)
		switch {
		case mine && err != nil && reply == nil:
			s.log.Error("action outcome not kept", "action", a, "err", err)
		case mine || err == nil && out.Status != 0:
		case wait.Err() != nil && ctx.Err() == nil: // the first is still running
			return &httpError{http.StatusConflict, msgServerTitle, msgInProgress}
		case err != nil:
			return s.storeFailed(c, err)
		default: // released without acting: ours to try
			continue
		}
		switch {
		case reply != nil:
			return quiet(reply)
		case !mine:
			return s.repeat(c, ref, a, out, p, seen)
		case now == nil: // the lease was another form's
			return s.finishFetched(c, ref, a, out, p, seen)
		}
		return s.finish(c, *now, a, out, p)
	}
}

// keepOutcome keeps what an action did for the token's repeats; an
// outcome of nothing done is handed to those waiting and forgotten.
func keepOutcome(out store.Outcome) time.Duration {
	if out.Status == 0 {
		return 0
	}
	return onceTTL
}

// repeat answers a repeated form with the first outcome: a success (or
// what the provider may have done) at once, a failure with the form again
// and a fresh token.
func (s *Server) repeat(c *echo.Context, ref order, a action, out store.Outcome, p poster, seen *order) error {
	if out.Succeeded() || out.Unknown {
		return s.finish(c, ref, a, out, nil)
	}
	return s.finishFetched(c, ref, a, out, p, seen)
}

// finishFetched is finish with the order fetched first, unless seen.
func (s *Server) finishFetched(c *echo.Context, ref order, a action, out store.Outcome, p poster, seen *order) error {
	if seen == nil {
		o, err := s.fetchFor(c, ref, p)
		if err != nil {
			return quiet(err)
		}
		seen = &o
	}
	return s.finish(c, *seen, a, out, p)
}

// fetchFor is the order as p needs it outside the lease: a preparer reads
// its form too.
func (s *Server) fetchFor(c *echo.Context, ref order, p poster) (order, error) {
	if pr, ok := p.(preparer); ok {
		return pr.prepare(c.Request().Context())
	}
	return s.ownOrder(c.Request().Context(), session(c), ref.kind, ref.id)
}

// preparer is an action that reads its form before the order's lease,
// once the order is known to be the customer's: a refund's upload.
type preparer interface {
	prepare(ctx context.Context) (order, error)
}

// quiet is err, but nil for a page written already.
func quiet(err error) error {
	if errors.Is(err, errAnswered) {
		return nil
	}
	return err
}

// actStale is a form without a valid token (missing, foreign, too old):
// its rules are checked as usual, then it comes back with a new token.
func (s *Server) actStale(c *echo.Context, a action, p poster, ref order, seen *order) error {
	ctx := c.Request().Context()
	if seen == nil {
		o, err := s.fetchFor(c, ref, p)
		if err != nil {
			return quiet(err)
		}
		seen = &o
	}
	if !seen.can[a] {
		return s.orderError(c, http.StatusConflict, *seen, actionTexts[a].refused)
	}
	if err := p.check(ctx, *seen); err != nil {
		return quiet(err)
	}
	return s.finish(c, *seen, a, store.Outcome{Status: http.StatusConflict, Message: msgStaleForm}, p)
}

// answered is a page written as a check's answer: errAnswered once it is
// written, so that the action stops there.
func answered(err error) error {
	if err != nil {
		return err
	}
	return errAnswered
}

// storeFailed is the shared store failing: nothing is done, the customer is
// told to try later.
func (s *Server) storeFailed(c *echo.Context, err error) error {
	s.log.Error("action token store failed", "path", c.Request().URL.Path, "err", err)
	return errStoreDown
}

// orderError is the order's page with msg, as an error for the error handler.
func (s *Server) orderError(c *echo.Context, status int, o order, msg string) error {
	d := o.detail
	d.Actions = s.actions(c, o, onPage)
	d.Error = msg
	return &pageError{status: status, message: msg, page: views.OrderPage(s.orderPage(c, d), d)}
}

// ---- once only ----

// actionToken is the one-time token of an action form: sealed with the
// cookie keys, so it is the server's own, and bound to the session, the
// order and the action, so it is good for nothing else.
type actionToken struct {
	Session string       `json:"s"`
	Action  action       `json:"a"`
	Kind    gateway.Kind `json:"k"`
	Order   string       `json:"o"`
	Nonce   string       `json:"n"`
	Issued  int64        `json:"t"` // unix seconds
}

const (
	tokenName = "lk_action"
	tokenTTL  = 24 * time.Hour // a form older than this is shown again
	// onceTTL keeps an outcome longer than any token that could claim it.
	onceTTL = tokenTTL + time.Hour
	// waitFirst bounds how long a repeated POST waits for the first one.
	waitFirst = 30 * time.Second
	// leaseMargin is added to the provider's deadline for an order's lease.
	leaseMargin = 20 * time.Second
)

func (s *Server) token(c *echo.Context, o order, a action) string {
	t := actionToken{Session: session(c).ID, Action: a, Kind: o.kind.info().id, Order: o.id, Nonce: randomID(), Issued: s.now().Unix()}
	v, err := s.sessions.seal(tokenName, t)
	if err != nil {
		s.log.Error("action token", "err", err)
	}
	return v
}

// readToken reads the posted form's token if it is this server's, for this
// session, order and action, and not stale.
func (s *Server) readToken(c *echo.Context, o order, a action) (actionToken, bool) {
	var t actionToken
	ok := s.sessions.open(tokenName, formToken(c), &t) && t.Session == session(c).ID &&
		t.Action == a && t.Kind == o.kind.info().id && t.Order == o.id && s.now().Sub(time.Unix(t.Issued, 0)) <= tokenTTL
	return t, ok
}

func onceKey(t actionToken) string { return "action:" + t.Nonce }

// formToken is the posted token: the one in the form's URL when it has one
// (an upload's form carries it there, so that it is known before the body
// is read), else the form field. An upload's body is read by the refund
// handler only, within its limits, never here.
func formToken(c *echo.Context) string {
	if t := c.QueryParam("token"); t != "" {
		return t
	}
	if r := c.Request(); isUpload(r) && r.PostForm == nil {
		return ""
	}
	return c.FormValue("token")
}

// backTo is where an action done in place returns: the list it was pressed
// on (the page reloads), else fallback. Only the account's own
// lists, so the field cannot send anyone elsewhere.
func backTo(c *echo.Context, fallback string) string {
	switch b := c.FormValue("back"); b {
	case views.PathHome, views.PathOrders:
		return b
	}
	return fallback
}

// leased runs do holding the order's lease, so that one action at a time
// reaches the provider for an order, however many forms, tabs and
// instances there are. A form arriving while the same action runs on the
// order gets that action's outcome; while another action runs, it is told
// the order is being changed.
func (s *Server) leased(ctx context.Context, o order, a action, key string, do func(context.Context) store.Outcome) store.Outcome {
	busy := store.Outcome{Status: http.StatusConflict, Message: msgOrderBusy}
	lease, me := leaseKey(o), string(a)+" "+key
	taken, cur, err := s.leases.Take(ctx, lease, me, s.leaseTTL())
	if err != nil {
		s.log.Error("order lease failed", "action", a, "err", err)
		return store.Outcome{Status: http.StatusServiceUnavailable, Message: msgStoreDown}
	}
	if !taken {
		act, other, _ := strings.Cut(cur, " ")
		if act != string(a) {
			return busy
		}
		wait, cancel := context.WithTimeout(ctx, s.leaseTTL())
		defer cancel()
		out, err := s.once.Await(wait, other)
		if err != nil || out == nil || out.Status == 0 {
			return busy // the lease ends by itself if its holder is gone
		}
		return *out
	}
	defer func() {
		if err := s.leases.Release(ctx, lease, me); err != nil {
			s.log.Warn("order lease not released", "err", err)
		}
	}()
	return do(ctx)
}

// leaseKey is the order's key among the leases: one action at a time.
func leaseKey(o order) string { return "order:" + string(o.kind.info().id) + ":" + o.id }

// leaseTTL is how long an order's lease lasts at most: the provider's
// deadline and a margin, so that a crashed instance holds an order for
// well under a minute.
func (s *Server) leaseTTL() time.Duration { return s.callTimeout + leaseMargin }

// claimTTL is how long a form's token is claimed before its outcome: a
// wait for another form's lease and the call itself. A crash in between
// leaves the token claimed no longer.
func (s *Server) claimTTL() time.Duration { return 2 * s.leaseTTL() }

// finish answers an action's outcome: a success goes on to its page, which
// shows the message once; a failure shows the form again (again) with its
// status and message. An island gets JSON, with a fresh token to try again.
func (s *Server) finish(c *echo.Context, o order, a action, out store.Outcome, p poster) error {
	if out.Unknown {
		return s.checkOrder(c, o, out)
	}
	if !out.Succeeded() {
		return respond(c, out.Status, answer{Message: out.Message, Token: s.token(c, o, a)}, func() error {
			return p.again(o, out.Status, out.Message)
		})
	}
	return respond(c, http.StatusOK, answer{OK: true, Message: out.Message, Redirect: out.Location}, func() error {
		if out.Message != "" {
			if err := s.sessions.WriteNotice(c.Response(), out.Message); err != nil {
				return err
			}
		}
		return seeOther(c, out.Location)
	})
}

// checkOrder shows an outcome the provider may have acted on (it did not
// answer in time) with the order fetched afresh, so that the customer sees
// what happened before doing anything again; an order no longer there (a
// move gives a new id, a cancel may take it off the list) sends them to
// the list with the message.
func (s *Server) checkOrder(c *echo.Context, o order, out store.Outcome) error {
	now, err := orderOf(c.Request().Context(), s, o.kind, session(c).GUID, o.id)
	if err != nil {
		return respond(c, out.Status, answer{Message: out.Message, Redirect: views.PathOrders}, func() error {
			if err := s.sessions.WriteNotice(c.Response(), out.Message); err != nil {
				return err
			}
			return seeOther(c, views.PathOrders)
		})
	}
	return respond(c, out.Status, answer{Message: out.Message, Redirect: now.url()}, func() error {
		return s.orderView(c, out.Status, now, out.Message)
	})
}

// failed is the outcome of a provider call that did not go through: the
// provider's text or the action's, logged without the customer's data. A
// call that did not answer in time may have been done: the customer is
// told so and shown the order as it is now, not the form to send again.
func (s *Server) failed(o order, a action, err error, refused, unreachable string) store.Outcome {
	s.log.Warn("order action failed", "action", a, "kind", o.kind.info().id, "id", o.id, "err", err)
	if timedOut(err) {
		return store.Outcome{Status: http.StatusGatewayTimeout, Message: msgTimedOut, Unknown: true}
	}
	if oe, ok := errors.AsType[*outcomeError](err); ok {
		return oe.out
	}
	f := explain(err, refused, unreachable)
	return store.Outcome{Status: f.status, Message: f.message}
}
