package gateway

import (
	"context"
	"errors"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"lk/internal/testkit"
)

// counted answers the water park's sessions after release is closed (nil:
// at once) and counts the calls.
func counted(t *testing.T, mux *http.ServeMux, release chan struct{}) *atomic.Int32 {
	t.Helper()
	var n atomic.Int32
	mux.HandleFunc("/v1/aqua/getSessionsAqua", func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		if release != nil {
			<-release
		}
		io.WriteString(w, `{"success":true,"result":[{"sessionId":"s1","name":"Дневной"}]}`)
	})
	mux.HandleFunc("/v1/aqua/transferTicket", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"success":true}`)
	})
	return &n
}

// TestSharedConcurrentMissesOneCall: 50 callers asking for the same day's
// sessions at once make one call, and every one gets the sessions.
func TestSharedConcurrentMissesOneCall(t *testing.T) {
	c, mux, _ := setup(t)
	release := make(chan struct{})
	n := counted(t, mux, release)
	var wg sync.WaitGroup
	errs := make(chan error, 50)
	for range 50 {
		wg.Go(func() {
			s, err := c.AquaSessions(t.Context(), day)
			if err == nil && len(s) != 1 {
				err = errors.New("no session")
			}
			errs <- err
		})
	}
	for n.Load() == 0 { // the first call has reached the provider
		time.Sleep(time.Millisecond)
	}
	time.Sleep(20 * time.Millisecond) // the others join it
	close(release)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if n.Load() != 1 {
		t.Errorf("getSessionsAqua called %d times for 50 callers, want 1", n.Load())
	}
}

// TestSharedKeptByTheClock: an answer is kept for the TTL by the client's
// clock, then asked again; a fresh caller always asks.
func TestSharedKeptByTheClock(t *testing.T) {
	clk := testkit.NewClock(testkit.Now())
	c, mux, _ := setup(t, WithClock(clk.Now), WithSharedTTL(30*time.Second))
	n := counted(t, mux, nil)
	ask := func(ctx context.Context) {
		t.Helper()
		if _, err := c.AquaSessions(ctx, day); err != nil {
			t.Fatal(err)
		}
	}
	ask(t.Context())
	clk.Add(29 * time.Second)
	ask(t.Context())
	if n.Load() != 1 {
		t.Fatalf("calls within 30 s: %d, want 1", n.Load())
	}
	ask(Fresh(t.Context()))
	if n.Load() != 2 {
		t.Fatalf("a fresh read was taken from what was kept (%d calls)", n.Load())
	}
	clk.Add(29 * time.Second) // 58 s after the first, 29 after the fresh one
	ask(t.Context())
	if n.Load() != 2 {
		t.Fatalf("the fresh answer was not kept for the others (%d calls)", n.Load())
	}
	clk.Add(2 * time.Second)
	ask(t.Context())
	if n.Load() != 3 {
		t.Errorf("an answer older than 30 s was used (%d calls)", n.Load())
	}
}

// TestSharedDroppedByAWrite: a transfer of tickets drops the water park's
// kept sessions, so the next read asks the provider.
func TestSharedDroppedByAWrite(t *testing.T) {
	c, mux, _ := setup(t)
	n := counted(t, mux, nil)
	for range 2 {
		if _, err := c.AquaSessions(t.Context(), day); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.TransferTickets(t.Context(), TransferTicketRequest{}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.AquaSessions(t.Context(), day); err != nil {
		t.Fatal(err)
	}
	if n.Load() != 2 {
		t.Errorf("getSessionsAqua called %d times, want 2 (once, then after the transfer)", n.Load())
	}
}

// TestSharedFailureNotKept: a failed answer is not kept.
func TestSharedFailureNotKept(t *testing.T) {
	c, mux, _ := setup(t, WithRetries(0))
	var n atomic.Int32
	mux.HandleFunc("/v1/aqua/getSessionsAqua", func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			w.WriteHeader(http.StatusBadGateway)
			return
		}
		io.WriteString(w, `{"success":true,"result":[]}`)
	})
	if _, err := c.AquaSessions(t.Context(), day); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("first: %v, want ErrUnavailable", err)
	}
	if _, err := c.AquaSessions(t.Context(), day); err != nil {
		t.Fatalf("second: %v", err)
	}
	if n.Load() != 2 {
		t.Errorf("calls %d, want 2", n.Load())
	}
}

// TestMaxInFlight: with 3 calls allowed in flight, 20 callers at once on a
// provider that does not answer: 3 reach it, the others fail at once with
// ErrBusy (also ErrUnavailable), and the watching context says so.
func TestMaxInFlight(t *testing.T) {
	c, mux, _ := setup(t, WithMaxInFlight(3), WithRetries(2))
	release := make(chan struct{})
	var now, most atomic.Int32
	mux.HandleFunc("/v1/aqua/getAquaOrders", func(w http.ResponseWriter, r *http.Request) {
		v := now.Add(1)
		defer now.Add(-1)
		for m := most.Load(); v > m && !most.CompareAndSwap(m, v); m = most.Load() {
		}
		<-release
		io.WriteString(w, `{"success":true,"activeOrders":[],"historyOrders":[]}`)
	})
	var wg sync.WaitGroup
	var busy, ok atomic.Int32
	for i := range 20 {
		wg.Go(func() {
			ctx := WatchBusy(t.Context(), false)
			_, _, err := c.AquaOrders(ctx, "client-"+string(rune('a'+i)))
			switch {
			case err == nil:
				ok.Add(1)
			case errors.Is(err, ErrBusy) && errors.Is(err, ErrUnavailable) && Busy(ctx):
				busy.Add(1)
			default:
				t.Errorf("call %d: %v", i, err)
			}
		})
	}
	for busy.Load() < 17 {
		time.Sleep(time.Millisecond)
	}
	close(release)
	wg.Wait()
	if most.Load() > 3 || ok.Load() != 3 || busy.Load() != 17 {
		t.Errorf("at most %d in flight, %d answered, %d refused; want 3, 3, 17", most.Load(), ok.Load(), busy.Load())
	}
}
