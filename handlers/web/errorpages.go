package web

import (
	"errors"
	"log/slog"
	"net/http"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v5"

	"lk/views"
)

// errorPages answer every error as the customer reads it: the Russian page,
// or an island's JSON; never a stack trace, a blank page or an English message.
type errorPages struct {
	log     *slog.Logger
	calls   Calls
	shell   Shell
	uploads Uploads
}

// Shell draws every page's frame, asking nothing of the provider: an error's
// page may answer a stranger.
type Shell interface {
	Page(c *echo.Context, title, description string) views.Page
}

// ErrorHandler is echo's HTTPErrorHandler.
func ErrorHandler(log *slog.Logger, calls Calls, shell Shell, uploads Uploads) echo.HTTPErrorHandler {
	p := &errorPages{log, calls, shell, uploads}
	return p.handle
}

// HandleErrors answers a handler's error where it stands in the chain, so
// the middleware before it sees the status sent.
func HandleErrors(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c *echo.Context) error {
		if err := next(c); err != nil {
			c.Echo().HTTPErrorHandler(c, err)
		}
		return nil
	}
}

func (p *errorPages) handle(c *echo.Context, err error) {
	if r, _ := echo.UnwrapResponse(c.Response()); r != nil && r.Committed || errors.Is(err, ErrAnswered) {
		return
	}
	he := &Error{Status: http.StatusInternalServerError, Title: MsgServerTitle, Message: MsgRequestFailed}
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &he):
		if he.Page == nil {
			break
		}
		if err := Respond(c, he.Status, Answer{Message: he.Message}, func() error { return p.render(c, he.Status, he.Page) }); err != nil {
			p.log.ErrorContext(c.Request().Context(), "render error page", "err", err)
		}
		return
	case errors.As(err, &mbe):
		he = tooLarge(c.Request(), p.uploads)
	default:
		switch echo.StatusCode(err) {
		case http.StatusNotFound:
			he = ErrNotFound
		case http.StatusMethodNotAllowed:
			he = errMethodNotAllowed
		case http.StatusRequestEntityTooLarge:
			he = tooLarge(c.Request(), p.uploads)
		default:
			p.log.ErrorContext(c.Request().Context(), "request failed", "request_id", RequestID(c), "path", c.Request().URL.Path, "err", err)
		}
	}
	if c.Request().Method == http.MethodHead {
		_ = c.NoContent(he.Status)
		return
	}
	err = Respond(c, he.Status, Answer{Message: he.Message}, func() error {
		return p.render(c, he.Status, views.ErrorPage(p.shell.Page(c, he.Title, he.Message), he.Title, he.Message))
	})
	if err != nil {
		p.log.ErrorContext(c.Request().Context(), "render error page", "err", err)
	}
}

func (p *errorPages) render(c *echo.Context, status int, page templ.Component) error {
	return renderPage(c, status, page, p.calls.Refused(c.Request().Context()))
}
