package store_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"lk/internal/testkit"
	"lk/store"
)

// Of many parallel takers of one lease exactly one holds it, the others
// learn who; a release by anyone else is ignored; the holder's release
// frees it.
func TestLeasesContract(t *testing.T) {
	r, _ := openRedis(t)
	ctx := context.Background()
	forEach(t, map[string]store.Leases{"memory": store.NewMemoryLeases(time.Now), "redis": r.Leases()}, func(t *testing.T, l store.Leases) {
		var taken atomic.Int32
		var wg sync.WaitGroup
		holders := make([]string, 64)
		for i := range holders {
			wg.Go(func() {
				me := "h" + string(rune('A'+i%26)) + string(rune('a'+i/26))
				ok, cur, err := l.Take(ctx, "order:aqua:1", me, time.Minute)
				if err != nil {
					t.Error(err)
				}
				if ok {
					taken.Add(1)
				}
				holders[i] = cur
			})
		}
		wg.Wait()
		if taken.Load() != 1 {
			t.Fatalf("%d holders", taken.Load())
		}
		for _, h := range holders {
			if h != holders[0] {
				t.Fatalf("holders disagree: %q and %q", h, holders[0])
			}
		}
		if err := l.Release(ctx, "order:aqua:1", "someone else"); err != nil {
			t.Fatal(err)
		}
		if ok, _, _ := l.Take(ctx, "order:aqua:1", "next", time.Minute); ok {
			t.Fatal("a release by another freed the lease")
		}
		if err := l.Release(ctx, "order:aqua:1", holders[0]); err != nil {
			t.Fatal(err)
		}
		if ok, _, _ := l.Take(ctx, "order:aqua:1", "next", time.Minute); !ok {
			t.Fatal("released, and still held")
		}
	})
}

// A holder that never releases (a crashed instance) holds the lease only
// for its time.
func TestLeaseOfACrashedHolderEnds(t *testing.T) {
	ctx := context.Background()
	clk := testkit.NewClock(time.Now())
	m := store.NewMemoryLeases(clk.Now)
	if ok, _, _ := m.Take(ctx, "k", "crashed", 40*time.Second); !ok {
		t.Fatal("not taken")
	}
	clk.Add(39 * time.Second)
	if ok, _, _ := m.Take(ctx, "k", "next", 40*time.Second); ok {
		t.Fatal("taken while held")
	}
	clk.Add(2 * time.Second)
	if ok, _, _ := m.Take(ctx, "k", "next", 40*time.Second); !ok {
		t.Fatal("the crashed holder's lease did not end")
	}

	r, _ := openRedis(t)
	if ok, _, _ := r.Leases().Take(ctx, "k", "crashed", 300*time.Millisecond); !ok {
		t.Fatal("not taken")
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		ok, _, err := r.Leases().Take(ctx, "k", "next", time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the crashed holder's lease did not end in Redis")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// One-time outcomes on one instance outlive a restart; a claim left by a
// crash during the work ends with the claim's time, not a day later.
func TestFileOnceAcrossRestarts(t *testing.T) {
	ctx := context.Background()
	clk := testkit.NewClock(time.Now())
	path := tempFile(t, "action-outcomes")
	o, err := store.OpenFileOnce(path, clk.Now)
	if err != nil {
		t.Fatal(err)
	}
	done := store.Outcome{Status: 303, Location: "/orders", Message: "Возврат успешно оформлен."}
	if first, _, _ := o.Claim(ctx, "done", time.Minute); !first {
		t.Fatal("not first")
	}
	if err := o.Settle(ctx, "done", done, 25*time.Hour); err != nil {
		t.Fatal(err)
	}
	if first, _, _ := o.Claim(ctx, "crashed", time.Minute); !first {
		t.Fatal("not first")
	}
	if first, _, _ := o.Claim(ctx, "released", time.Minute); !first {
		t.Fatal("not first")
	}
	if err := o.Settle(ctx, "released", store.Outcome{}, 0); err != nil {
		t.Fatal(err)
	}
	o.Close() // the process ends without settling "crashed"

	o, err = store.OpenFileOnce(path, clk.Now)
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	if first, out, _ := o.Claim(ctx, "done", time.Minute); first || out == nil || *out != done {
		t.Fatalf("after a restart: first %v, %+v", first, out)
	}
	if first, _, _ := o.Claim(ctx, "released", time.Minute); !first {
		t.Error("a released key is still claimed after a restart")
	}
	if first, out, _ := o.Claim(ctx, "crashed", time.Minute); first || out != nil {
		t.Fatalf("the crashed claim: first %v, %+v", first, out)
	}
	clk.Add(61 * time.Second)
	if first, _, _ := o.Claim(ctx, "crashed", time.Minute); !first {
		t.Error("the crashed claim outlived its time")
	}
	if first, out, _ := o.Claim(ctx, "done", time.Minute); first || out == nil {
		t.Error("the outcome went with the claims")
	}
}
