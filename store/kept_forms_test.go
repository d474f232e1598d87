package store_test

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"lk/store"
)

func keptFormsImplementations(t *testing.T) map[string]store.KeptForms {
	r, _ := openRedis(t)
	f, err := store.OpenFileKeptForms(tempFile(t, "kept-forms"), time.Now)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return map[string]store.KeptForms{"memory": store.NewMemoryKeptForms(time.Now), "file": f, "redis": r.KeptForms()}
}

// A kept form is taken once, whatever the value holds, and parallel takers
// never both get it.
func TestKeptFormsContract(t *testing.T) {
	ctx := context.Background()
	value := "{\"p\":\"/orders/aqua/1/refund\",\"v\":{\"comment\":[\"Заболел ребёнок, справка\\nприложена\"]}} " + strings.Repeat("я", 1000)
	forEach(t, keptFormsImplementations(t), func(t *testing.T, k store.KeptForms) {
		if v, err := k.Take(ctx, "never"); v != "" || err != nil {
			t.Fatalf("an unknown key: %q %v", v, err)
		}
		if err := k.Keep(ctx, "a b\nc", value, time.Minute); err != nil {
			t.Fatal(err)
		}
		if v, err := k.Take(ctx, "a b\nc"); v != value || err != nil {
			t.Fatalf("taken: %q %v", v, err)
		}
		if v, _ := k.Take(ctx, "a b\nc"); v != "" {
			t.Error("taken twice")
		}
		_ = k.Keep(ctx, "r", "first", time.Minute)
		_ = k.Keep(ctx, "r", "second", time.Minute)
		if v, _ := k.Take(ctx, "r"); v != "second" {
			t.Errorf("a kept form replaced: %q", v)
		}
		for _, bad := range [][2]string{{"", "v"}, {"k", ""}, {strings.Repeat("k", store.MaxKey+1), "v"}, {"k", strings.Repeat("v", store.MaxValue+1)}} {
			if err := k.Keep(ctx, bad[0], bad[1], time.Minute); err == nil {
				t.Errorf("kept a key of %d bytes and a value of %d", len(bad[0]), len(bad[1]))
			}
		}
		if err := k.Keep(ctx, "max", strings.Repeat("v", store.MaxValue), time.Minute); err != nil {
			t.Errorf("a value of MaxValue bytes: %v", err)
		}

		// Many takers at once: exactly one gets the form, every round.
		for round := range 20 {
			key := "race-" + string(rune('a'+round))
			if err := k.Keep(ctx, key, "form", time.Minute); err != nil {
				t.Fatal(err)
			}
			var got atomic.Int32
			var wg sync.WaitGroup
			for range 32 {
				wg.Go(func() {
					if v, err := k.Take(ctx, key); err != nil {
						t.Error(err)
					} else if v != "" {
						got.Add(1)
					}
				})
			}
			wg.Wait()
			if got.Load() != 1 {
				t.Fatalf("round %d: %d takers got the form", round, got.Load())
			}
		}
	})
}

func TestKeptFormsExpire(t *testing.T) {
	ctx := context.Background()
	now := time.Now()
	clock := func() time.Time { return now }
	f, err := store.OpenFileKeptForms(tempFile(t, "kept-forms"), clock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	for name, k := range map[string]store.KeptForms{"memory": store.NewMemoryKeptForms(clock), "file": f} {
		if err := k.Keep(ctx, "k", "v", 15*time.Minute); err != nil {
			t.Fatal(err)
		}
		now = now.Add(16 * time.Minute)
		if v, _ := k.Take(ctx, "k"); v != "" {
			t.Errorf("%s: an expired form taken", name)
		}
	}
	r, _ := openRedis(t)
	k := r.KeptForms()
	_ = k.Keep(ctx, "k", "v", 50*time.Millisecond)
	time.Sleep(200 * time.Millisecond)
	if v, _ := k.Take(ctx, "k"); v != "" {
		t.Error("redis: an expired form taken")
	}
}

// The data folder's kept forms outlive a restart; one taken stays taken.
func TestFileKeptFormsOutliveARestart(t *testing.T) {
	ctx := context.Background()
	path := tempFile(t, "kept-forms")
	f, err := store.OpenFileKeptForms(path, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	_ = f.Keep(ctx, "kept", "a form", time.Minute)
	_ = f.Keep(ctx, "taken", "a form", time.Minute)
	if v, _ := f.Take(ctx, "taken"); v == "" {
		t.Fatal("not taken")
	}
	f.Close()
	f, err = store.OpenFileKeptForms(path, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if v, _ := f.Take(ctx, "kept"); v != "a form" {
		t.Errorf("after a restart: %q", v)
	}
	if v, _ := f.Take(ctx, "taken"); v != "" {
		t.Error("a form taken before the restart is there again")
	}
}
