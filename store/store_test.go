package store_test

import (
	"context"
	"testing"
	"time"

	"lk/store"
)

// A sign-out outlives a restart of the embedded default: the deny-list is
// read back from the data folder, without the entries that expired.
func TestFileRevokerSurvivesRestart(t *testing.T) {
	ctx := context.Background()
	path := tempFile(t, "revoked")
	now := time.Now()
	clock := func() time.Time { return now }
	r, err := store.OpenFileRevoker(path, clock)
	if err != nil {
		t.Fatal(err)
	}
	_ = r.Revoke(ctx, "live", now.Add(time.Hour))
	_ = r.Revoke(ctx, "short", now.Add(time.Minute))
	r.Close()

	now = now.Add(2 * time.Minute) // "short" has expired meanwhile
	r, err = store.OpenFileRevoker(path, clock)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if got, _ := r.Revoked(ctx, "live"); !got {
		t.Error("a sign-out was forgotten by the restart")
	}
	if got, _ := r.Revoked(ctx, "short"); got {
		t.Error("an expired entry came back")
	}
}

// The first ids of moved bookings outlive a restart too, with the
// revoker's file format plus a value (any value: see
// TestFileStoresKeepAnyValueOverARestart).
func TestFileMovesSurviveRestart(t *testing.T) {
	ctx := context.Background()
	path := tempFile(t, "moved")
	m, err := store.OpenFileMoves(path, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	_ = m.Moved(ctx, "pavilion-9", "7", time.Now().Add(time.Hour))
	m.Close()
	m, err = store.OpenFileMoves(path, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if got, _ := m.First(ctx, "pavilion-9"); got != "7" {
		t.Errorf("after a restart: %q, want 7", got)
	}
}

// Redis stopped: every operation says so (the handlers then refuse rather
// than guess), and works again by itself once Redis is back.
func TestRedisOutageAndRecovery(t *testing.T) {
	ctx := context.Background()
	r, srv := openRedis(t)
	if err := r.Revoke(ctx, "s", time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	srv.Stop()
	if err := r.Ping(ctx); err == nil {
		t.Fatal("ping answered with Redis stopped")
	}
	if _, err := r.Revoked(ctx, "s"); err == nil {
		t.Error("Revoked answered with Redis stopped")
	}
	if _, _, err := r.Claim(ctx, "k", time.Minute); err == nil {
		t.Error("Claim answered with Redis stopped")
	}
	srv.Restart()
	deadline := time.Now().Add(5 * time.Second)
	for r.Ping(ctx) != nil {
		if time.Now().After(deadline) {
			t.Fatal("no recovery after Redis came back")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if first, _, err := r.Claim(ctx, "k", time.Minute); !first || err != nil {
		t.Errorf("after recovery: first %v, err %v", first, err)
	}
}
