package handlers

import (
	"context"
	"errors"
	"net/http"

	"github.com/labstack/echo/v5"
)

// orderTransferForm is GET …/transfer: the kind's page of days, lessons,
// sessions or hours to move the order to.
func (s *Server) orderTransferForm(c *echo.Context) error {
	o, err := s.guard(c, actTransfer)
	if err != nil {
		return err
	}
	return o.kind.transfer.page(s, c, o)
}

// orderTransfer is POST …/transfer: the kind's move, once per token.
func (s *Server) orderTransfer(c *echo.Context) error {
	o, err := s.guard(c, actTransfer)
	if errors.Is(err, errNotFound) {
		return s.movedAway(c, err)
	}
	if err != nil {
		return err
	}
	return o.kind.transfer.submit(s, c, o)
}

// movedAway answers a POST whose order is no longer found. A move that gives
// the order a new id (a rent) leaves the old one gone, so a repeated POST of
// the same form (a double click, back and resubmit) would find nothing:
// when its token's first POST moved the order, it shows that outcome again;
// otherwise the order is simply not found. The provider is not called.
func (s *Server) movedAway(c *echo.Context, notFound error) error {
	k, id, err := orderParams(c)
	if err != nil || !k.offers(actTransfer) {
		return notFound
	}
	o := order{kind: k, id: id}
	out, err := s.onlyOnce(c, o, actTransfer, func(context.Context) Outcome {
		return Outcome{Status: http.StatusNotFound}
	})
	if err != nil || !out.Succeeded() {
		return notFound
	}
	return s.finish(c, o, actTransfer, out, nil)
}
