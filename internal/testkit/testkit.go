// Package testkit holds what the tests of several packages share: a clock
// the test moves by hand, a buffer the code under test writes its log to
// while the test reads it, and a program's run function started and
// stopped as its main would.
package testkit

import (
	"bytes"
	"context"
	"io"
	"sync"
	"testing"
	"time"
)

// Clock stands still at its time until the test moves it; the code under
// test may read it from any goroutine meanwhile.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// NewClock is a clock standing at t.
func NewClock(t time.Time) *Clock { return &Clock{t: t} }

func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Add moves the clock on by d.
func (c *Clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// Buffer is a bytes.Buffer that one goroutine may write while another
// reads it.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// Start runs run, a program's run function, in the background with its
// log written to log, and returns once ready says the log shows the
// program serving. stop cancels run's context, as a signal would, and
// fails the test unless run then returns without an error.
func Start(t testing.TB, run func(ctx context.Context, out io.Writer) error, ready func(log string) bool) (log *Buffer, stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	log = &Buffer{}
	done := make(chan error, 1)
	go func() { done <- run(ctx, log) }()
	for deadline := time.Now().Add(20 * time.Second); !ready(log.String()); {
		if time.Now().After(deadline) {
			cancel()
			t.Fatalf("never ready:\n%s", log.String())
		}
		select {
		case err := <-done:
			t.Fatalf("run ended: %v\n%s", err, log.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	stop = func() {
		t.Helper()
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("shutdown: %v", err)
			}
		case <-time.After(20 * time.Second):
			t.Fatal("no graceful shutdown")
		}
	}
	return log, stop
}
