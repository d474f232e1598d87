package store_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"lk/store"
)

// A data folder carries the format of what it holds: a folder of an
// earlier build (none marked) opens and is marked; one marked by a newer
// build is refused at start, named as such.
func TestDataFolderFormat(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "revoked-sessions"), []byte("old 4102444800\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := store.Folder{Dir: dir, Now: time.Now}.Open()
	if err != nil {
		t.Fatalf("an earlier build's folder: %v", err)
	}
	if ok, _ := s.Revoker.Revoked(context.Background(), "old"); !ok {
		t.Error("an earlier build's sign-out is not read")
	}
	s.Close()
	if b, _ := os.ReadFile(filepath.Join(dir, "format")); strings.TrimSpace(string(b)) != "1" {
		t.Errorf("format file %q, want 1", b)
	}
	if err := os.WriteFile(filepath.Join(dir, "format"), []byte("2\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := (store.Folder{Dir: dir, Now: time.Now}).Open(); !errors.Is(err, store.ErrNewerFormat) || !strings.Contains(err.Error(), "format 2") {
		t.Errorf("a newer build's folder: %v", err)
	}
}

// The outcomes of forms are kept in the data folder as every earlier build
// reads them (base64 JSON on the line), so a rollback finds them; plain
// JSON, which one build wrote, is read as well.
func TestFileOutcomesReadByEarlierBuilds(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "action-outcomes")
	o, err := store.OpenFileOnce(path, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	want := store.Outcome{Status: 303, Location: "/orders", Message: "Заказ отменён. Деньги вернутся на карту"}
	if _, _, err := o.Claim(ctx, "action:n1", time.Minute); err != nil {
		t.Fatal(err)
	}
	if err := o.Settle(ctx, "action:n1", want, time.Hour); err != nil {
		t.Fatal(err)
	}
	o.Close()
	b, _ := os.ReadFile(path)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	fields := strings.Fields(lines[len(lines)-1]) // as an earlier build splits it: key, until, value
	raw, err := base64.RawURLEncoding.DecodeString(fields[len(fields)-1])
	var got store.Outcome
	if len(fields) != 3 || err != nil || json.Unmarshal(raw, &got) != nil || got != want {
		t.Errorf("the line as an earlier build reads it: %q: %+v %v", lines[len(lines)-1], got, err)
	}
}

// Redis carries the format of the state kept in it, marked at start; a
// build refuses at start the state of a newer one.
func TestRedisFormat(t *testing.T) {
	ctx := context.Background()
	r, srv := openRedis(t)
	raw := redis.NewClient(&redis.Options{Addr: srv.Addr()})
	defer raw.Close()
	if err := r.CheckFormat(ctx); err != nil {
		t.Fatal(err)
	}
	if v, _ := raw.Get(ctx, "lk:format").Result(); v != "1" {
		t.Errorf("lk:format %q, want 1", v)
	}
	raw.Set(ctx, "lk:format", "2", 0)
	if err := r.CheckFormat(ctx); !errors.Is(err, store.ErrNewerFormat) {
		t.Errorf("a newer build's state: %v", err)
	}
}
