package gateway

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// A customer's read is held for the pages fetched ahead of a tap: only a
// speculative read takes it, within the hold, never after a write; any
// other read asks afresh; held bytes are bounded.
func TestHeldReadsForSpeculativePages(t *testing.T) {
	now := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	g := &flights{hold: 30 * time.Second, now: func() time.Time { return now }}
	var asked atomic.Int32
	fetch := func(body string) func(context.Context) (answer, int, error) {
		return func(context.Context) (answer, int, error) {
			asked.Add(1)
			return answer{status: http.StatusOK, body: []byte(body)}, 1, nil
		}
	}
	ctx, ahead := context.Background(), Speculative(context.Background())
	read := func(ctx context.Context, key, body string) string {
		t.Helper()
		a, _, _, err := g.do(ctx, key, fetch(body))
		if err != nil {
			t.Fatal(err)
		}
		return string(a.body)
	}
	read(ctx, "customer=1\nGET /orders", "v1")
	if got := read(ahead, "customer=1\nGET /orders", "v2"); got != "v1" || asked.Load() != 1 {
		t.Errorf("speculative read: %q after %d calls, want the held v1 after 1", got, asked.Load())
	}
	if got := read(ahead, "customer=2\nGET /orders", "other"); got != "other" || asked.Load() != 2 {
		t.Errorf("another customer's read: %q", got)
	}
	if got := read(ctx, "customer=1\nGET /orders", "v3"); got != "v3" || asked.Load() != 3 {
		t.Errorf("a read of a page opened: %q, want asked afresh", got)
	}
	if got := read(ahead, "customer=1\nGET /orders", "v4"); got != "v3" {
		t.Errorf("speculative read after a fresh one: %q, want v3", got)
	}
	now = now.Add(30 * time.Second)
	if got := read(ahead, "customer=1\nGET /orders", "v5"); got != "v5" {
		t.Errorf("past the hold: %q, want asked afresh", got)
	}
	g.forget()
	if got := read(ahead, "customer=1\nGET /orders", "v6"); got != "v6" {
		t.Errorf("after a write: %q, want asked afresh", got)
	}
	// Failures are not held.
	if _, _, _, err := g.do(ctx, "customer=1\nGET /fail", func(context.Context) (answer, int, error) {
		return answer{status: http.StatusBadGateway}, 1, nil
	}); err != nil {
		t.Fatal(err)
	}
	if _, ok := g.held["customer=1\nGET /fail"]; ok {
		t.Error("a failed answer is held")
	}
	// Past heldMax bytes, nothing more is held; what outlived the hold goes.
	big := strings.Repeat("x", heldMax/2+1)
	read(ctx, "customer=3\nGET /a", big)
	read(ctx, "customer=3\nGET /b", big)
	if _, ok := g.held["customer=3\nGET /b"]; ok || g.bytes > heldMax {
		t.Errorf("held %d bytes, bound %d", g.bytes, heldMax)
	}
	now = now.Add(time.Minute)
	read(ctx, "customer=3\nGET /c", "small")
	if _, ok := g.held["customer=3\nGET /a"]; ok || g.bytes != len("small") {
		t.Errorf("after the hold: %d bytes held, want only the last answer's", g.bytes)
	}
}

// A write on another instance changes the customer's mark of writes: a read
// held under the old mark is not taken under the new one, and one held
// under the new mark is.
func TestHeldReadsTakenUnderTheirMarkOfWrites(t *testing.T) {
	now := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	g := &flights{hold: 30 * time.Second, now: func() time.Time { return now }}
	read := func(ctx context.Context, body string) string {
		t.Helper()
		a, _, _, err := g.do(ctx, "customer=1\nGET /orders", func(context.Context) (answer, int, error) {
			return answer{status: http.StatusOK, body: []byte(body)}, 1, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return string(a.body)
	}
	before, after := WithWrites(context.Background(), "m1"), WithWrites(context.Background(), "m2")
	read(before, "active")
	if got := read(Speculative(before), "asked"); got != "active" {
		t.Errorf("under the same mark: %q, want the held answer", got)
	}
	if got := read(Speculative(after), "cancelled"); got != "cancelled" {
		t.Errorf("after a write elsewhere: %q, want asked afresh", got)
	}
	read(after, "cancelled")
	if got := read(Speculative(after), "asked"); got != "cancelled" {
		t.Errorf("held under the new mark: %q", got)
	}
}
