package handlers_test

import (
	"context"
	"math"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"lk/handlers"
	"lk/handlers/web"
	"lk/store"
)

// A data folder without the room it needs (here: a need larger than any
// disk, in place of a full one) takes the instance out of the balancer's
// pool: /readyz answers 503 and the log says why, once, naming the folder;
// with room again it is ready again.
func TestFullDataFolderIsNotReady(t *testing.T) {
	dir := t.TempDir()
	var need atomic.Uint64
	need.Store(math.MaxUint64)
	room := func(ctx context.Context) error { return store.Folder{Dir: dir, MinFree: need.Load()}.Room(ctx) }
	var health *web.Health
	a := newAppSetup(t, setup{options: func(o *handlers.Options) {
		health, _ = web.NewHealth(nil)
		o.Health, o.StorePing = health, room
	}})
	health.SetServing(true)
	for range 2 {
		if r := a.get("/readyz"); r.StatusCode != http.StatusServiceUnavailable {
			t.Fatalf("/readyz on a full folder: %d %q", r.StatusCode, r.body)
		}
	}
	logs := a.logs.String()
	if n := strings.Count(logs, "the data folder is full: "+dir); n != 1 {
		t.Errorf("%d log lines name the full folder, want 1:\n%s", n, logs)
	}
	if r := a.get("/orders"); r.StatusCode == http.StatusServiceUnavailable {
		t.Errorf("pages stop with /readyz: %d", r.StatusCode)
	}
	need.Store(1)
	if r := a.get("/readyz"); r.StatusCode != http.StatusOK {
		t.Errorf("/readyz with room again: %d %q", r.StatusCode, r.body)
	}
}
