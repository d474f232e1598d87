package handlers

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/labstack/echo/v5"

	"lk/handlers/web"
	"lk/views"
)

// leadsOn is a refusal whose page leads back to the order, or to the booking it became.
type leadsOn struct {
	refusal *web.Error
	on      views.Link
}

func (e *leadsOn) Error() string { return e.refusal.Error() }
func (e *leadsOn) Unwrap() error { return e.refusal }

// leadOn shows an order route's refusal that leads on as its page.
func (s *Server) leadOn(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c *echo.Context) error {
		err := next(c)
		l, ok := errors.AsType[*leadsOn](err)
		if !ok {
			return err
		}
		r := l.refusal
		p := s.page(c, r.Title, "Заказ в личном кабинете курорта.")
		p.Nav = views.NavOrders
		return &web.Error{Status: r.Status, Title: r.Title, Message: r.Message, Page: views.ErrorPageOn(p, r.Title, r.Message, l.on)}
	}
}

// backToOrder: 409, 410 and 502 lead back to the order; a stranger's 404 does not.
func backToOrder(k kind, id string, err error) error {
	he, ok := errors.AsType[*web.Error](err)
	if _, on := errors.AsType[*leadsOn](err); !ok || on {
		return err
	}
	switch he.Status {
	case http.StatusConflict, http.StatusGone, http.StatusBadGateway:
		return &leadsOn{he, views.Link{URL: views.OrderPath(string(k.info().id), id), Label: msgToOrder}}
	}
	return err
}

// toMoved leads to the booking a moved one became; its page checks the owner again.
func toMoved(e *web.Error, k kind, newID string) error {
	return &leadsOn{e, views.Link{URL: views.OrderPath(string(k.info().id), newID), Label: fmt.Sprintf(msgToMovedOrder, newID)}}
}
