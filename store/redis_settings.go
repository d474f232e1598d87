package store

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/redis/go-redis/v9"
)

// ErrNotDurable is a Redis whose settings lose what must outlive its
// restart: sign-outs, sign-in limits, one-time tokens and their outcomes.
var ErrNotDurable = errors.New("store: Redis would lose sign-outs")

// Persistence is how a Redis keeps its data, as its CONFIG GET tells.
type Persistence struct {
	AppendOnly string // "yes": every write goes to the append-only file
	Fsync      string // appendfsync: always, everysec or no
	Policy     string // maxmemory-policy
}

// Check refuses the settings under which a sign-out can silently come
// back. Without the append-only file a restart loses every write since the
// last snapshot, or everything when snapshots are off. Every key the
// store writes has a time to live, so any evicting maxmemory-policy
// (volatile-* as much as allkeys-*) drops sign-outs when memory runs out;
// with noeviction Redis refuses the write instead, and the customer is
// told the sign-out did not happen.
func (p Persistence) Check() error {
	var bad []string
	if p.AppendOnly != "yes" {
		bad = append(bad, "appendonly is "+quoteOrNone(p.AppendOnly)+", not yes")
	}
	if p.Policy != "noeviction" {
		bad = append(bad, "maxmemory-policy is "+quoteOrNone(p.Policy)+", not noeviction")
	}
	if len(bad) > 0 {
		return fmt.Errorf("%w after a restart or when its memory is full: %s (run it with --appendonly yes --appendfsync always --maxmemory-policy noeviction)",
			ErrNotDurable, strings.Join(bad, "; "))
	}
	return nil
}

func quoteOrNone(s string) string {
	if s == "" {
		return "unset"
	}
	return s
}

// Persistence reads the settings with CONFIG GET, one at a time (Redis
// before 7 takes one name per call). A managed Redis may refuse CONFIG:
// the error says so.
func (r *Redis) Persistence(ctx context.Context) (Persistence, error) {
	get := func(name string) (string, error) {
		m, err := r.c.ConfigGet(ctx, name).Result()
		if err != nil {
			return "", fmt.Errorf("store: CONFIG GET %s: %w", name, err)
		}
		return m[name], nil
	}
	var p Persistence
	var err error
	if p.AppendOnly, err = get("appendonly"); err != nil {
		return p, err
	}
	if p.Fsync, err = get("appendfsync"); err != nil {
		return p, err
	}
	p.Policy, err = get("maxmemory-policy")
	return p, err
}

// CheckAtStart looks at Redis once when the server starts. Settings that
// lose sign-outs are an error that names them, and the server does not
// start. A Redis that does not answer yet, or refuses CONFIG, is only
// warned about: the server then serves and waits for it, and the operator
// answers for its settings.
func (r *Redis) CheckAtStart(ctx context.Context, log *slog.Logger) error {
	if err := r.Ping(ctx); errors.Is(err, ErrNotMaster) {
		log.Error("LK_REDIS_URL names a Redis replica: /readyz answers 503 and sign-ins and forms say 'попробуйте позже' until it is a master", "err", err)
		return nil
	} else if err != nil {
		log.Warn("Redis does not answer yet: sign-in and account pages wait for it; its persistence is not checked", "err", err)
		return nil
	}
	if err := r.CheckFormat(ctx); err != nil {
		return fmt.Errorf("%w: start that build, or a newer one, on it (docs/operations.md, Rollbacks)", err)
	}
	p, err := r.Persistence(ctx)
	if err != nil {
		log.Warn("cannot read Redis's persistence settings: make sure it runs with appendonly yes and maxmemory-policy noeviction, or sign-outs may come back after its restart", "err", err)
		return nil
	}
	if err := p.Check(); err != nil {
		return err
	}
	// Writes that must not be lost wait for a replica when there is one:
	// with Sentinel always (it promotes replicas), with one server when
	// it has replicas now.
	n, err := r.connectedReplicas(ctx)
	if err != nil {
		log.Warn("cannot read Redis's replicas (INFO replication)", "err", err)
	}
	r.replicas.Store(n > 0)
	if r.sentinel || n > 0 {
		log.Info("sign-outs and used forms wait for a replica's acknowledgement (WAIT) before they are reported done", "replicas", n, "sentinel", r.sentinel)
	}
	if p.Fsync == "no" {
		// The file is written before each answer but flushed to disk when
		// the system likes: Redis's own crash loses nothing, the machine's
		// loses up to about 30 s of sign-outs.
		log.Warn("Redis runs with appendfsync no: a crash of its machine can lose the last sign-outs; appendfsync always keeps each one on disk before it is reported", "appendfsync", p.Fsync)
	}
	log.Info("Redis keeps its data on disk", "appendonly", p.AppendOnly, "appendfsync", p.Fsync, "maxmemory_policy", p.Policy)
	return nil
}

// LogRedis sends go-redis's own messages (a connection pool that cannot
// dial, a connection dropped with unread data) to log as warnings, instead
// of go-redis's plain lines on standard error, so every line the server
// writes is JSON. go-redis keeps one logger for the whole process: this is
// called once, before the first connection.
func LogRedis(log *slog.Logger) { redis.SetLogger(redisLog{log}) }

type redisLog struct{ log *slog.Logger }

func (l redisLog) Printf(ctx context.Context, format string, v ...any) {
	msg := strings.TrimPrefix(fmt.Sprintf(format, v...), "redis: ")
	l.log.WarnContext(ctx, msg, "component", "redis")
}
