package handlers

import (
	"cmp"
	"errors"
	"net/http"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v5"

	"lk/gateway"
	"lk/views"
)

// Texts for customers that more than one handler shows (SPEC §8 where it
// has them).
const (
	msgNotFoundTitle = "Страница не найдена"
	msgNotFound      = "Такой страницы нет или она вам недоступна. Проверьте адрес."
	msgServerTitle   = "Что-то пошло не так"
	msgServer        = "Не удалось выполнить запрос. Попробуйте позже."
	msgForbidden     = "Запрос отклонён: он пришёл не со страницы личного кабинета. Обновите страницу и попробуйте ещё раз."
	msgTooLarge      = "Файлы слишком большие. Приложите документы общим размером до 25 МБ."
	msgMethod        = "Так обратиться к этой странице нельзя."
	msgStoreDown     = "Сервис временно недоступен. Попробуйте позже."
	msgSignOutFailed = "Не удалось завершить сеанс. Попробуйте выйти ещё раз через минуту."
)

// httpError is an error a customer sees as a page with a status.
type httpError struct {
	status  int
	title   string
	message string
}

func (e *httpError) Error() string   { return e.title }
func (e *httpError) StatusCode() int { return e.status }

var (
	errNotFound  = &httpError{http.StatusNotFound, msgNotFoundTitle, msgNotFound}
	errForbidden = &httpError{http.StatusForbidden, "Запрос отклонён", msgForbidden}
	errTooLarge  = &httpError{http.StatusRequestEntityTooLarge, "Слишком большой запрос", msgTooLarge}
	errStoreDown = &httpError{http.StatusServiceUnavailable, msgServerTitle, msgStoreDown}
)

// pageError is a failure shown as a page of its own, such as an order with
// the reason an action is no longer possible.
type pageError struct {
	status  int
	message string // for an island, which gets JSON instead of the page
	page    templ.Component
}

func (e *pageError) Error() string   { return http.StatusText(e.status) }
func (e *pageError) StatusCode() int { return e.status }

// explain is the one reading of a provider's error for a customer (SPEC §8):
// the status of the page and its text, the provider's own when it gave one,
// else refused when it said no or answered something unusable, and
// unreachable when it could not be reached. A refusal is 422 (the request
// cannot be carried out as it is), the provider's own failure 502, no
// answer 503, no such order 404, a token it no longer takes 401.
func explain(err error, refused, unreachable string) (status int, msg string) {
	if pe, ok := errors.AsType[*gateway.ProviderError](err); ok {
		if pe.Status >= 500 {
			return http.StatusBadGateway, cmp.Or(pe.Message, refused)
		}
		return http.StatusUnprocessableEntity, cmp.Or(pe.Message, refused)
	}
	switch {
	case errors.Is(err, gateway.ErrNotFound):
		return http.StatusNotFound, refused
	case errors.Is(err, gateway.ErrUnauthorized):
		return http.StatusUnauthorized, msgSessionOver
	case errors.Is(err, gateway.ErrUnavailable):
		return http.StatusServiceUnavailable, unreachable
	}
	return http.StatusBadGateway, refused
}

// handleErrors turns a handler's error into a Russian page (or JSON for an
// island) inside the gzip and security middleware.
func (s *Server) handleErrors(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c *echo.Context) error {
		if err := next(c); err != nil {
			s.handleError(c, err)
		}
		return nil
	}
}

// handleError is echo's error handler: never a stack trace, a blank page or
// an English message.
func (s *Server) handleError(c *echo.Context, err error) {
	if r, _ := echo.UnwrapResponse(c.Response()); r != nil && r.Committed {
		return
	}
	he := &httpError{http.StatusInternalServerError, msgServerTitle, msgServer}
	var mbe *http.MaxBytesError
	var pe *pageError
	switch {
	case errors.As(err, &pe) && wantsJSON(c):
		_ = c.JSON(pe.status, jsonAnswer{Title: "Ой!", Message: pe.message})
		return
	case errors.As(err, &pe):
		if err := render(c, pe.status, pe.page); err != nil {
			s.log.Error("render error page", "err", err)
		}
		return
	case errors.As(err, &he):
	case errors.As(err, &mbe):
		he = errTooLarge
	default:
		switch echo.StatusCode(err) {
		case http.StatusNotFound:
			he = errNotFound
		case http.StatusMethodNotAllowed:
			he = &httpError{http.StatusMethodNotAllowed, "Недопустимый запрос", msgMethod}
		case http.StatusRequestEntityTooLarge:
			he = errTooLarge
		default:
			s.log.Error("request failed", "id", c.Get(keyRequestID), "path", c.Request().URL.Path, "err", err)
		}
	}
	if c.Request().Method == http.MethodHead {
		_ = c.NoContent(he.status)
		return
	}
	if wantsJSON(c) {
		_ = c.JSON(he.status, jsonAnswer{Title: "Ой!", Message: he.message})
		return
	}
	p := s.page(c, he.title, he.message)
	if err := render(c, he.status, views.ErrorPage(p, he.title, he.message)); err != nil {
		s.log.Error("render error page", "err", err)
	}
}

// jsonAnswer is what islands get instead of a page.
type jsonAnswer struct {
	OK         bool              `json:"ok"`
	Title      string            `json:"title,omitempty"`
	Message    string            `json:"message,omitempty"`
	Fields     map[string]string `json:"fields,omitempty"`
	RetryAfter int               `json:"retryAfter,omitempty"`
	Phone      string            `json:"phone,omitempty"`
	ResendIn   int               `json:"resendIn,omitempty"`
	Redirect   string            `json:"redirect,omitempty"`
	Token      string            `json:"token,omitempty"` // a fresh one-time token to try an action again
}
