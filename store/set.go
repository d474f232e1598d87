package store

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"syscall"
	"time"
)

// Set is everything the handlers keep beyond a request, as one setup keeps
// it: in memory, in the data folder (the default for one instance) or in
// Redis (several instances).
type Set struct {
	Revoker Revoker
	Once    Once
	Leases  Leases
	Files   RefundFiles
	Moves   Moves
	Acts    Acts
	Numbers Numbers
	Limiter Limiter
	Kept    KeptForms
	// Ping tells whether the setup can keep what it is given: Redis
	// answers as a master, the data folder has room. nil: nothing to ask.
	Ping  func(context.Context) error
	close []func() error
}

// Close closes what the set opened.
func (s Set) Close() error {
	var errs []error
	for _, c := range s.close {
		errs = append(errs, c())
	}
	return errors.Join(errs...)
}

// Memory is a set for one instance that forgets everything on a restart,
// its refund files within limit bytes.
func Memory(now func() time.Time, limit int) Set {
	return Set{Revoker: NewMemoryRevoker(now), Once: NewMemoryOnce(now), Leases: NewMemoryLeases(now),
		Files: NewMemoryRefundFilesWithin(now, limit), Moves: NewMemoryMoves(now), Acts: NewMemoryActs(now), Numbers: NewMemoryNumbers(now), Limiter: NewMemoryLimiter(),
		Kept: NewMemoryKeptForms(now)}
}

// InRedis is the set of several instances sharing r, refund files within
// limit bytes.
func InRedis(r *Redis, limit int) Set {
	return Set{Revoker: r, Once: r, Leases: r.Leases(), Files: r.FilesWithin(limit), Moves: r, Acts: r, Numbers: r, Limiter: r, Kept: r.KeptForms(), Ping: r.Ping}
}

// Folder is the set of one instance that outlives a restart: sign-outs,
// moved bookings, used action tokens with their outcomes, what customers
// did to their orders, the numbers whose codes were entered and the forms
// kept for a sign-in in files of the folder Dir; sign-in limits, leases and refund files (within
// KeptDocuments bytes) in memory.
type Folder struct {
	Dir           string
	Now           func() time.Time
	KeptDocuments int
	// MinFree is the room the folder needs to be ready (DefaultMinFree
	// when 0): below it a sign-out or a used form may not be kept.
	MinFree uint64
}

// DefaultMinFree is the room a data folder needs to be ready: thousands of
// sign-outs and forms, and the sandbox's database growing meanwhile.
const DefaultMinFree = 16 << 20

// Open opens the folder's files.
func (f Folder) Open() (Set, error) {
	if err := checkFolderFormat(f.Dir); err != nil {
		return Set{}, err
	}
	s := Memory(f.Now, f.KeptDocuments)
	fr, err := OpenFileRevoker(filepath.Join(f.Dir, "revoked-sessions"), f.Now)
	if err != nil {
		return Set{}, err
	}
	s.Revoker, s.close = fr, append(s.close, fr.Close)
	fm, err := OpenFileMoves(filepath.Join(f.Dir, "moved-bookings"), f.Now)
	if err != nil {
		s.Close()
		return Set{}, err
	}
	s.Moves, s.close = fm, append(s.close, fm.Close)
	// One-time action tokens and their outcomes: a form used before a
	// restart is not used again after it.
	fo, err := OpenFileOnce(filepath.Join(f.Dir, "action-outcomes"), f.Now)
	if err != nil {
		s.Close()
		return Set{}, err
	}
	s.Once, s.close = fo, append(s.close, fo.Close)
	// What customers did to their orders: still said after a restart.
	fa, err := OpenFileActs(filepath.Join(f.Dir, "order-acts"), f.Now)
	if err != nil {
		s.Close()
		return Set{}, err
	}
	s.Acts, s.close = fa, append(s.close, fa.Close)
	// Numbers whose codes were entered: customers are no strangers after a restart.
	fn, err := OpenFileNumbers(filepath.Join(f.Dir, "confirmed-numbers"), f.Now)
	if err != nil {
		s.Close()
		return Set{}, err
	}
	s.Numbers, s.close = fn, append(s.close, fn.Close)
	// Forms sent after their session ended: still there for the sign-in
	// after a restart (their documents are kept with the refund files).
	fk, err := OpenFileKeptForms(filepath.Join(f.Dir, "kept-forms"), f.Now)
	if err != nil {
		s.Close()
		return Set{}, err
	}
	s.Kept, s.close = fk, append(s.close, fk.Close)
	s.Ping = f.Room
	return s, nil
}

// ErrFolderFull is a data folder with less room than it needs.
var ErrFolderFull = errors.New("store: the data folder is full")

// Room tells whether the folder has the room it needs.
func (f Folder) Room(context.Context) error {
	var st syscall.Statfs_t
	if err := syscall.Statfs(f.Dir, &st); err != nil {
		return fmt.Errorf("store: data folder %s: %w", f.Dir, err)
	}
	min := f.MinFree
	if min == 0 {
		min = DefaultMinFree
	}
	if free := st.Bavail * uint64(st.Bsize); free < min {
		return fmt.Errorf("%w: %s has %d bytes free, needs %d", ErrFolderFull, f.Dir, free, min)
	}
	return nil
}
