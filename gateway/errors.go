package gateway

import (
	"errors"
	"fmt"
)

// Errors a call can end with, besides *ProviderError. Methods return them
// wrapped with the call's name ("gateway: get aqua orders: provider
// unavailable: …"); test with errors.Is.
var (
	// ErrUnavailable: the provider could not be reached or did not answer in
	// time (transport failure, the call's deadline, a 5xx that does not say
	// success — then also a *ProviderError with the provider's text — or the
	// circuit breaker of the call's path is open). Worth trying again later;
	// never a reason to end a session or to count a wrong code.
	ErrUnavailable = errors.New("provider unavailable")
	// ErrMalformed: the provider answered something we cannot read (not JSON,
	// a PDF that is not one, a success without the data it promises).
	ErrMalformed = errors.New("malformed answer")
	// ErrNotFound: a single-order or schedule fetch found nothing.
	ErrNotFound = errors.New("not found")
	// ErrUnauthorized: a bearer call was refused with HTTP 401; the session's
	// token is no longer good.
	ErrUnauthorized = errors.New("unauthorized")
)

// ErrServiceRefused: the gateway refused this service itself (HTTP 403):
// its key (WithServiceKey) is missing, wrong or revoked. Calls that fail so are also ErrUnavailable: the
// customer is told to try later, never signed out.
var ErrServiceRefused = fmt.Errorf("gateway refused this service (its key): %w", ErrUnavailable)

// ProviderError is the provider saying no: success:false with errorMessage,
// or hasErrors:true with responseDescription. Message is the provider's own
// text (Russian, meant for the customer) and may be empty; each page says which
// fallback a page shows then.
type ProviderError struct {
	Op      string // the call, e.g. "get aqua orders"
	Message string // the provider's errorMessage or responseDescription
	Status  int    // the HTTP status of the answer
}

// Is makes a refusal under HTTP 5xx also ErrUnavailable: the provider
// failing, whatever its body says. A 500 on loginConfirm is no wrong code,
// on getClientInfo no refused token.
func (e *ProviderError) Is(target error) bool {
	return target == ErrUnavailable && e.Status >= 500
}

// Refusal returns the provider's refusal carried by err: a *ProviderError
// that is not the provider failing (ErrUnavailable).
func Refusal(err error) (*ProviderError, bool) {
	pe, ok := errors.AsType[*ProviderError](err)
	if !ok || errors.Is(err, ErrUnavailable) {
		return nil, false
	}
	return pe, true
}

func (e *ProviderError) Error() string {
	msg := e.Message
	if msg == "" {
		msg = "request refused"
		if e.Status != 0 {
			msg = fmt.Sprintf("request refused (HTTP %d)", e.Status)
		}
	}
	return "gateway: " + e.Op + ": provider: " + msg
}

// Message returns the provider's own message carried by err, or "" when err
// is not a provider refusal or the provider gave no text.
func Message(err error) string {
	if pe, ok := errors.AsType[*ProviderError](err); ok {
		return pe.Message
	}
	return ""
}

// StatusError is an answer that is not JSON: its HTTP status and what came
// instead (never the body itself).
type StatusError struct {
	Status int
	Body   string
}

func (e *StatusError) Error() string { return fmt.Sprintf("HTTP %d, %s", e.Status, e.Body) }

// FailedStatus is the HTTP status of the provider's answer carried by err
// when that status is not a success (2xx); 0 when the provider answered
// with a success status or did not answer at all.
func FailedStatus(err error) int {
	status := 0
	if pe, ok := errors.AsType[*ProviderError](err); ok {
		status = pe.Status
	} else if se, ok := errors.AsType[*StatusError](err); ok {
		status = se.Status
	}
	if status >= 200 && status < 300 {
		return 0
	}
	return status
}

// opError wraps kind (one of the sentinels above) and, when there is one, the
// underlying cause, so both errors.Is(err, ErrUnavailable) and
// errors.Is(err, context.DeadlineExceeded) hold.
func opError(op string, kind, cause error) error {
	if cause == nil {
		return fmt.Errorf("gateway: %s: %w", op, kind)
	}
	return fmt.Errorf("gateway: %s: %w: %w", op, kind, cause)
}

// ErrBusy: the call was not made because this instance already had
// WithMaxInFlight calls in flight. Calls that fail so are also
// ErrUnavailable; the page answers at once instead of waiting on a slow
// provider.
var ErrBusy = errors.New("too many provider calls in flight")
