package store

import (
	"context"
	"errors"
	"slices"
	"time"
)

// What every store takes, whatever keeps it (memory, the data folder,
// Redis): a key is any non-empty text of at most MaxKey bytes, a value any
// text of at most MaxValue bytes: spaces, newlines, Cyrillic and long ids
// included. A key or value a store cannot keep as it is, it encodes; it
// never refuses one within these bounds.
const (
	MaxKey   = 1 << 10
	MaxValue = 64 << 10
)

// Limiter counts events (a code sent, a code entered) under keys in sliding
// windows, so that the sign-in limits hold however many requests arrive at
// once: a limit is taken before the provider is called, in one atomic step
// with its check, and given back when what it was taken for did not happen
// (the provider failed, the code was right).
type Limiter interface {
	// Take checks every rule and, only when all of them allow one more
	// event, records one event under each rule's key, as one step. It
	// returns a *Refusal (the first rule that refused) or a store failure.
	Take(ctx context.Context, now time.Time, rules ...Rule) (Hold, error)
	// Release removes the events a Take recorded; removing what is gone
	// already (released, cleared, expired) is no error.
	Release(ctx context.Context, h Hold) error
	// Clear forgets every event under the keys.
	Clear(ctx context.Context, keys ...string) error
	// Wait is how long until rule allows one more event; 0 when it does.
	Wait(ctx context.Context, now time.Time, rule Rule) (time.Duration, error)
}

// Rule is one limit: at most Max events under Key (any key, see MaxKey)
// within Window.
type Rule struct {
	Name   string // which limit, for metrics, logs and the customer's message
	Key    string // what is counted, e.g. "wrong:s:79001234567"
	Max    int
	Window time.Duration
}

// Hold is the events one Take recorded: one per key, all with the id ID.
// Counts[i] is how many events Keys[i] held within its window once this
// one was added, so that a caller sees a budget filling as it fills.
type Hold struct {
	ID     string
	Keys   []string
	Counts []int
}

// Except is h without the events under the given keys.
func (h Hold) Except(keys ...string) Hold {
	out := Hold{ID: h.ID}
	for _, k := range h.Keys {
		if !slices.Contains(keys, k) {
			out.Keys = append(out.Keys, k)
		}
	}
	return out
}

// Refusal says which limit refused and when to try again.
type Refusal struct {
	Limit      string        // the rule's name: phone_interval, phone_window, ip_window, code_attempts, phone_wrong, …
	RetryAfter time.Duration // 0 when only something else (a new code) helps
	Message    string        // Russian, for the customer; set by the handler
	Class      string        // for a budget's refusal, who asked; set by the handler
}

func (r *Refusal) Error() string { return "sign-in limit " + r.Limit }

// Outcome is what became of something done once per key: for an order
// action, a success goes on to Location and shows Message there once; a
// failure shows Message on the form again with Status.
type Outcome struct {
	Status   int    `json:"s"`
	Location string `json:"l,omitempty"`
	Message  string `json:"m,omitempty"`
	// Unknown: the provider did not answer in time, so the work may have
	// been done; Message is shown with the order as it is now, and the
	// same form is not tried again.
	Unknown bool `json:"u,omitempty"`
}

// Succeeded tells a success from a failure.
func (o Outcome) Succeeded() bool { return o.Location != "" }

// Once remembers what became of work done once per key (a one-time action
// token, a sign-in code), so that a repeat never does the work again and
// gets the first outcome. Claim is one atomic step: of any number of
// parallel callers exactly one is first. Keys are any key (see MaxKey); an
// Outcome's Message and Location any value.
type Once interface {
	// Claim takes key for ttl. first is true for the first caller only;
	// later callers get the first one's outcome, or nil while it still runs.
	Claim(ctx context.Context, key string, ttl time.Duration) (first bool, out *Outcome, err error)
	// Settle records the first caller's outcome for ttl and hands it to
	// everyone waiting. With ttl 0 it is handed over and key forgotten, so
	// that the next Claim is first again (work that may be tried again).
	Settle(ctx context.Context, key string, out Outcome, ttl time.Duration) error
	// Await waits until key is settled and gives its outcome; nil when key
	// is not claimed any more.
	Await(ctx context.Context, key string) (*Outcome, error)
	// Claimed tells, without taking it, whether key has been claimed.
	Claimed(ctx context.Context, key string) (bool, error)
}

// ErrNotKept says that work ran and its outcome is good, but it could not be
// recorded for those who come later.
var ErrNotKept = errors.New("store: outcome not kept")

// Do runs work at most once per key among everyone sharing o. The first
// caller runs it with a context that its own caller giving up does not
// cancel (work once started is seen to its end, so its outcome is known);
// the others wait for that outcome, at most until ctx ends, and share it.
// keep says how long an outcome stays for later callers; 0 gives it only to
// those already waiting. When the outcome ran but was not recorded, Do
// returns it with an error wrapping ErrNotKept.
func Do(ctx context.Context, o Once, key string, claim time.Duration, keep func(Outcome) time.Duration, work func(context.Context) Outcome) (Outcome, error) {
	for {
		first, out, err := o.Claim(ctx, key, claim)
		switch {
		case err != nil:
			return Outcome{}, err
		case first:
			done := context.WithoutCancel(ctx)
			res := work(done)
			if err := o.Settle(done, key, res, keep(res)); err != nil {
				return res, errors.Join(ErrNotKept, err)
			}
			return res, nil
		case out != nil:
			return *out, nil
		}
		if out, err = o.Await(ctx, key); err != nil {
			return Outcome{}, err
		}
		if out != nil {
			return *out, nil
		}
	}
}

// Leases let one piece of work at a time run on a key (an order) among
// everyone sharing them, across instances. A lease ends when its holder
// releases it or, should the holder crash, when its time is up, so that
// nothing stays locked for longer than the work could take. Keys and
// holders are any key (see MaxKey).
type Leases interface {
	// Take gives key to holder for ttl, in one atomic step, when nobody
	// holds it; otherwise taken is false and current names the holder.
	Take(ctx context.Context, key, holder string, ttl time.Duration) (taken bool, current string, err error)
	// Release ends holder's lease on key; a lease that has ended or passed
	// to another is left alone.
	Release(ctx context.Context, key, holder string) error
}

// RefundFile is a document a customer attached to a refund: its bytes and
// the name the browser gave it. The name is only ever sent to the provider
// as file_name and shown to the same session; it is never a path.
type RefundFile struct {
	ID   string // random, for the remove button
	Name string
	Size int    // the bytes' length
	Sum  string // the bytes' SHA-256 (hex): the same document under another name is one document
	Data []byte // nil in a List: bytes are read only to send them
}

// RefundFiles keeps the documents of a refund that was refused or failed,
// for a while, so that the customer does not choose them again. A key is
// one session's refund of one order; its owner is the customer, whose keys
// together hold at most what one refund may send, whatever their sessions.
// The whole store holds at most its ceiling. Every limit is checked in the
// same atomic step that keeps the bytes. Owners and keys are any key (see
// MaxKey), a file's name any value; its bytes are bounded by
// RefundBytesPerKey alone.
type RefundFiles interface {
	// Put adds f under key, owned by owner, and keeps the key for ttl from
	// now. Putting the same name and bytes again returns the file already
	// kept. It fails with ErrRefundFilesFull when the key or its owner has
	// no room left, with ErrRefundStoreFull when the store has none.
	Put(ctx context.Context, owner, key string, f RefundFile, ttl time.Duration) (RefundFile, error)
	// List gives the names and sizes of the files kept under key, in the
	// order they were put, without their bytes: what a page shows.
	List(ctx context.Context, key string) ([]RefundFile, error)
	// Read gives the files kept under key with their bytes: what a refund
	// sends.
	Read(ctx context.Context, key string) ([]RefundFile, error)
	// Remove forgets one file; an unknown id is no error.
	Remove(ctx context.Context, key, id string) error
	// Clear forgets every file of key.
	Clear(ctx context.Context, key string) error
}

// What a key of RefundFiles may hold: what one refund may send. An owner
// holds at most RefundBytesPerKey over all their keys.
const (
	RefundFilesPerKey = 10
	RefundBytesPerKey = 25 << 20
)

// RefundStoreLimit is what a store keeps for everyone unless told
// otherwise: one instance's memory, or one Redis.
const RefundStoreLimit = 64 << 20

// ErrRefundFilesFull is a Put beyond what a key or a customer may hold.
var ErrRefundFilesFull = errors.New("store: refund files: no room left")

// ErrRefundStoreFull is a Put beyond what the whole store may hold.
var ErrRefundStoreFull = errors.New("store: refund files: the store is full")

// Moves remembers the first id of a booking the provider gave a new id
// when it moved (a lesson or a rent), so that its calendar event keeps one
// UID along any chain of moves, and an old link finds where its booking
// went. Keys and values are any key and value (see MaxKey): the handlers
// write "{kind}-{id}" → first id and "next-{kind}-{id}" → "{new id} {owner
// mark}".
type Moves interface {
	// Moved records that the booking key was first the booking first,
	// until a time when no calendar file is offered for it any more.
	Moved(ctx context.Context, key, first string, until time.Time) error
	// First is the first id of key, or "" when key was never moved to.
	First(ctx context.Context, key string) (string, error)
}

// Revoker remembers signed-out sessions until they would have expired, so
// a replayed cookie no longer opens the account. An error means the store
// could not answer: the session is then not let in. Ids are any key (see
// MaxKey).
type Revoker interface {
	Revoke(ctx context.Context, id string, until time.Time) error
	Revoked(ctx context.Context, id string) (bool, error)
}
