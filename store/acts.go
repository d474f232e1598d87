package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// Acts remembers for a while what a customer did to an order in the
// account (cancelled it, asked for its refund, moved it), so that the
// order's page can still say so once the provider stops listing it, and a
// form sent from another tab is told what became of the order. A key names
// the customer and the order ("{owner}:{kind}-{id}", owner a digest of the
// client's id, never the id itself), or the customer's mark of writes
// ("{owner}:writes", replaced at each write so that every instance knows
// of it); a value is the handlers' short record, without spaces or line
// breaks.
type Acts interface {
	// Record keeps act under key until then, replacing what was there.
	Record(ctx context.Context, key, act string, until time.Time) error
	// Recall is what was recorded under key, or "" when nothing is.
	Recall(ctx context.Context, key string) (string, error)
}

var errBadAct = errors.New("store: acts: an empty record, or one with spaces")

func checkAct(act string) error {
	if act == "" || strings.ContainsAny(act, " \n\r") {
		return errBadAct
	}
	return nil
}

// NewMemoryActs makes Acts for one instance that forgets on restart.
func NewMemoryActs(now func() time.Time) Acts {
	return &memoryMarks{keys: newExpiring[string](), now: now}
}

func (m *memoryMarks) Record(_ context.Context, key, act string, until time.Time) error {
	if err := checkAct(act); err != nil {
		return err
	}
	m.keys.set(key, act, until, m.now())
	return nil
}

func (m *memoryMarks) Recall(_ context.Context, key string) (string, error) {
	act, _ := m.keys.lookup(key, m.now())
	return act, nil
}

// FileActs is Acts for one instance that outlives a restart: what the
// customer saw done is still said after it.
type FileActs struct{ *fileTable }

// OpenFileActs opens (or creates) the file of acts at path.
func OpenFileActs(path string, now func() time.Time) (*FileActs, error) {
	return openTable(path, now, func(t *fileTable) *FileActs { return &FileActs{t} })
}

// Record keeps act under key until then.
func (f *FileActs) Record(_ context.Context, key, act string, until time.Time) error {
	if err := checkAct(act); err != nil {
		return err
	}
	return f.put(key, act, until)
}

// Recall is what was recorded under key, or "".
func (f *FileActs) Recall(_ context.Context, key string) (string, error) {
	v, _ := f.get(key)
	return v, nil
}

// ---- what customers did to their orders (Acts) ----

// Record keeps act under key until then, on a replica too.
func (r *Redis) Record(ctx context.Context, key, act string, until time.Time) error {
	if err := checkAct(act); err != nil {
		return err
	}
	if !until.After(time.Now()) {
		return nil
	}
	_, err := r.durable(ctx, func(p redis.Pipeliner) {
		p.SetArgs(ctx, r.prefix+"acts:"+key, act, redis.SetArgs{ExpireAt: until})
	})
	if err != nil {
		return fmt.Errorf("store: acts: %w", err)
	}
	return nil
}

// Recall is what was recorded under key, or "".
func (r *Redis) Recall(ctx context.Context, key string) (string, error) {
	v, err := r.c.Get(ctx, r.prefix+"acts:"+key).Result()
	if errors.Is(err, redis.Nil) {
		return "", nil
	}
	return v, err
}
