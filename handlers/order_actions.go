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

func (a action) label(k *kind) string {
	if l, ok := k.labels[a]; ok {
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
	kind := string(o.kind.id)
	if doc := o.kind.document; w == onPage && doc != nil && o.noDoc == "" {
		out = append(out, views.Action{Name: "document", Label: doc.label, URL: views.OrderPath(kind, o.id, doc.file), Download: true})
	}
	if b, ok := s.calendarAction(o); ok && w == onPage {
		out = append(out, b)
	}
	for _, a := range o.kind.actions {
		inPlace := a == actConfirm
		if !o.kind.offers(a) || !o.can[a] || w == onCard && !inPlace {
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

// guard is the one gate of every order action: the URL's type and id, the
// kind offering the action at all (404), a repeated form answered with its
// first outcome before the order is fetched again, the order fetched with
// the session's own client id (404 for anyone else's), and the order
// allowing the action now (409 with the reason on the order's page).
func (s *Server) guard(c *echo.Context, a action) (order, error) {
	o, err := s.reach(c, a)
	if err != nil {
		return o, err
	}
	if !o.can[a] && !s.replaying(c) {
		msg := actionTexts[a].never
		if c.Request().Method == http.MethodPost {
			msg = actionTexts[a].refused
		}
		return o, s.orderError(c, http.StatusConflict, o, msg)
	}
	return o, nil
}

// guarded is the route of action a: the guard, then h with the order.
func (s *Server) guarded(a action, h func(c *echo.Context, o order) error) echo.HandlerFunc {
	return func(c *echo.Context) error {
		defer s.releaseForm(c)
		o, err := s.guard(c, a)
		if err != nil {
			return err
		}
		return h(c, o)
	}
}

// reach is the guard but the order's flag: an upload checks the flag only
// once it has read the body past (for the token in an old form).
func (s *Server) reach(c *echo.Context, a action) (order, error) {
	k, id, err := orderParams(c)
	if err != nil {
		return order{}, err
	}
	if !k.offers(a) {
		return order{}, errNotFound
	}
	if err := s.claimForm(c, order{kind: k, id: id}, a); err != nil {
		return order{}, err
	}
	o, err := s.ownOrder(c, k, id)
	if err != nil {
		return order{}, err
	}
	return o, nil
}

// Keys of what claimForm leaves for onlyOnce on the request.
const (
	keyClaim  = "lk.claim"  // the once key this request claimed
	keyReplay = "lk.replay" // the first outcome of a repeated form that failed
)

// claimForm takes the posted form's token for this request, before the
// order is fetched, so that a repeated POST (a double click, back and
// resubmit) can never act on the order the first one changed: it waits for
// the first outcome and is answered with it at once when it succeeded (or
// the provider may have acted). A repeat of a failure goes on to show the
// form again with that failure and a new token. A missing, foreign or
// stale token claims nothing: onlyOnce asks to send the form again.
func (s *Server) claimForm(c *echo.Context, o order, a action) error {
	if c.Request().Method != http.MethodPost || c.Get(keyClaim) != nil {
		return nil
	}
	t, ok := s.readToken(c, o, a)
	if !ok {
		return nil
	}
	key := onceKey(t)
	wait, cancel := context.WithTimeout(c.Request().Context(), waitFirst)
	defer cancel()
	for {
		first, out, err := s.once.Claim(wait, key, s.claimTTL())
		if err != nil {
			return s.storeFailed(c, err)
		}
		if first {
			c.Set(keyClaim, key)
			return nil
		}
		if out == nil {
			out, err = s.once.Await(wait, key)
			switch {
			case err != nil && wait.Err() != nil && c.Request().Context().Err() == nil: // the first is still running
				return &httpError{http.StatusConflict, msgServerTitle, msgInProgress}
			case err != nil:
				return s.storeFailed(c, err)
			}
		}
		switch {
		case out == nil || out.Status == 0: // released without acting: ours to try
			continue
		case out.Succeeded() || out.Unknown:
			if err := s.finish(c, o, a, *out, nil); err != nil {
				return err
			}
			return errAnswered
		}
		c.Set(keyReplay, *out)
		return nil
	}
}

// replaying tells whether this POST repeats a form whose first POST failed.
func (s *Server) replaying(c *echo.Context) bool {
	_, ok := c.Get(keyReplay).(store.Outcome)
	return ok
}

// releaseForm gives back a token this request claimed but did not act on
// (a broken rule, an order that no longer allows the action): the same
// form may be sent again. Every action route defers it: guarded, and the
// refund upload itself.
func (s *Server) releaseForm(c *echo.Context) {
	key, ok := c.Get(keyClaim).(string)
	if !ok {
		return
	}
	c.Set(keyClaim, nil)
	if err := s.once.Settle(context.WithoutCancel(c.Request().Context()), key, store.Outcome{}, 0); err != nil {
		s.log.Warn("action token not released", "err", err)
	}
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
	t := actionToken{Session: session(c).ID, Action: a, Kind: o.kind.id, Order: o.id, Nonce: randomID(), Issued: s.now().Unix()}
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
		t.Action == a && t.Kind == o.kind.id && t.Order == o.id && s.now().Sub(time.Unix(t.Issued, 0)) <= tokenTTL
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

// onlyOnce runs do at most once per token of the posted form, which
// claimForm claimed for this request. A repeated POST of the same token
// never calls do again: it is answered with the first outcome. A missing,
// foreign or stale token acts on nothing and asks to send the form again.
// do runs under the order's lease (leased) and to its end even when the
// browser gives up, so that its outcome is known.
func (s *Server) onlyOnce(c *echo.Context, o order, a action, do func(ctx context.Context, now order) store.Outcome) (store.Outcome, error) {
	if out, ok := c.Get(keyReplay).(store.Outcome); ok {
		return out, nil
	}
	key, ok := c.Get(keyClaim).(string)
	if !ok {
		return store.Outcome{Status: http.StatusConflict, Message: msgStaleForm}, nil
	}
	ctx := context.WithoutCancel(c.Request().Context())
	out := s.leased(ctx, c, o, a, key, do)
	c.Set(keyClaim, nil)
	if err := s.once.Settle(ctx, key, out, onceTTL); err != nil {
		s.log.Error("action outcome not kept", "action", a, "err", err)
	}
	return out, nil
}

// leased runs do holding the order's lease, so that one action at a time
// reaches the provider for an order, however many forms, tabs and
// instances there are. A form arriving while the same action runs on the
// order gets that action's outcome; while another action runs, it is told
// the order is being changed. Under the lease the order is fetched again
// and do gets it, to check the answers against: what the guard saw may be
// what another form has just changed.
func (s *Server) leased(ctx context.Context, c *echo.Context, o order, a action, key string, do func(context.Context, order) store.Outcome) store.Outcome {
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
	now, err := o.kind.order(ctx, s, session(c).GUID, o.id)
	switch {
	case err != nil:
		return s.failed(o, a, err, actionTexts[a].refused, msgRequestFailed)
	case !now.can[a]:
		return store.Outcome{Status: http.StatusConflict, Message: actionTexts[a].refused}
	}
	return do(ctx, now)
}

// leaseKey is the order's key among the leases: one action at a time.
func leaseKey(o order) string { return "order:" + string(o.kind.id) + ":" + o.id }

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
func (s *Server) finish(c *echo.Context, o order, a action, out store.Outcome, again func(status int, msg string) error) error {
	if out.Unknown {
		return s.checkOrder(c, o, out)
	}
	if !out.Succeeded() {
		return respond(c, out.Status, answer{Message: out.Message, Token: s.token(c, o, a)}, func() error {
			return again(out.Status, out.Message)
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
	now, err := o.kind.order(c.Request().Context(), s, session(c).GUID, o.id)
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
	s.log.Warn("order action failed", "action", a, "kind", o.kind.id, "id", o.id, "err", err)
	if timedOut(err) {
		return store.Outcome{Status: http.StatusGatewayTimeout, Message: msgTimedOut, Unknown: true}
	}
	if oe, ok := errors.AsType[*outcomeError](err); ok {
		return oe.out
	}
	f := explain(err, refused, unreachable)
	return store.Outcome{Status: f.status, Message: f.message}
}
