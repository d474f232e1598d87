package handlers

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"

	"lk/gateway"
	"lk/handlers/web"
	"lk/store"
)

type failure struct {
	status  int    // of the answer: 422 the provider said no, 502 it failed, 503 it did not answer, 404 nothing found, 401 the session is over
	message string // what the customer reads
	signOut bool   // the provider no longer takes the session's token
	refused bool   // the provider said no (rather than failed or did not answer)
	// answered: the provider refused in its own words (success false or
	// hasErrors), whatever the HTTP status.
	answered bool
	own      string
	code     int
}

// explain is the one place that reads an error for a customer: the
// provider's own text when it gave one, else refused or unreachable. A token
// the provider no longer takes ends the session, whatever the page.
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
	case errors.Is(err, gateway.ErrBusy):
		f.status, f.message = http.StatusServiceUnavailable, web.ErrBusy.Message
	case errors.Is(err, gateway.ErrUnavailable):
		f.status, f.message = http.StatusServiceUnavailable, unreachable
	}
	return f
}

func providerText(err error) string {
	if _, ok := errors.AsType[*gateway.ProviderError](err); ok {
		return gateway.Message(err)
	}
	return ""
}

func providerAnswered(err error) bool {
	_, ok := errors.AsType[*gateway.ProviderError](err)
	return ok
}

func refusedByProvider(err error) bool {
	_, ok := gateway.Refusal(err)
	return ok
}

// A call that got no answer in time may have been done all the same.
func timedOut(err error) bool {
	if errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	ne, ok := errors.AsType[net.Error](err)
	return ok && ne.Timeout()
}

func slotField(err error) string {
	if errors.Is(err, gateway.ErrPeriodReversed) || errors.Is(err, gateway.ErrPeriodEmpty) {
		return "to"
	}
	return "from"
}

// A failed HTTP status reads 'lead: <the provider's text or the status>';
// a refusal under 200 is left as it is.
func httpFailed(err error, lead string) error {
	code := gateway.FailedStatus(err)
	if code == 0 {
		return err
	}
	f := explain(err, lead, lead)
	details := cmp.Or(f.own, fmt.Sprintf("HTTP %d", code))
	return providerFailed(lead + ": " + details)
}

type outcomeError struct{ out store.Outcome }

func (e *outcomeError) Error() string { return e.out.Message }

func providerFailed(msg string) error {
	return &outcomeError{store.Outcome{Status: http.StatusBadGateway, Message: msg}}
}

type textError string

func (e textError) Error() string { return string(e) }

// profileRefused tells whether a profile call's failure ends the session:
// the provider refusing the client (the customer reads its text) or no
// longer taking the token; an outage never does.
func profileRefused(err error) (msg string, signOut bool) {
	f := explain(err, web.MsgRequestFailed, "")
	return f.message, f.refused || f.signOut
}
