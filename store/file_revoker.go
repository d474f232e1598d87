package store

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// FileRevoker is a handlers.Revoker for one instance that outlives a
// restart: the deny-list is kept in memory and every sign-out is appended
// to a file in the data folder, which is read (and rewritten without the
// expired entries) when the server starts.
type FileRevoker struct {
	mu   sync.Mutex
	ids  map[string]time.Time
	f    *os.File
	now  func() time.Time
	adds int // appends since the file was last compacted
}

// OpenFileRevoker opens (or creates) the deny-list file at path.
func OpenFileRevoker(path string, now func() time.Time) (*FileRevoker, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("store: deny-list folder: %w", err)
	}
	r := &FileRevoker{ids: map[string]time.Time{}, now: now}
	if err := r.load(path); err != nil {
		return nil, err
	}
	if err := r.compact(path); err != nil {
		return nil, err
	}
	return r, nil
}

// load reads "id unix-seconds" lines; a torn last line (a crash while
// writing) is skipped.
func (r *FileRevoker) load(path string) error {
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("store: read deny-list: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		id, until, ok := strings.Cut(sc.Text(), " ")
		sec, err := strconv.ParseInt(until, 10, 64)
		if !ok || err != nil || id == "" {
			continue
		}
		r.ids[id] = time.Unix(sec, 0)
	}
	return sc.Err()
}

// compact writes the live entries to a new file and puts it in place.
func (r *FileRevoker) compact(path string) error {
	now := r.now()
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("store: write deny-list: %w", err)
	}
	w := bufio.NewWriter(f)
	for id, until := range r.ids {
		if until.After(now) {
			fmt.Fprintf(w, "%s %d\n", id, until.Unix())
		} else {
			delete(r.ids, id)
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("store: write deny-list: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("store: write deny-list: %w", err)
	}
	f.Close()
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("store: write deny-list: %w", err)
	}
	if r.f != nil {
		r.f.Close()
	}
	r.f, err = os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("store: open deny-list: %w", err)
	}
	r.adds = 0
	return nil
}

// Revoke records id until its cookie would expire, on disk before it
// answers, so that a sign-out the customer saw succeed survives a crash.
func (r *FileRevoker) Revoke(_ context.Context, id string, until time.Time) error {
	if id == "" || strings.ContainsAny(id, " \n") {
		return fmt.Errorf("store: revoke: bad session id")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, err := fmt.Fprintf(r.f, "%s %d\n", id, until.Unix()); err != nil {
		return fmt.Errorf("store: revoke: %w", err)
	}
	if err := r.f.Sync(); err != nil {
		return fmt.Errorf("store: revoke: %w", err)
	}
	r.ids[id] = until
	if r.adds++; r.adds >= 10_000 { // keep the file to the live entries
		if err := r.compact(r.f.Name()); err != nil {
			return err
		}
	}
	return nil
}

// Revoked tells whether id was signed out and has not expired yet.
func (r *FileRevoker) Revoked(_ context.Context, id string) (bool, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	until, ok := r.ids[id]
	return ok && until.After(r.now()), nil
}

// Close closes the file.
func (r *FileRevoker) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.f.Close()
}
