package store_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"lk/store"
)

// Every implementation of an interface passes the same contract.

// implementations gives memory, a file one that open makes in a fresh
// file and the Redis one, by name, as I.
func implementations[I any, F interface{ Close() error }](t *testing.T, file string, open func(string, func() time.Time) (F, error), memory I) map[string]I {
	r, _ := openRedis(t)
	f, err := open(tempFile(t, file), time.Now)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return map[string]I{"memory": memory, "file": any(f).(I), "redis": any(r).(I)}
}

// forEach runs check on each implementation, as a subtest by its name.
func forEach[I any](t *testing.T, impls map[string]I, check func(t *testing.T, impl I)) {
	for name, impl := range impls {
		t.Run(name, func(t *testing.T) { check(t, impl) })
	}
}

// Revoker and Numbers are both keys kept until a time: one contract.
func TestRevokerContract(t *testing.T) {
	forEach(t, implementations[store.Revoker](t, "revoked", store.OpenFileRevoker, store.NewMemoryRevoker(time.Now)), func(t *testing.T, r store.Revoker) {
		checkKeptUntil(t, r.Revoke, r.Revoked)
	})
}

func TestNumbersContract(t *testing.T) {
	forEach(t, implementations[store.Numbers](t, "confirmed", store.OpenFileNumbers, store.NewMemoryNumbers(time.Now)), func(t *testing.T, n store.Numbers) {
		checkKeptUntil(t, n.Confirm, n.Confirmed)
	})
}

// checkKeptUntil: what keep kept, kept says is there, and nothing else.
func checkKeptUntil(t *testing.T, keep func(context.Context, string, time.Time) error, kept func(context.Context, string) (bool, error)) {
	ctx := context.Background()
	if got, err := kept(ctx, "a"); got || err != nil {
		t.Fatalf("an unknown key kept: %v %v", got, err)
	}
	if err := keep(ctx, "a", time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if got, err := kept(ctx, "a"); !got || err != nil {
		t.Errorf("a kept key: %v %v", got, err)
	}
	if got, _ := kept(ctx, "b"); got {
		t.Error("another key kept too")
	}
}

func TestMovesContract(t *testing.T) {
	ctx := context.Background()
	forEach(t, implementations[store.Moves](t, "moved", store.OpenFileMoves, store.NewMemoryMoves(time.Now)), func(t *testing.T, m store.Moves) {
		if got, err := m.First(ctx, "glk-2"); got != "" || err != nil {
			t.Fatalf("never moved: %q %v", got, err)
		}
		if err := m.Moved(ctx, "glk-2", "1", time.Now().Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		if err := m.Moved(ctx, "glk-3", "1", time.Now().Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"glk-2", "glk-3"} {
			if got, err := m.First(ctx, k); got != "1" || err != nil {
				t.Errorf("%s: %q %v, want 1", k, got, err)
			}
		}
		if got, _ := m.First(ctx, "pavilion-2"); got != "" {
			t.Errorf("another kind's id %q", got)
		}
		if err := m.Moved(ctx, "glk-4", "1", time.Now().Add(-time.Second)); err != nil {
			t.Fatal(err)
		}
		if got, _ := m.First(ctx, "glk-4"); got != "" {
			t.Errorf("an expired move %q", got)
		}
	})
}

func onces(t *testing.T) map[string]store.Once {
	r, _ := openRedis(t)
	f, err := store.OpenFileOnce(tempFile(t, "action-outcomes"), time.Now)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return map[string]store.Once{"memory": store.NewMemoryOnce(time.Now), "redis": r, "file": f}
}

func TestOnceContract(t *testing.T) {
	ctx := context.Background()
	forEach(t, onces(t), func(t *testing.T, o store.Once) {
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
		want := store.Outcome{Status: http.StatusSeeOther, Location: "/orders", Message: "Возврат успешно оформлен."}
		if err := o.Settle(ctx, "k", want, time.Minute); err != nil {
			t.Fatal(err)
		}
		first, out, err := o.Claim(ctx, "k", time.Minute)
		if first || err != nil || out == nil || *out != want {
			t.Errorf("after settling: first %v, outcome %+v, err %v", first, out, err)
		}
		// A key forgotten (work that failed) is first again.
		if _, _, err := o.Claim(ctx, "f", time.Minute); err != nil {
			t.Fatal(err)
		}
		if err := o.Settle(ctx, "f", store.Outcome{}, 0); err != nil {
			t.Fatal(err)
		}
		if first, _, err := o.Claim(ctx, "f", time.Minute); !first || err != nil {
			t.Errorf("after forgetting: first %v, err %v", first, err)
		}
	})
}

func limiters(t *testing.T) map[string]store.Limiter {
	r, _ := openRedis(t)
	return map[string]store.Limiter{"memory": store.NewMemoryLimiter(), "redis": r}
}

func TestLimiterContract(t *testing.T) {
	ctx := context.Background()
	t0 := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	day := store.Rule{Name: "phone_wrong", Key: "wrong:79000000000", Max: 3, Window: 24 * time.Hour}
	code := store.Rule{Name: "code_attempts", Key: "code:79000000000", Max: 5, Window: time.Hour}
	forEach(t, limiters(t), func(t *testing.T, l store.Limiter) {
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
		r, ok := err.(*store.Refusal)
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
		h, err := l.Take(ctx, t0, store.Rule{Name: "x", Key: "k", Max: 1, Window: time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := l.Take(ctx, t0, store.Rule{Name: "x", Key: "k", Max: 1, Window: time.Minute}); err == nil {
			t.Fatal("a second take passed a limit of 1")
		}
		if err := l.Release(ctx, h); err != nil {
			t.Fatal(err)
		}
		if err := l.Release(ctx, h); err != nil {
			t.Errorf("releasing twice: %v", err)
		}
		if _, err := l.Take(ctx, t0, store.Rule{Name: "x", Key: "k", Max: 1, Window: time.Minute}); err != nil {
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

// A budget shared by everyone (the SMS codes of an hour) passes exactly its
// Max under parallel takes, and each take that passed sees a count of its
// own: exactly one of them is the one that fills the budget to 80 %.
func TestLimiterCountsABudgetAsItFills(t *testing.T) {
	ctx := context.Background()
	t0 := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	budget := store.Rule{Name: "sms_hour", Key: "budget:hour", Max: 50, Window: time.Hour}
	forEach(t, limiters(t), func(t *testing.T, l store.Limiter) {
		var mu sync.Mutex
		seen := map[int]int{}
		var wg sync.WaitGroup
		for i := range 200 {
			wg.Go(func() {
				own := store.Rule{Name: "phone", Key: fmt.Sprintf("codes:%d", i), Max: 5, Window: time.Hour}
				h, err := l.Take(ctx, t0, own, budget)
				if err != nil {
					return
				}
				if len(h.Counts) != 2 || h.Counts[0] != 1 {
					t.Errorf("counts %v, want the phone's 1 first", h.Counts)
					return
				}
				mu.Lock()
				seen[h.Counts[1]]++
				mu.Unlock()
			})
		}
		wg.Wait()
		if len(seen) != 50 || seen[40] != 1 || seen[50] != 1 {
			t.Errorf("budget counts seen %v, want 1…50 once each", seen)
		}
	})
}

func refundFiles(t *testing.T) map[string]store.RefundFiles {
	r, _ := openRedis(t)
	return map[string]store.RefundFiles{"memory": store.NewMemoryRefundFiles(time.Now), "redis": r.Files()}
}

func TestRefundFilesContract(t *testing.T) {
	ctx := context.Background()
	forEach(t, refundFiles(t), func(t *testing.T, s store.RefundFiles) {
		key := "s1/aqua/300001"
		file := func(id, name string, n int) store.RefundFile {
			return store.RefundFile{ID: id, Name: name, Data: bytes.Repeat([]byte{byte(n)}, n)}
		}
		if _, err := s.Put(ctx, "c1", key, file("a", "справка.pdf", 10), time.Hour); err != nil {
			t.Fatal(err)
		}
		if f, err := s.Put(ctx, "c1", key, file("other", "справка.pdf", 10), time.Hour); err != nil || f.ID != "a" {
			t.Errorf("the same file again: %v %q, want the one kept", err, f.ID)
		}
		if l, _ := s.List(ctx, "s2/aqua/300001"); len(l) != 0 {
			t.Error("another session's key sees the file")
		}
		// Parallel puts cannot pass the 10 files of a key together.
		var wg sync.WaitGroup
		var full atomic.Int32
		for i := range 20 {
			wg.Go(func() {
				if _, err := s.Put(ctx, "c1", key, file(fmt.Sprint("p", i), "f", 11+i), time.Hour); errors.Is(err, store.ErrRefundFilesFull) {
					full.Add(1)
				}
			})
		}
		wg.Wait()
		l, err := s.List(ctx, key)
		if err != nil || len(l) != store.RefundFilesPerKey || full.Load() != 11 {
			t.Fatalf("%d files kept, %d refused (%v), want 10 and 11", len(l), full.Load(), err)
		}
		if l[0].ID != "a" || l[0].Name != "справка.pdf" || l[0].Size != 10 || l[0].Data != nil {
			t.Errorf("first file listed as %q %q (%d bytes, %d read)", l[0].ID, l[0].Name, l[0].Size, len(l[0].Data))
		}
		if r, err := s.Read(ctx, key); err != nil || len(r) != len(l) || r[0].Name != "справка.pdf" || !bytes.Equal(r[0].Data, file("", "", 10).Data) || r[0].Sum != l[0].Sum && r[0].Sum != "" {
			t.Errorf("read: %v, %d files", err, len(r))
		}
		if _, err := s.Put(ctx, "c3", "s3/hotel/1", file("big", "big", 0), time.Hour); err != nil {
			t.Fatal(err)
		}
		big := store.RefundFile{ID: "x", Name: "x", Data: make([]byte, store.RefundBytesPerKey+1)}
		if _, err := s.Put(ctx, "c3", "s3/hotel/1", big, time.Hour); !errors.Is(err, store.ErrRefundFilesFull) {
			t.Errorf("over the bytes of a key: %v", err)
		}
		if err := s.Remove(ctx, key, "a"); err != nil {
			t.Fatal(err)
		}
		if err := s.Remove(ctx, key, "unknown"); err != nil {
			t.Errorf("removing an unknown id: %v", err)
		}
		if l, _ := s.List(ctx, key); len(l) != 9 {
			t.Errorf("after remove: %d files", len(l))
		}
		if _, err := s.Put(ctx, "c1", key, file("a2", "справка.pdf", 10), time.Hour); err != nil {
			t.Errorf("a removed file put again: %v", err)
		}
		if err := s.Clear(ctx, key); err != nil {
			t.Fatal(err)
		}
		if l, _ := s.List(ctx, key); len(l) != 0 {
			t.Errorf("after clear: %d files", len(l))
		}
		// Kept for the time asked, then gone.
		_, _ = s.Put(ctx, "c4", "s4/glk/1", file("t", "t", 3), 150*time.Millisecond)
		time.Sleep(300 * time.Millisecond)
		if l, _ := s.List(ctx, "s4/glk/1"); len(l) != 0 {
			t.Error("a file outlived its time")
		}
	})
}

// TestOnceAwait: callers waiting on a claimed key get its outcome when it
// is settled, whether it is kept or only handed over.
func TestOnceAwait(t *testing.T) {
	ctx := context.Background()
	forEach(t, onces(t), func(t *testing.T, o store.Once) {
		for _, ttl := range []time.Duration{time.Minute, 0} {
			key := fmt.Sprint("await-", ttl)
			if first, _, err := o.Claim(ctx, key, time.Minute); !first || err != nil {
				t.Fatalf("claim: %v %v", first, err)
			}
			want := store.Outcome{Status: http.StatusUnprocessableEntity, Message: fmt.Sprint("ttl ", ttl)}
			got := make(chan store.Outcome, 5)
			var waiting sync.WaitGroup
			for range 5 {
				waiting.Go(func() {
					out, err := store.Do(ctx, o, key, time.Minute, func(store.Outcome) time.Duration { return ttl },
						func(context.Context) store.Outcome { return store.Outcome{Message: "ran again"} })
					if err != nil {
						t.Error(err)
					}
					got <- out
				})
			}
			// Most waiters reach Await by then; one that comes after a
			// ttl-0 settling is first again and runs its own work.
			time.Sleep(50 * time.Millisecond)
			if err := o.Settle(ctx, key, want, ttl); err != nil {
				t.Fatal(err)
			}
			waiting.Wait()
			close(got)
			for out := range got {
				if out != want && (ttl > 0 || out.Message != "ran again") {
					t.Errorf("ttl %v: a waiter got %+v", ttl, out)
				}
			}
			claimed, _ := o.Claimed(ctx, key)
			if claimed != (ttl > 0) {
				t.Errorf("ttl %v: claimed after settling: %v", ttl, claimed)
			}
		}
	})
}

// What the handlers really write, and the bounds every store takes: spaces
// (a moved booking's "{new id} {owner mark}"), Cyrillic, a newline, the
// escape sign, long ids.
var awkward = []struct{ key, value string }{
	{"next-glk-100002", "100003 0a1b2c3d4e5f60718293a4b5"},
	{"Отзыв заказа 7", "Возврат успешно оформлен.\nСпасибо!"},
	{"a%20b", "%0A 100%"},
	{strings.Repeat("k", store.MaxKey), strings.Repeat("я", store.MaxValue/2)},
}

func TestMovesContractKeepsAnyValue(t *testing.T) {
	ctx := context.Background()
	forEach(t, implementations[store.Moves](t, "moved", store.OpenFileMoves, store.NewMemoryMoves(time.Now)), func(t *testing.T, m store.Moves) {
		for _, kv := range awkward {
			if err := m.Moved(ctx, kv.key, kv.value, time.Now().Add(time.Hour)); err != nil {
				t.Fatalf("%.20q → %.20q: %v", kv.key, kv.value, err)
			}
		}
		for _, kv := range awkward {
			if got, err := m.First(ctx, kv.key); got != kv.value || err != nil {
				t.Errorf("%.20q: %.40q %v, want %.40q", kv.key, got, err, kv.value)
			}
		}
	})
}

func TestRevokerContractKeepsAnyID(t *testing.T) {
	ctx := context.Background()
	forEach(t, implementations[store.Revoker](t, "revoked", store.OpenFileRevoker, store.NewMemoryRevoker(time.Now)), func(t *testing.T, r store.Revoker) {
		for _, kv := range awkward {
			if err := r.Revoke(ctx, kv.key, time.Now().Add(time.Hour)); err != nil {
				t.Fatalf("%.20q: %v", kv.key, err)
			}
			if got, err := r.Revoked(ctx, kv.key); !got || err != nil {
				t.Errorf("%.20q: revoked %v %v", kv.key, got, err)
			}
		}
		if got, _ := r.Revoked(ctx, "a b"); got {
			t.Error("a key never revoked reads revoked")
		}
	})
}

func TestOnceContractKeepsAnyOutcome(t *testing.T) {
	ctx := context.Background()
	forEach(t, onces(t), func(t *testing.T, o store.Once) {
		for _, kv := range awkward {
			if first, _, err := o.Claim(ctx, kv.key, time.Minute); !first || err != nil {
				t.Fatalf("%.20q: first %v %v", kv.key, first, err)
			}
			want := store.Outcome{Status: http.StatusUnprocessableEntity, Message: kv.value}
			if err := o.Settle(ctx, kv.key, want, time.Minute); err != nil {
				t.Fatal(err)
			}
			if first, out, err := o.Claim(ctx, kv.key, time.Minute); first || err != nil || out == nil || *out != want {
				t.Errorf("%.20q: first %v, outcome %.40v, %v", kv.key, first, out, err)
			}
		}
	})
}

// The data folder's stores read back after a restart what they kept.
func TestFileStoresKeepAnyValueOverARestart(t *testing.T) {
	ctx := context.Background()
	path := tempFile(t, "moved")
	m, err := store.OpenFileMoves(path, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range awkward {
		if err := m.Moved(ctx, kv.key, kv.value, time.Now().Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	m.Close()
	for range 2 { // opened once it is compacted: read both as written and as compacted
		if m, err = store.OpenFileMoves(path, time.Now); err != nil {
			t.Fatal(err)
		}
		for _, kv := range awkward {
			if got, _ := m.First(ctx, kv.key); got != kv.value {
				t.Errorf("after a restart %.20q: %.40q, want %.40q", kv.key, got, kv.value)
			}
		}
		m.Close()
	}
}

// Files written before values could hold spaces read the same: an outcome
// kept as base64 JSON, a first id.
func TestFileStoresReadTheirOlderFiles(t *testing.T) {
	ctx := context.Background()
	until := time.Now().Add(time.Hour).Unix()
	path := tempFile(t, "action-outcomes")
	line := fmt.Sprintf("tok %d eyJzIjo0MjIsIm0iOiLQntGI0LjQsdC60LAifQ\nrun %d -\n", until, until) // {"s":422,"m":"Ошибка"}
	if err := os.WriteFile(path, []byte(line), 0o600); err != nil {
		t.Fatal(err)
	}
	o, err := store.OpenFileOnce(path, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	if first, out, err := o.Claim(ctx, "tok", time.Minute); first || err != nil || out == nil || out.Status != 422 || out.Message != "Ошибка" {
		t.Errorf("an old outcome: first %v, %+v, %v", first, out, err)
	}
	if c, _ := o.Claimed(ctx, "run"); !c {
		t.Error("an old claim forgotten")
	}
}
