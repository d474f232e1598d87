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
