package handlers

import (
	"context"
	"errors"
	"lk/gateway"
	"lk/handlers/web"
	"lk/store"
	"net/http"
	"slices"
	"time"

	"github.com/labstack/echo/v5"
)

// formBase is what every action's form holds; it checks nothing but its token.
type formBase struct {
	s *Server
	c *echo.Context
}

func (formBase) check(context.Context, order) verdict { return verdict{} }

// actionForm is one POST of an action on an order.
type actionForm interface {
	// check judges the form against the order now; a verdict other than
	// zero is answered with again, and nothing is called.
	check(ctx context.Context, o order) verdict
	call(ctx context.Context, o order) store.Outcome
	again(o order, status int, msg string) error
}

// verdict is a form's check: zero lets the action go ahead; else the form is
// shown again with status and msg.
type verdict struct {
	status int
	msg    string
}

func (v verdict) passed() bool { return v.status == 0 }

// Sealed with the cookie keys and bound to the session, the order and the
// action, a token is good for nothing else.
type actionToken struct {
	Session string       `json:"s"`
	Action  action       `json:"a"`
	Kind    gateway.Kind `json:"k"`
	Order   string       `json:"o"`
	Nonce   string       `json:"n"`
	Issued  int64        `json:"t"` // unix seconds
	// Owner is the tag of the customer's phone: a form sent after its
	// session ended is kept for them alone (kept_form.go).
	Owner string `json:"w,omitempty"`
}

const (
	tokenName = "lk_action"
	tokenTTL  = 24 * time.Hour // a form older than this is shown again
	onceTTL   = tokenTTL + time.Hour
)

func (s *Server) newToken(c *echo.Context, o order, a action) string {
	v, _ := s.tokenAndForm(c, o, a)
	return v
}

// tokenAndForm is a new form's token and its short id, which an upload's URL
// carries so that no token stays in the address bar.
func (s *Server) tokenAndForm(c *echo.Context, o order, a action) (token, form string) {
	sess := web.SessionOf(c)
	t := actionToken{Session: sess.ID, Action: a, Kind: o.kind.info().id, Order: o.id, Nonce: web.RandomID(), Issued: s.now().Unix(), Owner: s.ownerTag(sess)}
	v, err := s.sessions.Seal(tokenName, t)
	if err != nil {
		s.log.ErrorContext(c.Request().Context(), "action token", "err", err)
	}
	return v, t.Nonce
}

func (s *Server) readToken(c *echo.Context, o order, a action) (actionToken, bool) {
	var t actionToken
	ok := s.sessions.Open(tokenName, formToken(c), &t) && t.Session == web.SessionOf(c).ID &&
		t.Action == a && t.Kind == o.kind.info().id && t.Order == o.id && s.now().Sub(time.Unix(t.Issued, 0)) <= tokenTTL
	return t, ok
}

func onceKey(t actionToken) string { return "action:" + t.Nonce }

// An upload's token is in its body, which the refund handler alone reads.
func formToken(c *echo.Context) string {
	if t := c.QueryParam("token"); t != "" {
		return t
	}
	if r := c.Request(); isUpload(r) && r.PostForm == nil {
		return ""
	}
	return c.FormValue("token")
}

// A call that did not answer in time may have been done: the customer is told
// so and shown the order, not the form to send again.
func (s *Server) actionFailed(ctx context.Context, o order, a action, err error, refused, unreachable string) store.Outcome {
	s.log.WarnContext(ctx, "order action failed", "action", a, "kind", o.kind.info().id, "order", o.id, "err", err)
	if timedOut(err) {
		return store.Outcome{Status: http.StatusGatewayTimeout, Message: msgTimedOut, Unknown: true}
	}
	if oe, ok := errors.AsType[*outcomeError](err); ok {
		return oe.out
	}
	f := explain(err, refused, unreachable)
	return store.Outcome{Status: f.status, Message: f.message}
}

type mover interface {
	movePage(f formBase, o order) error
	moveForm(f formBase) actionForm // the move posted
}

func offers(k kind, a action) bool {
	var ok bool
	switch a {
	case actConfirm:
		_, ok = k.(confirmer)
	case actCancel:
		_, ok = k.(canceler)
	case actRefund:
		_, ok = k.(refunder)
	case actTransfer:
		_, ok = k.(mover)
	}
	return ok && slices.Contains(k.info().actions, a)
}
