package store_test

import (
	"context"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"lk/handlers"
	"lk/store"
)

// Every implementation of an interface passes the same contract.

func revokers(t *testing.T) map[string]handlers.Revoker {
	r, _ := openRedis(t)
	f, err := store.OpenFileRevoker(tempFile(t, "revoked"), time.Now)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return map[string]handlers.Revoker{"memory": handlers.NewMemoryRevoker(time.Now), "file": f, "redis": r}
}

func TestRevokerContract(t *testing.T) {
	ctx := context.Background()
	for name, r := range revokers(t) {
		t.Run(name, func(t *testing.T) {
			if got, err := r.Revoked(ctx, "a"); got || err != nil {
				t.Fatalf("unknown id revoked: %v %v", got, err)
			}
			if err := r.Revoke(ctx, "a", time.Now().Add(time.Hour)); err != nil {
				t.Fatal(err)
			}
			if got, err := r.Revoked(ctx, "a"); !got || err != nil {
				t.Errorf("revoked id: %v %v", got, err)
			}
			if got, _ := r.Revoked(ctx, "b"); got {
				t.Error("another id revoked too")
			}
		})
	}
}

func onces(t *testing.T) map[string]handlers.Once {
	r, _ := openRedis(t)
	return map[string]handlers.Once{"memory": handlers.NewMemoryOnce(time.Now), "redis": r}
}

func TestOnceContract(t *testing.T) {
	ctx := context.Background()
	for name, o := range onces(t) {
		t.Run(name, func(t *testing.T) {
			// Of many parallel claims exactly one is first.
			var firsts atomic.Int32
			var wg sync.WaitGroup
			for range 50 {
				wg.Go(func() {
					first, out, err := o.Claim(ctx, "k", time.Minute)
					if err != nil {
						t.Error(err)
					}
					if first {
						firsts.Add(1)
					} else if out != nil {
						t.Error("an outcome before the first settled")
					}
				})
			}
			wg.Wait()
			if n := firsts.Load(); n != 1 {
				t.Fatalf("%d first claims, want 1", n)
			}
			if c, err := o.Claimed(ctx, "k"); !c || err != nil {
				t.Errorf("claimed: %v %v", c, err)
			}
			if c, _ := o.Claimed(ctx, "other"); c {
				t.Error("an unclaimed key claimed")
			}
			want := handlers.Outcome{Status: http.StatusSeeOther, Location: "/orders", Message: "Возврат успешно оформлен."}
			if err := o.Settle(ctx, "k", want, time.Minute); err != nil {
				t.Fatal(err)
			}
			first, out, err := o.Claim(ctx, "k", time.Minute)
			if first || err != nil || out == nil || *out != want {
				t.Errorf("after settling: first %v, outcome %+v, err %v", first, out, err)
			}
		})
	}
}

func limiters(t *testing.T) map[string]handlers.Limiter {
	r, _ := openRedis(t)
	return map[string]handlers.Limiter{"memory": handlers.NewMemoryLimiter(), "redis": r}
}

func TestLimiterContract(t *testing.T) {
	ctx := context.Background()
	t0 := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	day := handlers.Rule{Name: "phone_wrong", Key: "wrong:79000000000", Max: 3, Window: 24 * time.Hour}
	code := handlers.Rule{Name: "code_attempts", Key: "code:79000000000", Max: 5, Window: time.Hour}
	for name, l := range limiters(t) {
		t.Run(name, func(t *testing.T) {
			// Of 100 parallel takes exactly Max pass.
			var passed atomic.Int32
			var wg sync.WaitGroup
			for range 100 {
				wg.Go(func() {
					if _, err := l.Take(ctx, t0, day, code); err == nil {
						passed.Add(1)
					}
				})
			}
			wg.Wait()
			if n := passed.Load(); n != 3 {
				t.Fatalf("%d takes passed, want 3", n)
			}
			// Refused: by the rule that is full, with when to try again;
			// and the other rule recorded nothing.
			_, err := l.Take(ctx, t0.Add(time.Minute), day, code)
			r, ok := err.(*handlers.Refusal)
			if !ok || r.Limit != "phone_wrong" || r.RetryAfter != 24*time.Hour-time.Minute {
				t.Fatalf("refusal: %v %+v", err, r)
			}
			if w, err := l.Wait(ctx, t0.Add(time.Minute), code); w != 0 || err != nil {
				t.Errorf("the other rule counted the refused take: wait %v %v", w, err)
			}
			if w, _ := l.Wait(ctx, t0.Add(time.Hour), day); w != 23*time.Hour {
				t.Errorf("wait %v, want 23h", w)
			}
			// A release gives one back; a window's end gives all back.
			h, err := l.Take(ctx, t0, handlers.Rule{Name: "x", Key: "k", Max: 1, Window: time.Minute})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := l.Take(ctx, t0, handlers.Rule{Name: "x", Key: "k", Max: 1, Window: time.Minute}); err == nil {
				t.Fatal("a second take passed a limit of 1")
			}
			if err := l.Release(ctx, h); err != nil {
				t.Fatal(err)
			}
			if err := l.Release(ctx, h); err != nil {
				t.Errorf("releasing twice: %v", err)
			}
			if _, err := l.Take(ctx, t0, handlers.Rule{Name: "x", Key: "k", Max: 1, Window: time.Minute}); err != nil {
				t.Errorf("after release: %v", err)
			}
			if _, err := l.Take(ctx, t0.Add(24*time.Hour), day); err != nil {
				t.Errorf("after the window: %v", err)
			}
			// Clear forgets.
			if err := l.Clear(ctx, day.Key); err != nil {
				t.Fatal(err)
			}
			if w, _ := l.Wait(ctx, t0.Add(24*time.Hour), day); w != 0 {
				t.Errorf("after clear: wait %v", w)
			}
		})
	}
}
