package handlers

import (
	"cmp"
	"context"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v5"

	"lk/gateway"
	"lk/handlers/web"
	"lk/views"
)

const routeOrder = "/orders/:type/:id"

// ownOrder never takes a client id from the request: a stranger's is not found.
func (s *Server) ownOrder(ctx context.Context, sess *web.Session, k kind, id string) (order, error) {
	o, err := orderOf(ctx, k, sess.GUID, id)
	if err != nil {
		return o, s.gone(ctx, sess.GUID, k, id, fetchError(k, err))
	}
	return o, nil
}

func (s *Server) orderParams(c *echo.Context) (kind, string, error) {
	id, ok := gateway.ParseKind(c.Param("type"))
	k := s.kindOf(id)
	if !ok || k == nil || !validID(c.Param("id")) {
		return nil, "", web.ErrNotFound
	}
	return k, c.Param("id"), nil
}

func (s *Server) orderView(c *echo.Context, status int, o order, msg string) error {
	d := s.orderDetail(c, o, msg)
	return s.render(c, status, views.OrderPage(s.orderPage(c, d), d))
}

// orderDetail is the order page's model: its buttons and what they do with the money.
func (s *Server) orderDetail(c *echo.Context, o order, msg string) views.OrderDetail {
	d := o.detail
	d.Actions = s.buttons(c, o, onPage)
	d.Choose = chooseNotes(o, d.Actions)
	d.Error = msg
	return d
}

func (s *Server) orderPage(c *echo.Context, d views.OrderDetail) views.Page {
	title := d.Title
	if title == "" {
		title = d.KindLabel + ": заказ № " + d.ID
	}
	p := s.page(c, title, "Заказ в личном кабинете курорта.")
	p.Nav = views.NavOrders
	for _, a := range d.Actions {
		if k := s.kindOf(gateway.Kind(d.Kind)); a.Name == views.ActionTransfer && k != nil {
			p.Next, p.NextIslands = a.URL, k.info().moveIslands
		}
	}
	return p
}

func (s *Server) order(c *echo.Context) error {
	k, id, err := s.orderParams(c)
	if err != nil {
		return err
	}
	if moved, err := s.redirectMoved(c, k, id, ""); moved {
		return err
	}
	o, err := orderOf(c.Request().Context(), k, web.SessionOf(c).GUID, id)
	if err != nil {
		status, msg := orderFailure(k, err)
		d := views.OrderDetail{Kind: string(k.info().id), KindLabel: k.info().label, ID: id, Error: msg}
		// A booking just cancelled or refunded may be gone: its page says so.
		if a, ok := s.lastAct(c.Request().Context(), web.SessionOf(c).GUID, k, id); ok && status == http.StatusNotFound {
			d.Error, d.Done = "", []string{a.text(s), msgActGone}
			return s.render(c, http.StatusOK, views.OrderPage(s.orderPage(c, d), d))
		}
		if msg == "" {
			return web.ErrNotFound
		}
		return s.render(c, status, views.OrderPage(s.orderPage(c, d), d))
	}
	return s.orderView(c, http.StatusOK, o, "")
}

// The provider's PDF call takes only an order id: ownership is checked here.
func (s *Server) orderDocument(c *echo.Context) error {
	k, id, err := s.orderParams(c)
	if err != nil {
		return err
	}
	if k.info().document == nil || strings.TrimPrefix(c.Path(), routeOrder+"/") != k.info().document.file {
		return web.ErrNotFound
	}
	o, err := s.ownOrder(c.Request().Context(), web.SessionOf(c), k, id)
	if err != nil {
		return err
	}
	if o.noDoc != "" {
		return backToOrder(k, id, &web.Error{Status: http.StatusConflict, Title: msgDocTitle, Message: o.noDoc})
	}
	pdf, err := k.(documenter).document(c.Request().Context(), id)
	if err != nil {
		s.log.WarnContext(c.Request().Context(), "document not fetched", "kind", k.info().id, "order", id, "err", err)
		return backToOrder(k, id, &web.Error{Status: http.StatusBadGateway, Title: msgDocTitle, Message: msgDocFailed})
	}
	name := string(k.info().id) + "-" + id + ".pdf" // id is checked by validID
	c.Response().Header().Set(echo.HeaderContentDisposition, `attachment; filename="`+name+`"`)
	return c.Blob(http.StatusOK, "application/pdf", pdf)
}

// The provider saying no to the customer's own id is 404 with its text, if
// any; a failure is 502/503 with its message or the kind's.
func orderFailure(k kind, err error) (status int, msg string) {
	f := explain(err, cmp.Or(k.info().failed, msgOrderFailed), cmp.Or(k.info().failed, msgOrderFailed))
	if f.status < 500 {
		return http.StatusNotFound, f.own
	}
	return f.status, f.message
}

func fetchError(k kind, err error) error {
	status, msg := orderFailure(k, err)
	if msg == "" {
		return web.ErrNotFound
	}
	return &web.Error{Status: status, Title: "Заказ недоступен", Message: msg}
}

// A card in a list offers only what is done in place.
type where int

const (
	onCard where = iota
	onPage
)

func (s *Server) buttons(c *echo.Context, o order, w where) []views.Action {
	var out []views.Action
	kind := string(o.kind.info().id)
	// A plain link, no download attribute: the file comes as an attachment,
	// and a refusal (cancelled in another tab, say) is a page that says why.
	if doc := o.kind.info().document; w == onPage && doc != nil && o.noDoc == "" {
		out = append(out, views.Action{Name: "document", Label: doc.label, URL: views.OrderPath(kind, o.id, doc.file)})
	}
	for _, a := range o.kind.info().actions {
		inPlace := a == actConfirm
		if !offers(o.kind, a) || !o.can[a] || w == onCard && !inPlace {
			continue
		}
		b := views.Action{Name: string(a), Label: a.label(o.kind), URL: views.OrderPath(kind, o.id, string(a))}
		if inPlace {
			b.Token = s.newToken(c, o, a)
			if w == onCard {
				b.Back = c.Request().URL.Path
			}
		} else {
			b.Style = "btn-2"
		}
		out = append(out, b)
	}
	// Wallet and calendar last: on a phone the actions fit the first screen.
	if w == onPage {
		if b, ok := s.passAction(o); ok {
			out = append(out, b)
		}
		if b, ok := s.calendarAction(o); ok {
			out = append(out, b)
		}
	}
	return out
}

const (
	calendarFile  = "calendar.ics"
	calendarLabel = "Добавить в календарь"
	resortName    = "Курорт" // as the header and the PDFs name it
)

func (s *Server) inCalendar(o order) bool {
	return !o.event.Start.IsZero() && !o.ref.Canceled && s.upcoming(o.ref)
}

// A plain link, not a download, so that a phone opens it in its calendar.
func (s *Server) calendarAction(o order) (views.Action, bool) {
	if !s.inCalendar(o) {
		return views.Action{}, false
	}
	return views.Action{Name: "calendar", Label: calendarLabel, URL: o.url(calendarFile), Style: "btn-2"}, true
}

func (s *Server) activeAndHistory(c *echo.Context, set orderSet) (active, history []views.OrderCard) {
	refs := make([]gateway.OrderRef, len(set.all))
	for i, o := range set.all {
		refs[i] = o.ref
		refs[i].ID = strconv.Itoa(i) // the position, to find the order again
	}
	a, h := gateway.SplitActiveHistory(refs, s.now())
	active, history = make([]views.OrderCard, 0, len(a)), make([]views.OrderCard, 0, len(h))
	for _, r := range a {
		i, _ := strconv.Atoi(r.ID)
		card := set.all[i].card
		card.Actions = s.buttons(c, set.all[i], onCard)
		active = append(active, card)
	}
	for _, r := range h {
		i, _ := strconv.Atoi(r.ID)
		history = append(history, set.all[i].card)
	}
	return active, history
}

func (s *Server) kindOf(id gateway.Kind) kind {
	for _, k := range s.kinds {
		if k.info().id == id {
			return k
		}
	}
	return nil
}

func orderOf(ctx context.Context, k kind, guid, id string) (order, error) {
	o, err := k.one(ctx, guid, id)
	if err == nil {
		stamp(k, &o)
	}
	return o, err
}

// passRefusal: a cancelled or past booking's pass is gone (410); the kind says the rest.
func (s *Server) passRefusal(o order) error {
	if o.ref.Canceled {
		return passGone(msgPassCanceled)
	}
	if !s.upcoming(o.ref) {
		return passGone(msgPassPast)
	}
	_, err := o.kind.(passer).ready(o)
	return err
}

func (s *Server) offersPass(o order) bool {
	_, ok := o.kind.(passer)
	return s.passes != nil && ok && o.kind.info().pass != nil && s.passRefusal(o) == nil
}

func (s *Server) passURL(o order) string {
	pi := o.kind.info().pass
	if n, _ := o.kind.(passer).ready(o); n > 1 && pi.bundle != "" {
		return o.url(pi.bundle)
	}
	return o.url(pi.file)
}

// A plain link: an iPhone's Safari shows a pass it opens, saves one it downloads.
func (s *Server) passAction(o order) (views.Action, bool) {
	if !s.offersPass(o) {
		return views.Action{}, false
	}
	return views.Action{Name: views.ActionWallet, Label: msgPassLabel, URL: s.passURL(o), Style: "btn-2"}, true
}

// redirectMoved sends an old link's owner to the same page of the booking it became.
func (s *Server) redirectMoved(c *echo.Context, k kind, id, part string) (bool, error) {
	to, err := s.moves.movedOn(c.Request().Context(), web.SessionOf(c).GUID, k, id)
	if err != nil || to == "" {
		return err != nil, err
	}
	url := views.OrderPath(string(k.info().id), to)
	if part != "" {
		url += "/" + part
	}
	return true, c.Redirect(http.StatusSeeOther, url)
}
