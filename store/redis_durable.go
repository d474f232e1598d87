package store

import (
	"context"
	"errors"
	"io"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// ErrNotReplicated is a write that no replica acknowledged in time while
// the master had replicas: a failover could lose it.
var ErrNotReplicated = errors.New("store: no replica acknowledged the write")

const (
	// replicaWait is how long a write waits for a replica's
	// acknowledgement (WAIT); on one machine or a LAN it takes well
	// under a millisecond.
	replicaWait = 500 * time.Millisecond
	// durableFor is how long a write that must not be lost is tried again
	// while Redis fails over (Sentinel promotes a replica in a few
	// seconds), instead of failing the customer's request at once.
	durableFor = 8 * time.Second
)

// durable runs write's commands on one connection and, when the topology
// has replicas, WAITs until one has them, trying again while Redis fails
// over: with Sentinel only, as with one server a failure is an outage that
// no waiting mends, and the customer is told at once. The commands' own
// answers are read from the commands write made.
func (r *Redis) durable(ctx context.Context, write func(redis.Pipeliner)) ([]redis.Cmder, error) {
	deadline := time.Now().Add(durableFor)
	backoff := 50 * time.Millisecond
	for {
		cmds, err := r.writeOnce(ctx, write)
		if err == nil || !r.sentinel || !retryable(err) || time.Now().Add(backoff).After(deadline) {
			return cmds, err
		}
		select {
		case <-ctx.Done():
			return cmds, err
		case <-time.After(backoff):
		}
		backoff = min(backoff*2, time.Second)
	}
}

func (r *Redis) writeOnce(ctx context.Context, write func(redis.Pipeliner)) ([]redis.Cmder, error) {
	var wait *redis.Cmd
	cmds, err := r.c.Pipelined(ctx, func(p redis.Pipeliner) error {
		write(p)
		if r.sentinel || r.replicas.Load() {
			wait = p.Do(ctx, "WAIT", 1, replicaWait.Milliseconds()) // not in the pipeline's own methods
		}
		return nil
	})
	if err != nil && !errors.Is(err, redis.Nil) { // a nil is a command's answer (SET NX)
		return cmds, err
	}
	if n, _ := waitCount(wait); wait != nil && n < 1 {
		// No replica has it: a loss only if the master has one that
		// could be promoted.
		n, err := r.connectedReplicas(ctx)
		if err != nil {
			return cmds, err
		}
		if n > 0 {
			return cmds, ErrNotReplicated
		}
	}
	return cmds, nil
}

// failoverRead is how long a read waits out a failover with Sentinel.
const failoverRead = 5 * time.Second

// read runs get, and with Sentinel tries it again while a failover
// explains its failure, for failoverRead at most. With one server a
// failure is an outage, not a failover: no waiting.
func (r *Redis) read(ctx context.Context, get func() error) error {
	deadline := time.Now().Add(failoverRead)
	backoff := 50 * time.Millisecond
	for {
		err := get()
		if err == nil || !r.sentinel || !retryable(err) || time.Now().Add(backoff).After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(backoff):
		}
		backoff = min(backoff*2, time.Second)
	}
}

// connectedReplicas is the master's count of replicas (INFO replication).
func (r *Redis) connectedReplicas(ctx context.Context) (int, error) {
	info, err := r.c.Info(ctx, "replication").Result()
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(info, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "connected_slaves:"); ok {
			return strconv.Atoi(v)
		}
	}
	return 0, nil
}

// retryable is a failure that a failover explains: the connection is gone
// or refused, the server is now a replica (READONLY) or still loading, no
// master is known yet, or no replica acknowledged.
func retryable(err error) bool {
	var ne net.Error
	if errors.Is(err, ErrNotReplicated) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.As(err, &ne) {
		return true
	}
	msg := err.Error()
	for _, s := range []string{"READONLY", "LOADING", "MASTERDOWN", "NOREPLICAS", "connection refused", "connection reset", "sentinel", "broken pipe"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

func waitCount(c *redis.Cmd) (int64, error) {
	if c == nil {
		return 0, nil
	}
	return c.Int64()
}
