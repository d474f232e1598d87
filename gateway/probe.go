package gateway

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"time"
)

// Outcomes of the background check, finer than a call's: the series
// lk_gateway_call_duration_seconds{call="ping"} says why the provider was
// counted down.
const (
	PingOK           = "ok"             // a well-formed answer
	PingRefusal      = "provider_error" // the provider's own refusal in its JSON: it answers, so it is up
	PingThrottled    = "throttled"      // 429: it answers, and asks for fewer calls
	PingServerError  = "server_error"   // a 5xx, whatever its body: the gateway or a proxy before it fails
	PingUnauthorized = "unauthorized"   // 401 or 403: the provider refuses this service
	PingMalformed    = "malformed"      // an answer outside the contract (an HTML page, the wrong shape)
	PingTimeout      = "timeout"        // no answer before the deadline
	PingUnreachable  = "unreachable"    // no connection
)

// PingDown tells whether a check with outcome o counts the provider down:
// customers would see errors.
func PingDown(o string) bool {
	switch o {
	case PingOK, PingRefusal, PingThrottled:
		return false
	}
	return true
}

// Ping is the background check behind lk_provider_up: one cheap read that
// customers' pages make too (today's water-park sessions), its answer
// decoded as a page's would be. It answers nil when the provider is up, or
// an ErrUnavailable naming the outcome (PingServerError, PingMalformed,
// PingTimeout…). It bypasses the bound on calls in flight, retries, the
// shared answers and the breaker, so it reports the provider's state, not
// ours, but keeps the hold the provider asked for with a 429 (it counts
// throttled then, without a call); it carries its own request id, so the
// provider's log tells checks from customers, and the service key.
func (c *Client) Ping(ctx context.Context) error {
	const op = "ping"
	start := time.Now()
	o, err := c.ping(WithRequestID(ctx, probeID()))
	c.duration.WithLabelValues(op, o).Observe(time.Since(start).Seconds())
	if !PingDown(o) {
		return nil
	}
	if err == nil {
		return opError(op, ErrUnavailable, errors.New(o))
	}
	return opError(op, ErrUnavailable, fmt.Errorf("%s: %w", o, err))
}

// ping makes the check's call and answers its outcome.
func (c *Client) ping(ctx context.Context) (string, error) {
	cl := call{op: "ping", method: http.MethodGet, path: "aqua/getSessionsAqua",
		query: url.Values{"date": {FormatDate(c.common.now(), c.loc)}}}
	// In a hold the provider asked for, the check makes no call either:
	// the provider answered, so it is up.
	if c.throttle.left() > 0 {
		return PingThrottled, nil
	}
	p, err := c.prepare(cl)
	if err != nil {
		return PingMalformed, err
	}
	ctx, cancel := context.WithTimeout(ctx, c.callTimeout)
	defer cancel()
	a, err := c.roundTrip(ctx, cl, p)
	if err != nil {
		if ne, ok := errors.AsType[net.Error](err); ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded) || ok && ne.Timeout() {
			return PingTimeout, err
		}
		return PingUnreachable, err
	}
	var out AquaSessionsAnswer
	err = c.decode(cl, a, &out)
	switch {
	case err == nil:
		return PingOK, nil
	case a.status >= 500:
		return PingServerError, err
	case a.status == http.StatusTooManyRequests:
		return PingThrottled, err
	case a.status == http.StatusUnauthorized || a.status == http.StatusForbidden:
		return PingUnauthorized, err
	}
	if _, ok := Refusal(err); ok {
		return PingRefusal, err
	}
	return PingMalformed, err
}

// probeID is a check's own request id: "probe-" and 16 hex digits.
func probeID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return "probe-" + hex.EncodeToString(b)
}
