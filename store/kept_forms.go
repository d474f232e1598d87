package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// KeptForms keeps for a short while a form a customer sent after their
// session had ended, until they sign in again and land back on it. A key is
// a random id (the handlers' cookie names it), a value the handlers' record
// of the form: any value (see MaxValue); a document the form carried is
// kept apart, with the refund files. Take is one atomic step: of any number
// of parallel callers at most one gets the value, so a kept form is used
// once.
type KeptForms interface {
	// Keep puts value under key for ttl, replacing what was there.
	Keep(ctx context.Context, key, value string, ttl time.Duration) error
	// Take gives the value under key and forgets it; "" when nothing is
	// there (never kept, taken already, or expired).
	Take(ctx context.Context, key string) (string, error)
}

var errBadKept = errors.New("store: kept forms: an empty key or value, or one too long")

func checkKept(key, value string) error {
	if key == "" || len(key) > MaxKey || value == "" || len(value) > MaxValue {
		return errBadKept
	}
	return nil
}

// NewMemoryKeptForms makes KeptForms for one instance that forgets on restart.
func NewMemoryKeptForms(now func() time.Time) KeptForms {
	return &memoryKept{keys: newExpiring[string](), now: now}
}

type memoryKept struct {
	keys *expiring[string]
	now  func() time.Time
}

func (m *memoryKept) Keep(_ context.Context, key, value string, ttl time.Duration) error {
	if err := checkKept(key, value); err != nil {
		return err
	}
	now := m.now()
	m.keys.set(key, value, now.Add(ttl), now)
	return nil
}

func (m *memoryKept) Take(_ context.Context, key string) (string, error) {
	m.keys.mu.Lock()
	defer m.keys.mu.Unlock()
	v, ok := m.keys.get(key, m.now())
	if ok {
		m.keys.del(key)
	}
	return v, nil
}

// FileKeptForms is KeptForms for one instance that outlives a restart: a
// customer signing in while the server restarts still lands on their form.
type FileKeptForms struct{ *fileTable }

// OpenFileKeptForms opens (or creates) the file of kept forms at path.
func OpenFileKeptForms(path string, now func() time.Time) (*FileKeptForms, error) {
	return openTable(path, now, func(t *fileTable) *FileKeptForms { return &FileKeptForms{t} })
}

// Keep puts value under key for ttl.
func (f *FileKeptForms) Keep(_ context.Context, key, value string, ttl time.Duration) error {
	if err := checkKept(key, value); err != nil {
		return err
	}
	return f.put(key, value, f.now().Add(ttl))
}

// Take gives the value under key and forgets it, on disk too.
func (f *FileKeptForms) Take(_ context.Context, key string) (string, error) {
	return f.take(key)
}

// take is key's live value, forgotten in the same step.
func (t *fileTable) take(key string) (string, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	r, ok := t.rows[key]
	if !ok {
		return "", nil
	}
	delete(t.rows, key)
	if !r.until.After(t.now()) {
		return "", nil
	}
	if err := writeRow(t.f, key, fileRow{until: time.Unix(0, 0)}); err != nil { // expired: dropped when read
		return "", fmt.Errorf("store: write %s: %w", t.f.Name(), err)
	}
	if err := t.f.Sync(); err != nil {
		return "", fmt.Errorf("store: write %s: %w", t.f.Name(), err)
	}
	return r.value, nil
}

// KeptForms is the kept forms of several instances sharing r.
func (r *Redis) KeptForms() KeptForms { return redisKept{r} }

type redisKept struct{ r *Redis }

func (k redisKept) key(key string) string { return k.r.prefix + "kept-form:" + key }

// Keep puts value under key for ttl, on a replica too.
func (k redisKept) Keep(ctx context.Context, key, value string, ttl time.Duration) error {
	if err := checkKept(key, value); err != nil {
		return err
	}
	_, err := k.r.durable(ctx, func(p redis.Pipeliner) {
		p.Set(ctx, k.key(key), value, ttl)
	})
	if err != nil {
		return fmt.Errorf("store: kept forms: %w", err)
	}
	return nil
}

// Take gives the value under key and forgets it (GETDEL: one step).
func (k redisKept) Take(ctx context.Context, key string) (string, error) {
	v, err := k.r.c.GetDel(ctx, k.key(key)).Result()
	if errors.Is(err, redis.Nil) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("store: kept forms: %w", err)
	}
	return v, nil
}
