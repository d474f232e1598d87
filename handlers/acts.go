package handlers

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v5"

	"lk/gateway"
	"lk/handlers/web"
	"lk/store"
	"lk/views"
)

// actsKept is long enough for Back, a second tab and a page kept open overnight.
const actsKept = 7 * 24 * time.Hour

type act struct {
	what action
	at   time.Time
	to   string // the id a moved booking got, when it got a new one
}

// The store keeps the customer's digest with the order, never the client's id.
func actsKey(guid string, k kind, id string) string { return ownerMark(guid) + ":" + movedKey(k, id) }

// A record is "{action}:{unix seconds}[:{new id}]"; ids hold no colon (validID).
func (a act) encode() string {
	v := string(a.what) + ":" + strconv.FormatInt(a.at.Unix(), 10)
	if a.to != "" {
		v += ":" + a.to
	}
	return v
}

func parseAct(v string) (act, bool) {
	parts := strings.Split(v, ":")
	if len(parts) < 2 || len(parts) > 3 {
		return act{}, false
	}
	sec, err := strconv.ParseInt(parts[1], 10, 64)
	a := act{what: action(parts[0]), at: time.Unix(sec, 0)}
	if len(parts) == 3 {
		a.to = parts[2]
	}
	_, known := actTitles[a.what]
	return a, err == nil && known
}

var actTitles = map[action]string{
	actCancel:   msgActCanceledTitle,
	actRefund:   msgActRefundTitle,
	actTransfer: msgActMovedTitle,
}

// recordAct: a store failure is logged, not shown, as the action happened anyway.
func (s *Server) recordAct(ctx context.Context, guid string, o order, a action, out store.Outcome) {
	if _, kept := actTitles[a]; !kept || !out.Succeeded() {
		return
	}
	rec := act{what: a, at: s.now()}
	if prefix := views.OrderPath(string(o.kind.info().id), ""); a == actTransfer && strings.HasPrefix(out.Location, prefix) {
		if to := strings.TrimPrefix(out.Location, prefix); to != o.id && validID(to) {
			rec.to = to
		}
	}
	if err := s.stores.acts.Record(ctx, actsKey(guid, o.kind, o.id), rec.encode(), s.now().Add(actsKept)); err != nil {
		s.log.WarnContext(ctx, "what was done to an order is not kept", "action", a, "kind", string(o.kind.info().id), "err", err)
	}
}

func (s *Server) lastAct(ctx context.Context, guid string, k kind, id string) (act, bool) {
	v, err := s.stores.acts.Recall(ctx, actsKey(guid, k, id))
	if err != nil {
		s.log.WarnContext(ctx, "acts store", "err", err)
		return act{}, false
	}
	if v == "" {
		return act{}, false
	}
	return parseAct(v)
}

func (a act) text(s *Server) string {
	when := views.Date(a.at.In(s.loc)) + " в " + views.Clock(a.at.In(s.loc))
	switch a.what {
	case actCancel:
		return fmt.Sprintf(msgActCanceled, when)
	case actRefund:
		return fmt.Sprintf(msgActRefund, when)
	case actTransfer:
		if a.to != "" {
			return fmt.Sprintf(msgActMovedTo, when, a.to)
		}
		return fmt.Sprintf(msgActMoved, when)
	}
	return ""
}

// gone is the answer for an order the provider does not find: what the
// customer did to it, when that is known (409, leading to the booking it
// became, or to its page, which says the same), else err as it was.
func (s *Server) gone(ctx context.Context, guid string, k kind, id string, err error) error {
	var he *web.Error
	if !errors.As(err, &he) || he.Status != http.StatusNotFound {
		return err
	}
	a, ok := s.lastAct(ctx, guid, k, id)
	if !ok {
		return err
	}
	e := &web.Error{Status: http.StatusConflict, Title: actTitles[a.what], Message: a.text(s)}
	if a.to != "" {
		return toMoved(e, k, a.to)
	}
	return backToOrder(k, id, e)
}

// refusedText is why a form may not act: what the customer did to the order
// when that was this action (another tab's), else the action's refusal.
func (s *Server) refusedText(ctx context.Context, guid string, o order, a action, fallback string) string {
	if last, ok := s.lastAct(ctx, guid, o.kind, o.id); ok && (last.what == a || last.what != actTransfer) {
		return last.text(s)
	}
	return fallback
}

// A page fetched ahead may reuse reads of moments ago only under the mark of
// writes they began under: the mark, in the shared store, changes at each
// write to the provider on any instance and outlives any hold.
const writesKept = time.Hour

func writesKey(guid string) string { return ownerMark(guid) + ":writes" }

// wrote gives the customer a new mark of writes; a store failure is logged,
// and the other instances' held reads then last out their hold.
func (s *Server) wrote(ctx context.Context, guid string) {
	if err := s.stores.acts.Record(ctx, writesKey(guid), web.RandomID(), s.now().Add(writesKept)); err != nil {
		s.log.Warn("a write not marked for the other instances", "err", err)
	}
}

// writesSeen gives a signed-in page's reads the customer's mark of writes;
// when the store cannot say it, one that no held read carries.
func (s *Server) writesSeen(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c *echo.Context) error {
		r, sess := c.Request(), web.SessionOf(c)
		if r.Method != http.MethodGet || sess == nil {
			return next(c)
		}
		mark, err := s.stores.acts.Recall(r.Context(), writesKey(sess.GUID))
		if err != nil {
			mark = "?" + web.RandomID()
		}
		c.SetRequest(r.WithContext(gateway.WithWrites(r.Context(), mark)))
		return next(c)
	}
}
