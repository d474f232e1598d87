package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/redis/go-redis/v9"

	"lk/store/redistest"
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

// A build started on a data folder or a Redis of a newer build refuses at
// start, saying so and naming the variable, rather than misreading the
// forms used under the newer build.
func TestStartOnANewerBuildsStateIsRefused(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "format"), []byte("2\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	err := run(context.Background(), []string{"lk"}, env(map[string]string{"LK_ADDR": "127.0.0.1:0", "LK_SANDBOX_ADDR": "127.0.0.1:0", "LK_DATA_DIR": dir}), io.Discard)
	if err == nil || !strings.Contains(err.Error(), "LK_DATA_DIR: the data folder") || !strings.Contains(err.Error(), "newer build") {
		t.Errorf("a newer build's data folder: %v", err)
	}
	srv := redistest.Start(t, redistest.Durable...)
	r := srv.Open()
	if err := r.CheckFormat(context.Background()); err != nil {
		t.Fatal(err)
	}
	raw := redis.NewClient(&redis.Options{Addr: srv.Addr()})
	defer raw.Close()
	raw.Set(context.Background(), "lk:format", "2", 0)
	err = run(context.Background(), []string{"lk"}, env(map[string]string{"LK_ADDR": "127.0.0.1:0", "LK_SANDBOX_ADDR": "127.0.0.1:0",
		"LK_DATA_DIR": t.TempDir(), "LK_REDIS_URL": srv.URL()}), io.Discard)
	if err == nil || !strings.Contains(err.Error(), "LK_REDIS_URL") || !strings.Contains(err.Error(), "newer build") {
		t.Errorf("a newer build's Redis: %v", err)
	}
}
