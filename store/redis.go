package store

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"
)

// Redis keeps the shared state of several instances in one Redis. Every
// operation is one atomic command or script, so parallel requests on any
// instances cannot pass a limit or a one-time token together. Writes the
// product must never lose (sign-outs, the claims and outcomes of one-time
// forms, leases, first ids of moves) are acknowledged by a replica before
// they are reported done, when there is one: Redis replicates after it
// answers, so a master that dies just after answering would otherwise
// take them with it, and the replica promoted in its place would let a
// signed-out cookie in or a used form act again.
type Redis struct {
	c        *redis.Client
	docs     *redis.Client // for documents, whose megabytes may take longer than a second under load
	prefix   string
	sentinel bool         // the master is found through Sentinels
	replicas atomic.Bool  // a plain server had replicas when the server started
	answered atomic.Int64 // when Ping was last answered (Unix nanoseconds)
}

// OpenRedis connects to rawURL (redis://[:password@]host:port/db, or
// redis-sentinel://[password@]host:port[,host:port…][/db]#master) with
// short deadlines: a page waits at most about a second for a Redis that
// does not answer. Calls, errors and latency are counted in reg.
func OpenRedis(rawURL string, reg prometheus.Registerer, opts ...RedisOption) (*Redis, error) {
	var o redisOptions
	for _, f := range opts {
		f(&o)
	}
	c, sentinel, err := openRedisClient(rawURL, time.Second, o.password)
	if err != nil {
		return nil, err
	}
	docs, _, err := openRedisClient(rawURL, docsTimeout, o.password)
	if err != nil {
		c.Close()
		return nil, err
	}
	m, err := newMetrics(reg)
	if err != nil {
		c.Close()
		docs.Close()
		return nil, err
	}
	c.AddHook(m)
	docs.AddHook(m)
	return &Redis{c: c, docs: docs, prefix: "lk:", sentinel: sentinel}, nil
}

// RedisOption sets what the URL does not say.
type RedisOption func(*redisOptions)

type redisOptions struct{ password string }

// RedisPassword is the data servers' password, kept out of the URL (read
// from LK_REDIS_PASSWORD_FILE); it takes the place of one in the URL.
func RedisPassword(p string) RedisOption { return func(o *redisOptions) { o.password = p } }

// readyGrace is how long, with Sentinel, Ping still says ready while
// Redis does not answer. A failover takes a few seconds, during which
// pages wait for the new master; a balancer that took every instance out
// of its pool at once for it would turn those waits into errors.
const readyGrace = 10 * time.Second

// ErrNotMaster is a Redis that answers but takes no writes: a replica, or
// an old master that came back as one.
var ErrNotMaster = errors.New("store: Redis is a read-only replica, not a writable master: every write fails (READONLY); point LK_REDIS_URL at the master, or at Sentinels")

// Ping tells whether Redis answers as a writable master (for /readyz);
// with Sentinel, whether it answered within readyGrace.
func (r *Redis) Ping(ctx context.Context) error {
	role, err := r.c.Do(ctx, "ROLE").Slice()
	switch {
	case err == nil && len(role) > 0 && role[0] == "master":
		r.answered.Store(time.Now().UnixNano())
		return nil
	case err == nil:
		err = fmt.Errorf("%w (role %v)", ErrNotMaster, role[:min(len(role), 1)])
	}
	if last := r.answered.Load(); r.sentinel && last != 0 && time.Since(time.Unix(0, last)) < readyGrace {
		return nil
	}
	return err
}

// docsTimeout is how long a command carrying a refund's documents (up to
// 10 MB each) may wait for Redis.
const docsTimeout = 10 * time.Second

// Close closes the connections.
func (r *Redis) Close() error { return errors.Join(r.c.Close(), r.docs.Close()) }

// ---- the sign-out deny-list (Revoker) ----

// Revoke keeps id until its cookie would expire, on a replica too.
func (r *Redis) Revoke(ctx context.Context, id string, until time.Time) error {
	if !until.After(time.Now()) {
		return nil
	}
	_, err := r.durable(ctx, func(p redis.Pipeliner) {
		p.SetArgs(ctx, r.prefix+"revoked:"+id, "1", redis.SetArgs{ExpireAt: until})
	})
	return err
}

// Revoked tells whether id was signed out. Every signed-in page asks it,
// so with Sentinel it waits out a failover (a few seconds) rather than
// failing the page.
func (r *Redis) Revoked(ctx context.Context, id string) (bool, error) {
	var n int64
	err := r.read(ctx, func() (err error) {
		n, err = r.c.Exists(ctx, r.prefix+"revoked:"+id).Result()
		return err
	})
	return n > 0, err
}

// ---- first ids of moved bookings (Moves) ----

// Moved keeps the first id of key until then.
func (r *Redis) Moved(ctx context.Context, key, first string, until time.Time) error {
	if first == "" {
		return errors.New("store: moved: no first id")
	}
	if !until.After(time.Now()) {
		return nil
	}
	_, err := r.durable(ctx, func(p redis.Pipeliner) {
		p.SetArgs(ctx, r.prefix+"moved:"+key, first, redis.SetArgs{ExpireAt: until})
	})
	return err
}

// First is the first id of key, or "".
func (r *Redis) First(ctx context.Context, key string) (string, error) {
	v, err := r.c.Get(ctx, r.prefix+"moved:"+key).Result()
	if errors.Is(err, redis.Nil) {
		return "", nil
	}
	return v, err
}

// ---- work done once per key (Once) ----

func (r *Redis) onceKey(key string) string { return r.prefix + "once:" + key }

// onceDone is the channel on which a key's outcome is announced.
func (r *Redis) onceDone(key string) string { return r.prefix + "once-done:" + key }

// Claim takes key with SET NX: exactly one caller on any instance is first.
// A claimed key holds its claimer's mark ("~" and a random id) until its
// outcome is settled; the mark lets a claim tried again after a lost
// answer (a failover) know itself.
func (r *Redis) Claim(ctx context.Context, key string, ttl time.Duration) (bool, *Outcome, error) {
	k, mark := r.onceKey(key), "~"+newID()
	for range 3 {
		var get *redis.StringCmd
		_, err := r.durable(ctx, func(p redis.Pipeliner) {
			p.SetArgs(ctx, k, mark, redis.SetArgs{Mode: "NX", TTL: ttl})
			get = p.Get(ctx, k)
		})
		if err != nil {
			return false, nil, err
		}
		v, err := get.Result()
		switch {
		case errors.Is(err, redis.Nil): // expired between the two commands
			continue
		case err != nil:
			return false, nil, err
		case v == mark:
			return true, nil, nil
		case running(v):
			return false, nil, nil
		}
		out, err := decodeOutcome(key, v)
		return false, out, err
	}
	return false, nil, errors.New("store: once: claimed and released again and again")
}

// running tells a claim whose work runs from a settled outcome.
func running(v string) bool { return v == "" || strings.HasPrefix(v, "~") }

// outcome reads key: ok is false when it is not claimed, out nil while
// its work runs.
func (r *Redis) outcome(ctx context.Context, key string) (out *Outcome, ok bool, err error) {
	v, err := r.c.Get(ctx, r.onceKey(key)).Result()
	switch {
	case errors.Is(err, redis.Nil):
		return nil, false, nil
	case err != nil:
		return nil, false, err
	case running(v):
		return nil, true, nil
	}
	out, err = decodeOutcome(key, v)
	return out, err == nil, err
}

func decodeOutcome(key, v string) (*Outcome, error) {
	var out Outcome
	if err := json.Unmarshal([]byte(v), &out); err != nil {
		return nil, fmt.Errorf("store: outcome of %s: %w", key, err)
	}
	return &out, nil
}

// Settle records the first caller's outcome (or, with ttl 0, forgets key)
// and then announces it to the callers waiting on any instance.
func (r *Redis) Settle(ctx context.Context, key string, out Outcome, ttl time.Duration) error {
	b, err := json.Marshal(out)
	if err != nil {
		return err
	}
	_, err = r.durable(ctx, func(p redis.Pipeliner) {
		if ttl > 0 {
			p.Set(ctx, r.onceKey(key), b, ttl)
		} else {
			p.Del(ctx, r.onceKey(key))
		}
	})
	if err != nil {
		return err
	}
	return r.c.Publish(ctx, r.onceDone(key), b).Err()
}

// Await listens for key's announcement before it looks at key, so that an
// outcome settled in between is not missed.
func (r *Redis) Await(ctx context.Context, key string) (*Outcome, error) {
	sub := r.c.Subscribe(ctx, r.onceDone(key))
	defer sub.Close()
	if _, err := sub.Receive(ctx); err != nil {
		return nil, err
	}
	if out, ok, err := r.outcome(ctx, key); err != nil || !ok || out != nil {
		return out, err
	}
	select {
	case m, ok := <-sub.Channel():
		if !ok {
			return nil, errors.New("store: once: subscription closed")
		}
		return decodeOutcome(key, m.Payload)
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Claimed tells whether key has been claimed.
func (r *Redis) Claimed(ctx context.Context, key string) (bool, error) {
	n, err := r.c.Exists(ctx, r.onceKey(key)).Result()
	return n > 0, err
}

// ---- leases (Leases) ----

// redisLeases are the Leases of a Redis; its own type, since a Redis is a
// Limiter too.
type redisLeases struct{ r *Redis }

// Leases are the order leases kept in this Redis.
func (r *Redis) Leases() Leases { return redisLeases{r} }

func (l redisLeases) key(key string) string { return l.r.prefix + "lease:" + key }

// Take takes key with SET NX PX: exactly one holder on any instance, for
// ttl at most, so that a crashed instance's lease ends by itself.
func (l redisLeases) Take(ctx context.Context, key, holder string, ttl time.Duration) (bool, string, error) {
	r := l.r
	for range 3 {
		var set *redis.StatusCmd
		var get *redis.StringCmd
		sent := 0
		_, err := r.durable(ctx, func(p redis.Pipeliner) {
			set = p.SetArgs(ctx, l.key(key), holder, redis.SetArgs{Mode: "NX", TTL: ttl})
			get = p.Get(ctx, l.key(key))
			sent++
		})
		if err != nil {
			return false, "", err
		}
		cur, err := get.Result()
		switch {
		case errors.Is(err, redis.Nil): // ended between the two commands
			continue
		case err != nil:
			return false, "", err
		}
		// Sent again after a lost answer, the first try may have taken it.
		return set.Err() == nil || sent > 1 && cur == holder, cur, nil
	}
	return false, "", errors.New("store: lease: taken and released again and again")
}

// releaseLease deletes a lease only while it is still the holder's.
var releaseLease = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`)

// Release ends holder's lease on key.
func (l redisLeases) Release(ctx context.Context, key, holder string) error {
	return releaseLease.Run(ctx, l.r.c, []string{l.key(key)}, holder).Err()
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
