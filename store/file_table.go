package store

import (
	"bufio"
	"context"
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
// entries) when the server starts. Lines are "key unix-seconds[ value]".
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
	for sc.Scan() {
		key, rest, ok := strings.Cut(sc.Text(), " ")
		until, value, _ := strings.Cut(rest, " ")
		sec, err := strconv.ParseInt(until, 10, 64)
		if !ok || err != nil || key == "" {
			continue
		}
		t.rows[key] = fileRow{value, time.Unix(sec, 0)}
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

func writeRow(w io.Writer, key string, r fileRow) (err error) {
	if r.value == "" {
		_, err = fmt.Fprintf(w, "%s %d\n", key, r.until.Unix())
	} else {
		_, err = fmt.Fprintf(w, "%s %d %s\n", key, r.until.Unix(), r.value)
	}
	return err
}

// put records key until, on disk before it answers, so that what the
// customer saw succeed survives a crash.
func (t *fileTable) put(key, value string, until time.Time) error {
	if key == "" || strings.ContainsAny(key, " \n") || strings.ContainsAny(value, " \n") {
		return fmt.Errorf("store: bad key or value")
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
func (r *FileRevoker) Revoked(_ context.Context, id string) (bool, error) {
	_, ok := r.get(id)
	return ok, nil
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
