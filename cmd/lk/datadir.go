package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// lockDataDir takes the data folder for this process alone: two servers
// on one folder would each keep their own copy of the sign-outs and used
// forms and write over the other's, and two sandboxes would share one
// SQLite file. The lock is an flock on the folder's "lock" file, which the
// kernel drops when the process ends however it ends, so a crash leaves
// nothing to clean up. The file holds the holder's process id, for the
// error of the next one. The returned function lets the folder go.
func lockDataDir(dir string) (func(), error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("LK_DATA_DIR: %w", err)
	}
	path := filepath.Join(dir, "lock")
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("LK_DATA_DIR: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		holder := ""
		if b, _ := os.ReadFile(path); len(b) > 0 {
			holder = " (process " + strings.TrimSpace(string(b)) + ")"
		}
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			abs, _ := filepath.Abs(dir)
			return nil, fmt.Errorf("LK_DATA_DIR: the folder %s is in use by another lk%s; give each process a folder of its own", abs, holder)
		}
		return nil, fmt.Errorf("LK_DATA_DIR: lock %s: %w", path, err)
	}
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return func() { f.Close() }, nil // closing the file drops the lock
}

// lockDataDir locks LK_DATA_DIR when the configuration uses it (the
// sandbox's database, or the state kept without Redis); else it is nothing.
func (c config) lockDataDir() (unlock func(), err error) {
	if !c.usesDataDir() {
		return func() {}, nil
	}
	return lockDataDir(c.DataDir)
}
