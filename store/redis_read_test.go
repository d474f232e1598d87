package store

import (
	"context"
	"net"
	"testing"
	"time"
)

// With one Redis a refused connection is an outage: a read tries once and
// the customer is told at once. With Sentinel the same failure may be a
// failover, so the read tries again until it ends.
func TestReadWaitsOutFailoversOnlyWithSentinel(t *testing.T) {
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: &net.DNSError{Err: "connection refused", IsTemporary: true}}
	for _, tt := range []struct {
		sentinel bool
		atLeast  int
		atMost   int
	}{{false, 1, 1}, {true, 2, 100}} {
		r := &Redis{sentinel: tt.sentinel}
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		calls := 0
		err := r.read(ctx, func() error { calls++; return refused })
		cancel()
		if err == nil || calls < tt.atLeast || calls > tt.atMost {
			t.Errorf("sentinel %v: %d tries (%v), want %d to %d", tt.sentinel, calls, err, tt.atLeast, tt.atMost)
		}
	}
}
