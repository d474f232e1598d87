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

// After the provider's 429 every call of this instance is held until its
// Retry-After. A read that may still end within its deadline waits out a
// hold of at most ThrottleWait; any other call fails at once (ErrThrottled).
const (
	// DefaultThrottleHold: a 429 without a Retry-After that can be read.
	DefaultThrottleHold = time.Second
	// MaxThrottleHold: a wrong header must not stop the service for hours.
	MaxThrottleHold = 5 * time.Minute
	ThrottleWait    = time.Second
)

// ErrThrottled: a 429, or a call not made in a hold; also ErrUnavailable.
var ErrThrottled = fmt.Errorf("provider asked for fewer calls: %w", ErrUnavailable)

// throttle's clock is the real one, never WithClock's: a clock that stands
// still would hold forever.
type throttle struct {
	until atomic.Int64 // Unix nanoseconds; calls wait until then
}

func (t *throttle) hold(d time.Duration) {
	until := time.Now().Add(min(d, MaxThrottleHold)).UnixNano()
	for {
		cur := t.until.Load()
		if cur >= until || t.until.CompareAndSwap(cur, until) {
			return
		}
	}
}

func (t *throttle) left() time.Duration {
	return max(time.Until(time.Unix(0, t.until.Load())), 0)
}

// retryAfter reads seconds or an HTTP date, counted from the answer's own
// Date, so a provider's clock off ours does not stretch the hold.
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

// admit: waiters of a short hold wake a little apart, not all in the same instant.
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

func endsBefore(ctx context.Context, d time.Duration) bool {
	dl, ok := ctx.Deadline()
	return !ok || time.Until(dl) > d
}

func (c *Client) throttledSeconds() prometheus.GaugeFunc {
	return prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "lk_gateway_throttled_seconds",
		Help: "Seconds left of the hold the provider asked for with 429 and Retry-After (0: none); no call is made in it.",
	}, func() float64 { return c.throttle.left().Seconds() })
}
