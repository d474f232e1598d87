package web

import (
	"log/slog"
	"net/http"

	"github.com/labstack/echo/v5"
)

// A cookie whose sign-out could not be checked is left out and remembered.
func LoadSession(sessions *Sessions, log *slog.Logger) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c *echo.Context) error {
			sess, err := sessions.Read(c.Request())
			switch {
			case err != nil:
				log.Error("session not checked", "err", err)
				c.Set(keySessionUnknown, true)
			case sess != nil:
				c.Set(keySession, sess)
			}
			return next(c)
		}
	}
}

// A cookie that could not be checked gets 'try later': neither let in nor out.
func RequireSession(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c *echo.Context) error {
		if SessionOf(c) == nil {
			if unknown, _ := c.Get(keySessionUnknown).(bool); unknown {
				return ErrStoreDown
			}
			return c.Redirect(http.StatusSeeOther, "/login")
		}
		return next(c)
	}
}
