package handlers

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/labstack/echo/v5"

	"lk/gateway"
	"lk/store"
	"lk/views"
)

// action is what a customer can do with an order; its name is the last part
// of its URL, /orders/{type}/{id}/{action}.
type action string

// Order actions.
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

// label is the action's button on an order of kind k.
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
// kind offering the action at all (404), the order fetched with the
// session's own client id (404 for anyone else's), and the order allowing
// the action now (409 with the reason on the order's page).
func (s *Server) guard(c *echo.Context, a action) (order, error) {
	k, id, err := orderParams(c)
	if err != nil {
		return order{}, err
	}
	if !k.offers(a) {
		return order{}, errNotFound
	}
	if err := s.answerReplay(c, order{kind: k, id: id}, a); err != nil {
		return order{}, err
	}
	o, err := s.ownOrder(c, k, id)
	if err != nil {
		return order{}, err
	}
	if !o.can[a] && !s.replayed(c, o, a) {
		msg := actionTexts[a].never
		if c.Request().Method == http.MethodPost {
			msg = actionTexts[a].refused
		}
		return o, s.orderError(c, http.StatusConflict, o, msg)
	}
	return o, nil
}

// answerReplay answers a POST that repeats a form whose first POST
// succeeded (a double click, back and resubmit, a retry) with that outcome,
// before anything else: the order has changed since — a cancelled lesson or
// rent has left the list, a moved one has a new id, refunded tickets are no
// longer paid — and must not turn the repeat into a 404 or a 422. It says
// errAnswered when it answered. A repeat of a failure goes on: the form is
// shown again with the first failure and a new token.
func (s *Server) answerReplay(c *echo.Context, o order, a action) error {
	if c.Request().Method != http.MethodPost || !s.replayed(c, o, a) {
		return nil
	}
	out, err := s.onlyOnce(c, o, a, func(context.Context) store.Outcome {
		return store.Outcome{Status: http.StatusConflict, Message: msgStaleForm} // claimed, then expired meanwhile
	})
	if err != nil || !out.Succeeded() {
		return err
	}
	if err := s.finish(c, o, a, out, nil); err != nil {
		return err
	}
	return errAnswered
}

// replayed tells whether this POST repeats a form already acted on: then
// it is answered with the first outcome (onlyOnce), not with the order's
// new state, which the first POST changed.
func (s *Server) replayed(c *echo.Context, o order, a action) bool {
	if c.Request().Method != http.MethodPost {
		return false
	}
	t, ok := s.readToken(c, o, a)
	if !ok {
		return false
	}
	claimed, err := s.once.Claimed(c.Request().Context(), onceKey(t))
	return err == nil && claimed
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
)

// token makes a fresh one-time token for action a on o.
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
	ok := s.sessions.open(tokenName, c.FormValue("token"), &t) && t.Session == session(c).ID &&
		t.Action == a && t.Kind == o.kind.id && t.Order == o.id && s.now().Sub(time.Unix(t.Issued, 0)) <= tokenTTL
	return t, ok
}

func onceKey(t actionToken) string { return "action:" + t.Nonce }

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

// onlyOnce runs do at most once per token of the posted form. A repeated POST
// of the same token (at the same time or later) never calls do again: it
// waits for the first and answers its outcome. A missing, foreign or stale
// token acts on nothing and asks to send the form again. A browser giving
// up does not cancel do: a provider call once started is seen to its end,
// so its outcome is known.
func (s *Server) onlyOnce(c *echo.Context, o order, a action, do func(ctx context.Context) store.Outcome) (store.Outcome, error) {
	t, ok := s.readToken(c, o, a)
	if !ok {
		return store.Outcome{Status: http.StatusConflict, Message: msgStaleForm}, nil
	}
	wait, cancel := context.WithTimeout(c.Request().Context(), waitFirst)
	defer cancel()
	keep := func(store.Outcome) time.Duration { return onceTTL }
	out, err := store.Do(wait, s.once, onceKey(t), onceTTL, keep, do)
	switch {
	case errors.Is(err, store.ErrNotKept):
		s.log.Error("action outcome not kept", "action", a, "err", err)
	case err != nil && wait.Err() != nil: // the first is still running
		return store.Outcome{Status: http.StatusConflict, Message: msgInProgress}, nil
	case err != nil:
		return store.Outcome{}, err
	}
	return out, nil
}

// finish answers an action's outcome: a success goes on to its page, which
// shows the message once; a failure shows the form again (again) with its
// status and message. An island gets JSON, with a fresh token to try again.
func (s *Server) finish(c *echo.Context, o order, a action, out store.Outcome, again func(status int, msg string) error) error {
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

// failed is the outcome of a provider call that did not go through: the
// provider's text or the action's, logged without the customer's data.
func (s *Server) failed(o order, a action, err error, refused, unreachable string) store.Outcome {
	s.log.Warn("order action failed", "action", a, "kind", o.kind.id, "id", o.id, "err", err)
	if oe, ok := errors.AsType[*outcomeError](err); ok {
		return oe.out
	}
	f := explain(err, refused, unreachable)
	return store.Outcome{Status: f.status, Message: f.message}
}
