package store

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// fileTable is a map of keys to values with an expiry, for one instance,
// that outlives a restart: kept in memory, every put appended to a file in
// the data folder, which is read (and rewritten without the expired
// entries) when the server starts. Lines are "key unix-seconds[ value]",
// key and value escaped (see escapeField) so that they may hold any text.
type fileTable struct {
	mu   sync.Mutex
	rows map[string]fileRow
	f    *os.File
	now  func() time.Time
	adds int // appends since the file was last compacted
}

type fileRow struct {
	value string
	until time.Time
}

// openFileTable opens (or creates) the file at path.
func openFileTable(path string, now func() time.Time) (*fileTable, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("store: folder of %s: %w", filepath.Base(path), err)
	}
	t := &fileTable{rows: map[string]fileRow{}, now: now}
	if err := t.load(path); err != nil {
		return nil, err
	}
	if err := t.compact(path); err != nil {
		return nil, err
	}
	return t, nil
}

// load reads the rows; a torn last line (a crash while writing) is skipped.
func (t *fileTable) load(path string) error {
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("store: read %s: %w", filepath.Base(path), err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 3*(MaxKey+maxRowValue)+64) // escaped, a field grows 3 times at most
	for sc.Scan() {
		key, rest, ok := strings.Cut(sc.Text(), " ")
		until, value, _ := strings.Cut(rest, " ")
		sec, err := strconv.ParseInt(until, 10, 64)
		if !ok || err != nil || key == "" {
			continue
		}
		t.rows[unescapeField.Replace(key)] = fileRow{unescapeField.Replace(value), time.Unix(sec, 0)}
	}
	return sc.Err()
}

// compact writes the live rows to a new file and puts it in place.
func (t *fileTable) compact(path string) error {
	now := t.now()
	fail := func(err error) error { return fmt.Errorf("store: write %s: %w", filepath.Base(path), err) }
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return fail(err)
	}
	w := bufio.NewWriter(f)
	for key, r := range t.rows {
		if r.until.After(now) {
			writeRow(w, key, r)
		} else {
			delete(t.rows, key)
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return fail(err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fail(err)
	}
	f.Close()
	if err := os.Rename(tmp, path); err != nil {
		return fail(err)
	}
	if t.f != nil {
		t.f.Close()
	}
	t.f, err = os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("store: open %s: %w", filepath.Base(path), err)
	}
	t.adds = 0
	return nil
}

// A line's fields are split at spaces and lines at newlines, so these (and
// the escape's own sign) are written escaped; anything else, Cyrillic
// included, is written as it is. Files written before values could hold a
// space have no "%" in them and read the same.
var (
	escapeField   = strings.NewReplacer("%", "%25", " ", "%20", "\n", "%0A", "\r", "%0D")
	unescapeField = strings.NewReplacer("%25", "%", "%20", " ", "%0A", "\n", "%0D", "\r")
)

// maxRowValue leaves room for what a store adds to a caller's value (an
// outcome's JSON around its message, in base64).
const maxRowValue = (MaxValue + 4<<10) * 4 / 3

func writeRow(w io.Writer, key string, r fileRow) (err error) {
	key = escapeField.Replace(key)
	if r.value == "" {
		_, err = fmt.Fprintf(w, "%s %d\n", key, r.until.Unix())
	} else {
		_, err = fmt.Fprintf(w, "%s %d %s\n", key, r.until.Unix(), escapeField.Replace(r.value))
	}
	return err
}

// put records key until, on disk before it answers, so that what the
// customer saw succeed survives a crash.
func (t *fileTable) put(key, value string, until time.Time) error {
	if key == "" || len(key) > MaxKey || len(value) > maxRowValue {
		return fmt.Errorf("store: a key of %d bytes or a value of %d bytes", len(key), len(value))
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	r := fileRow{value, until}
	if err := writeRow(t.f, key, r); err != nil {
		return fmt.Errorf("store: write %s: %w", filepath.Base(t.f.Name()), err)
	}
	if err := t.f.Sync(); err != nil {
		return fmt.Errorf("store: write %s: %w", filepath.Base(t.f.Name()), err)
	}
	t.rows[key] = r
	if t.adds++; t.adds >= 10_000 { // keep the file to the live rows
		if err := t.compact(t.f.Name()); err != nil {
			return err
		}
	}
	return nil
}

// get is key's value, if key is there and has not expired.
func (t *fileTable) get(key string) (string, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	r, ok := t.rows[key]
	if !ok || !r.until.After(t.now()) {
		return "", false
	}
	return r.value, true
}

// Close closes the file.
func (t *fileTable) Close() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.f.Close()
}

// openTable opens the fileTable at path as the store wrap makes of it.
func openTable[T any](path string, now func() time.Time, wrap func(*fileTable) *T) (*T, error) {
	t, err := openFileTable(path, now)
	if err != nil {
		return nil, err
	}
	return wrap(t), nil
}

// FileRevoker is a Revoker for one instance that outlives a
// restart: the deny-list of sign-outs in a fileTable.
type FileRevoker struct{ *fileTable }

// OpenFileRevoker opens (or creates) the deny-list file at path.
func OpenFileRevoker(path string, now func() time.Time) (*FileRevoker, error) {
	return openTable(path, now, func(t *fileTable) *FileRevoker { return &FileRevoker{t} })
}

// Revoke records id until its cookie would expire.
func (r *FileRevoker) Revoke(_ context.Context, id string, until time.Time) error {
	return r.put(id, "", until)
}

// Revoked tells whether id was signed out and has not expired yet.
func (r *FileRevoker) Revoked(_ context.Context, id string) (bool, error) { return r.has(id), nil }

// has tells whether key is there and has not expired.
func (t *fileTable) has(key string) bool {
	_, ok := t.get(key)
	return ok
}

// FileMoves is Moves for one instance that outlives a restart.
type FileMoves struct{ *fileTable }

// OpenFileMoves opens (or creates) the file of moves at path.
func OpenFileMoves(path string, now func() time.Time) (*FileMoves, error) {
	return openTable(path, now, func(t *fileTable) *FileMoves { return &FileMoves{t} })
}

// Moved records the first id of key.
func (m *FileMoves) Moved(_ context.Context, key, first string, until time.Time) error {
	if first == "" {
		return fmt.Errorf("store: moved: no first id")
	}
	return m.put(key, first, until)
}

// First is the first id of key, or "".
func (m *FileMoves) First(_ context.Context, key string) (string, error) {
	v, _ := m.get(key)
	return v, nil
}

// del forgets key, on disk too.
func (t *fileTable) del(key string) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, ok := t.rows[key]; !ok {
		return nil
	}
	if err := writeRow(t.f, key, fileRow{until: time.Unix(0, 0)}); err != nil { // expired: dropped when read
		return fmt.Errorf("store: write %s: %w", filepath.Base(t.f.Name()), err)
	}
	if err := t.f.Sync(); err != nil {
		return fmt.Errorf("store: write %s: %w", filepath.Base(t.f.Name()), err)
	}
	delete(t.rows, key)
	return nil
}

// row is key's value and expiry, if it has not expired.
func (t *fileTable) row(key string) (fileRow, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	r, ok := t.rows[key]
	return r, ok && r.until.After(t.now())
}

// FileOnce is a Once for one instance that outlives a restart: a one-time
// token used before a restart is still used after it, with its outcome. A
// claim is written with the time its work may take at most, so a crash
// during the work leaves the key claimed only that long.
type FileOnce struct {
	t       *fileTable
	mu      sync.Mutex // a check and its change are one step
	waiting map[string]*fileWait
}

// fileWait is a key claimed by this process: done is closed once out is set.
type fileWait struct {
	done chan struct{}
	out  *Outcome
}

// OpenFileOnce opens (or creates) the file of outcomes at path.
func OpenFileOnce(path string, now func() time.Time) (*FileOnce, error) {
	t, err := openFileTable(path, now)
	if err != nil {
		return nil, err
	}
	return &FileOnce{t: t, waiting: map[string]*fileWait{}}, nil
}

// Close closes the file.
func (o *FileOnce) Close() error { return o.t.Close() }

// A claimed key's value is "-" until its outcome, which is kept as base64
// JSON, as every earlier build keeps and reads it, so that a rollback
// reads the forms used under this one; plain JSON (which one build wrote)
// is read too.
const fileClaimed = "-"

func encodeOutcome(out Outcome) (string, error) {
	b, err := json.Marshal(out)
	return base64.RawURLEncoding.EncodeToString(b), err
}

func (o *FileOnce) outcome(key string) (*Outcome, bool, error) {
	r, ok := o.t.row(key)
	if !ok || r.value == fileClaimed {
		return nil, ok, nil
	}
	v := r.value
	if !strings.HasPrefix(v, "{") {
		b, err := base64.RawURLEncoding.DecodeString(v)
		if err != nil {
			return nil, true, fmt.Errorf("store: outcome of %s: %w", key, err)
		}
		v = string(b)
	}
	out, err := decodeOutcome(key, v)
	return out, true, err
}

// Claim takes key for ttl when it is not claimed.
func (o *FileOnce) Claim(_ context.Context, key string, ttl time.Duration) (bool, *Outcome, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	out, ok, err := o.outcome(key)
	if err != nil || ok {
		return false, out, err
	}
	if err := o.t.put(key, fileClaimed, o.t.now().Add(ttl)); err != nil {
		return false, nil, err
	}
	o.waiting[key] = &fileWait{done: make(chan struct{})}
	return true, nil, nil
}

// Settle records out for ttl (with ttl 0 forgets key) and wakes the waiting.
func (o *FileOnce) Settle(_ context.Context, key string, out Outcome, ttl time.Duration) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	var err error
	if ttl > 0 {
		var v string
		if v, err = encodeOutcome(out); err == nil {
			err = o.t.put(key, v, o.t.now().Add(ttl))
		}
	} else {
		err = o.t.del(key)
	}
	if w := o.waiting[key]; w != nil {
		w.out = &out
		close(w.done)
		delete(o.waiting, key)
	}
	return err
}

// Await waits for key's outcome. A key claimed before a restart, whose
// work no one here runs, is waited for until its claim runs out.
func (o *FileOnce) Await(ctx context.Context, key string) (*Outcome, error) {
	o.mu.Lock()
	out, ok, err := o.outcome(key)
	w := o.waiting[key]
	r, _ := o.t.row(key)
	o.mu.Unlock()
	switch {
	case err != nil || !ok || out != nil:
		return out, err
	case w != nil:
		select {
		case <-w.done:
			return w.out, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	timer := time.NewTimer(r.until.Sub(o.t.now()))
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Claimed tells whether key is claimed.
func (o *FileOnce) Claimed(_ context.Context, key string) (bool, error) {
	_, ok := o.t.row(key)
	return ok, nil
}
