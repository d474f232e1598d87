package handlers

import "github.com/labstack/echo/v5"

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
	if err != nil {
		return err
	}
	return o.kind.transfer.submit(s, c, o)
}
