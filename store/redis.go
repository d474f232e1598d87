package store

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"

	"lk/handlers"
)

// Redis keeps the shared state of several instances in one Redis. Every
// operation is one atomic command or script, so parallel requests on any
// instances cannot pass a limit or a one-time token together.
type Redis struct {
	c      *redis.Client
	prefix string
}

// OpenRedis connects to rawURL (redis://[:password@]host:port/db) with
// short deadlines: a page waits at most about a second for a Redis that
// does not answer. Calls, errors and latency are counted in reg.
func OpenRedis(rawURL string, reg prometheus.Registerer) (*Redis, error) {
	opt, err := redis.ParseURL(rawURL)
	if err != nil {
		return nil, fmt.Errorf("store: LK_REDIS_URL: %w", err)
	}
	opt.DialTimeout, opt.ReadTimeout, opt.WriteTimeout = time.Second, time.Second, time.Second
	opt.MaxRetries = 1
	c := redis.NewClient(opt)
	m, err := newMetrics(reg)
	if err != nil {
		c.Close()
		return nil, err
	}
	c.AddHook(m)
	return &Redis{c: c, prefix: "lk:"}, nil
}

// Ping tells whether Redis answers (for /readyz).
func (r *Redis) Ping(ctx context.Context) error { return r.c.Ping(ctx).Err() }

// Close closes the connections.
func (r *Redis) Close() error { return r.c.Close() }

// ---- the sign-out deny-list (handlers.Revoker) ----

// Revoke keeps id until its cookie would expire.
func (r *Redis) Revoke(ctx context.Context, id string, until time.Time) error {
	if !until.After(time.Now()) {
		return nil
	}
	return r.c.SetArgs(ctx, r.prefix+"revoked:"+id, "1", redis.SetArgs{ExpireAt: until}).Err()
}

// Revoked tells whether id was signed out.
func (r *Redis) Revoked(ctx context.Context, id string) (bool, error) {
	n, err := r.c.Exists(ctx, r.prefix+"revoked:"+id).Result()
	return n > 0, err
}

// ---- first ids of moved bookings (handlers.Moves) ----

// Moved keeps the first id of key until then.
func (r *Redis) Moved(ctx context.Context, key, first string, until time.Time) error {
	if first == "" {
		return errors.New("store: moved: no first id")
	}
	if !until.After(time.Now()) {
		return nil
	}
	return r.c.SetArgs(ctx, r.prefix+"moved:"+key, first, redis.SetArgs{ExpireAt: until}).Err()
}

// First is the first id of key, or "".
func (r *Redis) First(ctx context.Context, key string) (string, error) {
	v, err := r.c.Get(ctx, r.prefix+"moved:"+key).Result()
	if errors.Is(err, redis.Nil) {
		return "", nil
	}
	return v, err
}

// ---- one-time action tokens (handlers.Once) ----

// Claim takes key with SET NX: exactly one caller on any instance is first.
// A claimed key holds "" until its outcome is settled.
func (r *Redis) Claim(ctx context.Context, key string, ttl time.Duration) (bool, *handlers.Outcome, error) {
	k := r.prefix + "once:" + key
	err := r.c.SetArgs(ctx, k, "", redis.SetArgs{Mode: "NX", TTL: ttl}).Err()
	if err == nil {
		return true, nil, nil
	}
	if !errors.Is(err, redis.Nil) {
		return false, nil, err
	}
	v, err := r.c.Get(ctx, k).Result()
	switch {
	case errors.Is(err, redis.Nil): // expired between the two commands
		return r.Claim(ctx, key, ttl)
	case err != nil:
		return false, nil, err
	case v == "":
		return false, nil, nil
	}
	var out handlers.Outcome
	if err := json.Unmarshal([]byte(v), &out); err != nil {
		return false, nil, fmt.Errorf("store: outcome of %s: %w", key, err)
	}
	return false, &out, nil
}

// Settle records the first caller's outcome.
func (r *Redis) Settle(ctx context.Context, key string, out handlers.Outcome, ttl time.Duration) error {
	b, err := json.Marshal(out)
	if err != nil {
		return err
	}
	return r.c.Set(ctx, r.prefix+"once:"+key, b, ttl).Err()
}

// Claimed tells whether key has been claimed.
func (r *Redis) Claimed(ctx context.Context, key string) (bool, error) {
	n, err := r.c.Exists(ctx, r.prefix+"once:"+key).Result()
	return n > 0, err
}

// Forget gives key up.
func (r *Redis) Forget(ctx context.Context, key string) error {
	return r.c.Del(ctx, r.prefix+"once:"+key).Err()
}

// ---- metrics ----

// metrics counts and times every Redis command as a go-redis hook.
type metrics struct {
	calls    *prometheus.CounterVec
	duration *prometheus.HistogramVec
}

func newMetrics(reg prometheus.Registerer) (*metrics, error) {
	m := &metrics{
		calls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "lk_store_calls_total", Help: "Redis commands by command and outcome (ok, error).",
		}, []string{"command", "outcome"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "lk_store_duration_seconds", Help: "Redis command latency.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1},
		}, []string{"command"}),
	}
	if reg == nil {
		return m, nil
	}
	for _, c := range []prometheus.Collector{m.calls, m.duration} {
		if err := reg.Register(c); err != nil {
			return nil, fmt.Errorf("store: metrics: %w", err)
		}
	}
	return m, nil
}

func (m *metrics) DialHook(next redis.DialHook) redis.DialHook {
	return func(ctx context.Context, network, addr string) (net.Conn, error) { return next(ctx, network, addr) }
}

func (m *metrics) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		start := time.Now()
		err := next(ctx, cmd)
		m.observe(cmd.Name(), start, err)
		return err
	}
}

func (m *metrics) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		start := time.Now()
		err := next(ctx, cmds)
		m.observe("pipeline", start, err)
		return err
	}
}

func (m *metrics) observe(command string, start time.Time, err error) {
	outcome := "ok"
	if err != nil && !errors.Is(err, redis.Nil) {
		outcome = "error"
	}
	m.calls.WithLabelValues(command, outcome).Inc()
	m.duration.WithLabelValues(command).Observe(time.Since(start).Seconds())
}

// newID is a random id for a hold.
func newID() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}
