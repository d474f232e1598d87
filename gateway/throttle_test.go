package gateway

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"lk/internal/testkit"
)

func TestRetryAfter(t *testing.T) {
	now := time.Now().UTC()
	date := func(t time.Time) string { return t.UTC().Format(http.TimeFormat) }
	for _, tc := range []struct {
		name         string
		value, date  string
		want, within time.Duration
	}{
		{"seconds", "30", "", 30 * time.Second, 0},
		{"zero", "0", "", 0, 0},
		{"none", "", "", DefaultThrottleHold, 0},
		{"unreadable", "soon", "", DefaultThrottleHold, 0},
		{"negative", "-5", "", DefaultThrottleHold, 0},
		{"beyond the bound", "86400", "", MaxThrottleHold, 0},
		// The answer's own Date is the start: a provider's clock an hour
		// ahead of ours holds for 20 s, not an hour and 20 s.
		{"a date after the answer's own", date(now.Add(time.Hour + 20*time.Second)), date(now.Add(time.Hour)), 20 * time.Second, 0},
		{"a date without the answer's", date(now.Add(20 * time.Second)), "", 20 * time.Second, 2 * time.Second},
		{"a date past", date(now.Add(-time.Minute)), "", 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := http.Header{}
			if tc.value != "" {
				h.Set("Retry-After", tc.value)
			}
			if tc.date != "" {
				h.Set("Date", tc.date)
			}
			if got := retryAfter(h); got < tc.want-tc.within || got > tc.want {
				t.Errorf("Retry-After %q (Date %q): hold %s, want %s (within %s)", tc.value, tc.date, got, tc.want, tc.within)
			}
		})
	}
}

// provider429 is a fake provider that answers 429 with retryAfter to the
// first call and 200 with an empty list to every later one, and notes when
// each call came.
type provider429 struct {
	mu    sync.Mutex
	calls []time.Time
}

func (p *provider429) serve(retryAfter string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		p.calls = append(p.calls, time.Now())
		first := len(p.calls) == 1
		p.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if first {
			w.Header().Set("Retry-After", retryAfter)
			w.WriteHeader(http.StatusTooManyRequests)
			io.WriteString(w, `{"success":false,"errorMessage":"Too many requests"}`)
			return
		}
		io.WriteString(w, `{"success":true,"activeOrders":[],"historyOrders":[],"result":[]}`)
	}
}

func (p *provider429) seen() []time.Time {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]time.Time(nil), p.calls...)
}

// A 429 with a long Retry-After holds every call of the instance: the
// reads and the actions of other customers, made at once in parallel, fail
// at once as throttled (the provider-unavailable text, never the
// provider's words) without reaching the provider; the breaker stays
// closed; the background check counts the provider up without a call.
func TestThrottleHoldsEveryCall(t *testing.T) {
	reg := prometheus.NewRegistry()
	c, mux, _ := setup(t, WithRegisterer(reg), WithBreaker(2, time.Hour))
	p := &provider429{}
	mux.HandleFunc("/v1/", p.serve("30"))

	_, _, err := c.AquaOrders(t.Context(), "g0")
	if !errors.Is(err, ErrThrottled) || !errors.Is(err, ErrUnavailable) || isProvider(err) {
		t.Fatalf("error %v, want ErrThrottled, ErrUnavailable and no provider's text", err)
	}
	if FailedStatus(err) != http.StatusTooManyRequests {
		t.Errorf("FailedStatus %d, want 429", FailedStatus(err))
	}
	if len(p.seen()) != 1 {
		t.Fatalf("%d calls, want 1 (a 429 with a long Retry-After is not tried again)", len(p.seen()))
	}
	if left := gaugeValue(t, reg, "lk_gateway_throttled_seconds"); left < 28 || left > 30 {
		t.Errorf("lk_gateway_throttled_seconds %v, want about 30", left)
	}

	start := time.Now()
	var wg sync.WaitGroup
	errs := make([]error, 40)
	for i := range errs {
		wg.Go(func() {
			if i%2 == 0 {
				_, _, errs[i] = c.AquaOrders(t.Context(), fmt.Sprintf("g%d", i+1))
			} else {
				errs[i] = c.ConfirmLesson(t.Context(), fmt.Sprintf("g%d", i+1), "l1")
			}
		})
	}
	wg.Wait()
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("the held calls took %s, want at once", took)
	}
	for i, err := range errs {
		if !errors.Is(err, ErrThrottled) || !errors.Is(err, ErrUnavailable) || isProvider(err) {
			t.Errorf("call %d: %v, want ErrThrottled", i, err)
		}
	}
	if err := c.Ping(t.Context()); err != nil {
		t.Errorf("Ping in the hold: %v, want up", err)
	}
	if n := len(p.seen()); n != 1 {
		t.Errorf("the provider had %d calls in its hold, want 1 (the first)", n-1)
	}
	if open := gaugeValue(t, reg, "lk_gateway_breakers_open"); open != 0 {
		t.Errorf("lk_gateway_breakers_open %v: a hold opened a breaker", open)
	}
	got := callSamples(t, reg)
	if got["get_aqua_orders/throttled"] != 21 || got["confirm_lesson/throttled"] != 20 || got["ping/throttled"] != 1 {
		t.Errorf("samples %v, want every call throttled", got)
	}
}

// A short Retry-After is waited out by reads, which then succeed; none
// calls the provider inside the hold. An action is never held back: it
// fails at once, and the provider is not called.
func TestShortHoldIsWaitedOutByReads(t *testing.T) {
	c, mux, _ := setup(t)
	p := &provider429{}
	mux.HandleFunc("/v1/", p.serve("1"))

	if _, _, err := c.AquaOrders(t.Context(), "g0"); err != nil {
		t.Fatalf("the read that met the 429: %v, want it to wait 1 s and succeed", err)
	}
	calls := p.seen()
	if len(calls) != 2 || calls[1].Sub(calls[0]) < 900*time.Millisecond {
		t.Fatalf("calls at %v, want two, a second apart", calls)
	}

	// Once more, the 429 met by the background check (which does not try
	// again), then customers in parallel in the hold.
	p.mu.Lock()
	p.calls = nil
	p.mu.Unlock()
	if err := c.Ping(t.Context()); err != nil {
		t.Fatalf("Ping met a 429: %v, want up", err)
	}
	if err := c.ConfirmLesson(t.Context(), "g1", "l1"); !errors.Is(err, ErrThrottled) {
		t.Errorf("an action in the hold: %v, want ErrThrottled at once", err)
	}
	var wg sync.WaitGroup
	var failed atomic.Int32
	for i := range 20 {
		wg.Go(func() {
			if _, _, err := c.AquaOrders(t.Context(), fmt.Sprintf("g%d", i+1)); err != nil {
				failed.Add(1)
				t.Errorf("read %d: %v", i, err)
			}
		})
	}
	wg.Wait()
	calls = p.seen()
	if len(calls) != 1+20 {
		t.Errorf("%d calls, want the 429 and 20 reads", len(calls))
	}
	for _, at := range calls[1:] {
		if at.Sub(calls[0]) < 900*time.Millisecond {
			t.Errorf("a call %s after the 429 asked for a second", at.Sub(calls[0]))
		}
	}
}

// A read whose deadline ends before the hold does not wait for nothing.
func TestHoldBeyondTheDeadlineFailsAtOnce(t *testing.T) {
	c, mux, _ := setup(t, WithTimeouts(0, 500*time.Millisecond))
	p := &provider429{}
	mux.HandleFunc("/v1/", p.serve("1"))
	start := time.Now()
	_, _, err := c.AquaOrders(t.Context(), "g0")
	if !errors.Is(err, ErrThrottled) || time.Since(start) > 300*time.Millisecond {
		t.Errorf("error %v after %s, want ErrThrottled at once", err, time.Since(start))
	}
	if len(p.seen()) != 1 {
		t.Errorf("%d calls, want 1", len(p.seen()))
	}
}

// The gateway refusing this service (its key) is the provider unavailable
// to the customer, never the gateway's own text, and never the end of a
// session (a 401 on the token's call still is).
func TestServiceRefused(t *testing.T) {
	reg := prometheus.NewRegistry()
	c, mux, _ := setup(t, WithRegisterer(reg))
	record(t, mux, http.StatusForbidden, "application/json", `{"success":false,"errorMessage":"Invalid API key"}`)
	_, _, err := c.AquaOrders(t.Context(), "g1")
	if !errors.Is(err, ErrServiceRefused) || !errors.Is(err, ErrUnavailable) || isProvider(err) || Message(err) != "" {
		t.Errorf("error %v, want ErrServiceRefused without the gateway's text", err)
	}
	if _, err = c.ClientInfo(t.Context(), testToken); !errors.Is(err, ErrServiceRefused) || errors.Is(err, ErrUnauthorized) {
		t.Errorf("ClientInfo: %v, want ErrServiceRefused, not the session's end", err)
	}
	if got := callSamples(t, reg); got["get_aqua_orders/unauthorized"] != 1 || got["get_client_info/unauthorized"] != 1 {
		t.Errorf("samples %v, want get_aqua_orders/unauthorized and get_client_info/unauthorized", got)
	}
}

// The service key goes with every call, the background check's too, and
// into no log line.
func TestServiceKeyOnEveryCall(t *testing.T) {
	const key = "svc-key-7f3a9c1e"
	var buf testkit.Buffer
	log := slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	c, mux, _ := setup(t, WithServiceKey(key), WithLogger(log), WithRetries(0))
	var mu sync.Mutex
	keys := map[string]string{}
	mux.HandleFunc("/v1/", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		keys[strings.TrimPrefix(r.URL.Path, "/v1/")] = r.Header.Get(ServiceKeyHeader)
		mu.Unlock()
		w.WriteHeader(http.StatusForbidden) // as a gateway that does not know the key
	})
	ctx := context.Background()
	_ = c.Ping(ctx)
	_ = c.Login(ctx, testPhone, false)
	_, _ = c.ClientInfo(ctx, testToken)
	_, _, _ = c.AquaOrders(ctx, "g1")
	_ = c.CancelHotelOrder(ctx, "h1")
	_, _ = c.AquaTicketPDF(ctx, "a1")
	if len(keys) != 6 {
		t.Errorf("calls seen %v, want 6 paths", keys)
	}
	for path, got := range keys {
		if got != key {
			t.Errorf("%s: %s %q, want the key", path, ServiceKeyHeader, got)
		}
	}
	if strings.Contains(buf.String(), key) || buf.String() == "" {
		t.Errorf("the log holds the key, or nothing:\n%s", buf.String())
	}
}
