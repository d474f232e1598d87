package handlers

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v5"

	"lk/gateway"
	"lk/store"
	"lk/views"
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
	// errAnswered: the response is written already; nothing more to say.
	errAnswered = errors.New("handlers: answered")
	// errFormTooLarge is the 413 of a form without files (sign-in, profile).
	errFormTooLarge = &httpError{http.StatusRequestEntityTooLarge, "Слишком большой запрос", msgFormTooLarge}
	// errSlowBody: a form's body did not arrive within its deadline.
	errSlowBody = &httpError{http.StatusRequestTimeout, "Форма не получена", msgSlowBody}
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

// failure is an error as the customer meets it.
type failure struct {
	status  int    // of the answer: 422 the provider said no, 502 it failed, 503 it did not answer, 404 nothing found, 401 the session is over
	message string // what the customer reads
	signOut bool   // the provider no longer takes the session's token
	refused bool   // the provider said no (rather than failed or did not answer)
	// answered: the provider answered with a refusal of its own (success
	// false or hasErrors), whatever the HTTP status; own is its text and
	// code that status.
	answered bool
	own      string
	code     int
}

// explain is the one place that reads an error for a customer. The
// provider's own text is shown when it gave one; otherwise refused when it
// said no, found nothing or answered something unusable, and unreachable
// when it could not be reached. A token the provider no longer takes ends
// the session, whatever the page.
func explain(err error, refused, unreachable string) failure {
	f := failure{status: http.StatusBadGateway, message: refused}
	pe, answered := errors.AsType[*gateway.ProviderError](err)
	if answered {
		f.answered, f.own, f.code = true, gateway.Message(err), pe.Status
		f.message = cmp.Or(f.own, refused)
	}
	_, f.refused = gateway.Refusal(err)
	switch {
	case f.refused:
		f.status = http.StatusUnprocessableEntity
	case answered: // the provider failing, in its own words
	case errors.Is(err, gateway.ErrNotFound):
		f.status = http.StatusNotFound
	case errors.Is(err, gateway.ErrUnauthorized):
		return failure{status: http.StatusUnauthorized, message: msgSessionOver, signOut: true}
	case errors.Is(err, gateway.ErrUnavailable):
		f.status, f.message = http.StatusServiceUnavailable, unreachable
	}
	return f
}

// providerText is the provider's own text in err, "" when it gave none.
func providerText(err error) string {
	if _, ok := errors.AsType[*gateway.ProviderError](err); ok {
		return gateway.Message(err)
	}
	return ""
}

// providerAnswered tells that the provider answered with a refusal of its
// own (success false or hasErrors), whatever the HTTP status.
func providerAnswered(err error) bool {
	_, ok := errors.AsType[*gateway.ProviderError](err)
	return ok
}

// refusedByProvider tells the provider saying no from its failing or not
// answering.
func refusedByProvider(err error) bool {
	_, ok := gateway.Refusal(err)
	return ok
}

// timedOut tells a provider call that got no answer in time: for an
// action, the provider may have done it all the same.
func timedOut(err error) bool {
	if errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	ne, ok := errors.AsType[net.Error](err)
	return ok && ne.Timeout()
}

// slotField is the field of a rent move a broken rule of its hours points
// at: the end for hours in the wrong order or none, else the start.
func slotField(err error) string {
	if errors.Is(err, gateway.ErrPeriodReversed) || errors.Is(err, gateway.ErrPeriodEmpty) {
		return "to"
	}
	return "from"
}

// httpFailed is err as an action's outcome that leads with lead when the
// provider answered with an HTTP status that is not a success, whatever
// its body: 'Ошибка при регистрации возврата: <its text or the status>'.
// Anything else (a refusal under 200, no answer at all) is left as it is.
func httpFailed(err error, lead string) error {
	code := gateway.FailedStatus(err)
	if code == 0 {
		return err
	}
	f := explain(err, lead, lead)
	details := cmp.Or(f.own, fmt.Sprintf("HTTP %d", code))
	return providerFailed(lead + ": " + details)
}

// outcomeError is an action's failure whose outcome is already worded.
type outcomeError struct{ out store.Outcome }

func (e *outcomeError) Error() string { return e.out.Message }

// providerFailed is the provider's failure of an action, worded as msg for
// the customer: a 502 with it.
func providerFailed(msg string) error {
	return &outcomeError{store.Outcome{Status: http.StatusBadGateway, Message: msg}}
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
	if r, _ := echo.UnwrapResponse(c.Response()); r != nil && r.Committed || errors.Is(err, errAnswered) {
		return
	}
	he := &httpError{http.StatusInternalServerError, msgServerTitle, msgRequestFailed}
	var mbe *http.MaxBytesError
	var pe *pageError
	switch {
	case errors.As(err, &pe):
		if err := respond(c, pe.status, answer{Message: pe.message}, func() error { return render(c, pe.status, pe.page) }); err != nil {
			s.log.Error("render error page", "err", err)
		}
		return
	case errors.As(err, &he):
	case errors.As(err, &mbe):
		he = tooLarge(c.Request())
	default:
		switch echo.StatusCode(err) {
		case http.StatusNotFound:
			he = errNotFound
		case http.StatusMethodNotAllowed:
			he = &httpError{http.StatusMethodNotAllowed, "Недопустимый запрос", msgMethod}
		case http.StatusRequestEntityTooLarge:
			he = tooLarge(c.Request())
		default:
			s.log.Error("request failed", "id", c.Get(keyRequestID), "path", c.Request().URL.Path, "err", err)
		}
	}
	if c.Request().Method == http.MethodHead {
		_ = c.NoContent(he.status)
		return
	}
	err = respond(c, he.status, answer{Message: he.message}, func() error {
		return render(c, he.status, views.ErrorPage(s.page(c, he.title, he.message), he.title, he.message))
	})
	if err != nil {
		s.log.Error("render error page", "err", err)
	}
}
