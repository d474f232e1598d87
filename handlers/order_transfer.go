package handlers

import (
	"github.com/labstack/echo/v5"
)

func (s *Server) orderTransferForm(c *echo.Context, o order) error {
	return o.kind.(mover).movePage(formBase{s, c}, o)
}

func (s *Server) orderTransfer(c *echo.Context) error {
	k, _, err := s.actionParams(c, actTransfer)
	if err != nil {
		return err
	}
	return s.act(c, actTransfer, k.(mover).moveForm(formBase{s, c}))
}
