package gateway

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// The provider's 429 (Too Many Requests): every call of this instance is
// held until the time its Retry-After names, so that no customer's page
// calls the provider in that window. A read (GET) whose call may still
// end within its deadline waits out a hold of at most ThrottleWait and
// goes on; any other call, and a read facing a longer hold, fails at once
// with ErrThrottled (the customer reads the provider-unavailable text).
const (
	// DefaultThrottleHold is the hold after a 429 without a Retry-After
	// that can be read.
	DefaultThrottleHold = time.Second
	// MaxThrottleHold bounds a hold, whatever Retry-After says: a wrong
	// header must not stop the service for hours; a provider still
	// overloaded then answers 429 again.
	MaxThrottleHold = 5 * time.Minute
	// ThrottleWait is the longest hold a read waits out.
	ThrottleWait = time.Second
)

// ErrThrottled: the provider answered 429, or the call was not made
// because the provider asked for no calls until later. Calls that fail so
// are also ErrUnavailable.
var ErrThrottled = fmt.Errorf("provider asked for fewer calls: %w", ErrUnavailable)

// throttle is the hold of an instance's calls the provider asked for; safe
// for concurrent use. Its clock is the real one, never WithClock's: a
// clock that stands still would hold forever.
type throttle struct {
	until atomic.Int64 // Unix nanoseconds; calls wait until then
}

// hold holds the calls for d from now, or longer if already held longer.
func (t *throttle) hold(d time.Duration) {
	until := time.Now().Add(min(d, MaxThrottleHold)).UnixNano()
	for {
		cur := t.until.Load()
		if cur >= until || t.until.CompareAndSwap(cur, until) {
			return
		}
	}
}

// left is how long the calls are still held; 0 when they are not.
func (t *throttle) left() time.Duration {
	return max(time.Until(time.Unix(0, t.until.Load())), 0)
}

// retryAfter reads a 429's Retry-After: seconds, or an HTTP date (counted
// from the answer's own Date when it has one, so that a provider's clock
// ahead or behind ours does not stretch the hold). Without one, or with one
// that cannot be read, DefaultThrottleHold.
func retryAfter(h http.Header) time.Duration {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return DefaultThrottleHold
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		if n < 0 {
			return DefaultThrottleHold
		}
		return time.Duration(min(n, int64(MaxThrottleHold/time.Second))) * time.Second
	}
	at, err := http.ParseTime(v)
	if err != nil {
		return DefaultThrottleHold
	}
	now := time.Now()
	if date, err := http.ParseTime(h.Get("Date")); err == nil {
		now = date
	}
	return max(at.Sub(now), 0)
}

// admit lets an attempt of cl go once the provider's hold is over: a read
// waits out a short hold that ends before its deadline (each waiter wakes
// a little apart from the others, so they do not all call in the same
// instant); otherwise ErrThrottled at once.
func (c *Client) admit(ctx context.Context, cl call) error {
	for {
		left := c.throttle.left()
		if left <= 0 {
			return nil
		}
		if cl.method != http.MethodGet || left > c.throttleWait || !endsBefore(ctx, left) {
			return fmt.Errorf("%w: no calls for another %s", ErrThrottled, left.Round(time.Second/10))
		}
		if err := sleep(ctx, left+rand.N(left/4+time.Millisecond)); err != nil {
			return err
		}
	}
}

// endsBefore tells whether ctx has more than d left before its deadline.
func endsBefore(ctx context.Context, d time.Duration) bool {
	dl, ok := ctx.Deadline()
	return !ok || time.Until(dl) > d
}

// throttledSeconds is the gauge of the hold left now.
func (c *Client) throttledSeconds() prometheus.GaugeFunc {
	return prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "lk_gateway_throttled_seconds",
		Help: "Seconds left of the hold the provider asked for with 429 and Retry-After (0: none); no call is made in it.",
	}, func() float64 { return c.throttle.left().Seconds() })
}
