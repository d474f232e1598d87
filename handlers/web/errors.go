package web

import (
	"errors"
	"net/http"

	"github.com/a-h/templ"
)

// Error is an answer's status with its Russian title and message; with Page,
// a page of the handler's own in place of the error page (Message is then
// for an island, which gets JSON instead).
type Error struct {
	Status  int
	Title   string
	Message string
	Page    templ.Component
}

func (e *Error) Error() string   { return e.Title }
func (e *Error) StatusCode() int { return e.Status }

var (
	ErrNotFound     = &Error{Status: http.StatusNotFound, Title: msgNotFoundTitle, Message: msgNotFound}
	errForbidden    = &Error{Status: http.StatusForbidden, Title: "Запрос отклонён", Message: msgForbidden}
	ErrTooLarge     = &Error{Status: http.StatusRequestEntityTooLarge, Title: "Слишком большой запрос", Message: msgTooLarge}
	ErrStoreDown    = &Error{Status: http.StatusServiceUnavailable, Title: MsgServerTitle, Message: msgStoreDown}
	ErrBusy         = &Error{Status: http.StatusServiceUnavailable, Title: MsgServerTitle, Message: msgBusy}
	errFormTooLarge = &Error{Status: http.StatusRequestEntityTooLarge, Title: "Слишком большой запрос", Message: msgFormTooLarge}
	errSlowBody     = &Error{Status: http.StatusRequestTimeout, Title: "Форма не получена", Message: msgSlowBody}
	errRestarting   = &Error{Status: http.StatusServiceUnavailable, Title: msgRestartingTitle, Message: msgRestarting}
	// ErrAnswered is an error whose answer went already.
	ErrAnswered         = errors.New("web: answered")
	errNotImplemented   = &Error{Status: http.StatusNotImplemented, Title: "Недопустимый запрос", Message: MsgMethod}
	errMethodNotAllowed = &Error{Status: http.StatusMethodNotAllowed, Title: "Недопустимый запрос", Message: MsgMethod}
)
