package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A server that cannot start because its data folder is full says so, and
// which folder: the write that failed is a store's (here as the kernel
// reports a full disk), the message the operator's.
func TestFullDataFolderAtStartNamesTheCause(t *testing.T) {
	dir := t.TempDir()
	write := &os.PathError{Op: "write", Path: filepath.Join(dir, "revoked-sessions.tmp"), Err: syscall.ENOSPC}
	err := dataDirError(dir, fmt.Errorf("store: write revoked-sessions: %w", write))
	msg := err.Error()
	for _, want := range []string{"LK_DATA_DIR", "the data folder " + dir + " is full", "free some space", "no space left on device"} {
		if !strings.Contains(msg, want) {
			t.Errorf("%q missing from %q", want, msg)
		}
	}
	if !errors.Is(err, syscall.ENOSPC) {
		t.Error("the cause is not kept")
	}
	other := errors.New("store: read revoked-sessions: permission denied")
	if got := dataDirError(dir, other); got != other {
		t.Errorf("another failure reworded: %v", got)
	}
}
