package store

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// Numbers remembers which phone numbers are a customer's: those to which a
// code was sent and then entered. A number is known by its keyed tag, never
// the number itself, as the sign-in limits know it. Codes to a number not
// yet confirmed come from the share of the SMS budget that sign-ups may
// spend, so that numbers an SMS pump registered cannot spend the share kept
// for customers.
type Numbers interface {
	// Confirm keeps tag until then, replacing an earlier expiry.
	Confirm(ctx context.Context, tag string, until time.Time) error
	// Confirmed tells whether tag is kept and has not expired.
	Confirmed(ctx context.Context, tag string) (bool, error)
}

// NewMemoryNumbers makes Numbers for one instance that forgets on restart.
func NewMemoryNumbers(now func() time.Time) Numbers {
	return &memoryMarks{keys: newExpiring[string](), now: now}
}

// Confirm and Confirmed keep tags as a Revoker keeps ids.
func (m *memoryMarks) Confirm(ctx context.Context, tag string, until time.Time) error {
	return m.Revoke(ctx, tag, until)
}

func (m *memoryMarks) Confirmed(ctx context.Context, tag string) (bool, error) {
	return m.Revoked(ctx, tag)
}

// FileNumbers is Numbers for one instance that outlives a restart: a
// customer is not taken for a stranger after one.
type FileNumbers struct{ *fileTable }

// OpenFileNumbers opens (or creates) the file of confirmed numbers at path.
func OpenFileNumbers(path string, now func() time.Time) (*FileNumbers, error) {
	return openTable(path, now, func(t *fileTable) *FileNumbers { return &FileNumbers{t} })
}

// Confirm keeps tag until then.
func (n *FileNumbers) Confirm(_ context.Context, tag string, until time.Time) error {
	return n.put(tag, "", until)
}

// Confirmed tells whether tag is kept.
func (n *FileNumbers) Confirmed(_ context.Context, tag string) (bool, error) { return n.has(tag), nil }

// ---- confirmed numbers (Numbers) ----

// Confirm keeps tag until then; losing it in a failover costs a customer no
// more than a share of the budget, so no replica is waited for.
func (r *Redis) Confirm(ctx context.Context, tag string, until time.Time) error {
	return r.c.SetArgs(ctx, r.prefix+"confirmed:"+tag, "1", redis.SetArgs{ExpireAt: until}).Err()
}

// Confirmed tells whether tag is kept.
func (r *Redis) Confirmed(ctx context.Context, tag string) (bool, error) {
	n, err := r.c.Exists(ctx, r.prefix+"confirmed:"+tag).Result()
	return n > 0, err
}
