package web

import (
	"errors"
	"net/http"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v5"

	"lk/views"
)

type Error struct {
	Status  int
	Title   string
	Message string
}

func (e *Error) Error() string   { return e.Title }
func (e *Error) StatusCode() int { return e.Status }

var (
	ErrNotFound     = &Error{http.StatusNotFound, MsgNotFoundTitle, MsgNotFound}
	ErrForbidden    = &Error{http.StatusForbidden, "Запрос отклонён", MsgForbidden}
	ErrTooLarge     = &Error{http.StatusRequestEntityTooLarge, "Слишком большой запрос", MsgTooLarge}
	ErrStoreDown    = &Error{http.StatusServiceUnavailable, MsgServerTitle, MsgStoreDown}
	ErrBusy         = &Error{http.StatusServiceUnavailable, MsgServerTitle, MsgBusy}
	ErrAnswered     = errors.New("web: answered")
	ErrFormTooLarge = &Error{http.StatusRequestEntityTooLarge, "Слишком большой запрос", MsgFormTooLarge}
	ErrSlowBody     = &Error{http.StatusRequestTimeout, "Форма не получена", MsgSlowBody}
	ErrRestarting   = &Error{http.StatusServiceUnavailable, MsgRestartingTitle, MsgRestarting}
)

type PageError struct {
	Status  int
	Message string // for an island, which gets JSON instead of the page
	Page    templ.Component
}

func (e *PageError) Error() string   { return http.StatusText(e.Status) }
func (e *PageError) StatusCode() int { return e.Status }

func (k *Kit) HandleErrors(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c *echo.Context) error {
		if err := next(c); err != nil {
			k.HandleError(c, err)
		}
		return nil
	}
}

// Never a stack trace, a blank page or an English message.
func (k *Kit) HandleError(c *echo.Context, err error) {
	if r, _ := echo.UnwrapResponse(c.Response()); r != nil && r.Committed || errors.Is(err, ErrAnswered) {
		return
	}
	he := &Error{http.StatusInternalServerError, MsgServerTitle, MsgRequestFailed}
	var mbe *http.MaxBytesError
	var pe *PageError
	switch {
	case errors.As(err, &pe):
		if err := Respond(c, pe.Status, Answer{Message: pe.Message}, func() error { return k.RenderPage(c, pe.Status, pe.Page) }); err != nil {
			k.Logger.ErrorContext(c.Request().Context(), "render error page", "err", err)
		}
		return
	case errors.As(err, &he):
	case errors.As(err, &mbe):
		he = k.tooLarge(c.Request())
	default:
		switch echo.StatusCode(err) {
		case http.StatusNotFound:
			he = ErrNotFound
		case http.StatusMethodNotAllowed:
			he = &Error{http.StatusMethodNotAllowed, "Недопустимый запрос", MsgMethod}
		case http.StatusRequestEntityTooLarge:
			he = k.tooLarge(c.Request())
		default:
			k.Logger.ErrorContext(c.Request().Context(), "request failed", "request_id", RequestID(c), "path", c.Request().URL.Path, "err", err)
		}
	}
	if c.Request().Method == http.MethodHead {
		_ = c.NoContent(he.Status)
		return
	}
	err = Respond(c, he.Status, Answer{Message: he.Message}, func() error {
		return k.RenderPage(c, he.Status, views.ErrorPage(k.Shell.Page(c, he.Title, he.Message), he.Title, he.Message))
	})
	if err != nil {
		k.Logger.ErrorContext(c.Request().Context(), "render error page", "err", err)
	}
}
