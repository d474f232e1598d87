package handlers

import (
	"net/http"

	"github.com/labstack/echo/v5"

	"lk/views"
)

// home is the account's first page.
func (s *Server) home(c *echo.Context) error {
	sess := session(c)
	p := s.page(c, "Мой кабинет", "Личный кабинет клиента курорта.")
	p.Nav = views.NavHome
	return render(c, http.StatusOK, views.HomePage(p, views.Home{Name: sess.Name}))
}
