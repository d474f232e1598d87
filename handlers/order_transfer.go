package handlers

import (
	"github.com/labstack/echo/v5"
)

func (s *Server) orderTransferForm(c *echo.Context, o order) error {
	return o.kind.(mover).movePage(formBase{s, c}, o)
}

func (s *Server) orderTransfer(c *echo.Context) error {
	at, err := s.newAttempt(c, actTransfer)
	if err != nil {
		return err
	}
	at.f = at.target.kind.(mover).moveForm(formBase{s, c})
	return at.run()
}
