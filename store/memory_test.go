package store

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestLimiterTakeReleaseClear(t *testing.T) {
	ctx := context.Background()
	l := NewMemoryLimiter()
	now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	day := Rule{"phone_wrong", "wrong:s:79000000000", 3, 24 * time.Hour}
	code := Rule{"code_attempts", "code:s:79000000000", 2, time.Hour}
	var holds []Hold
	for i := range 2 {
		h, err := l.Take(ctx, now.Add(time.Duration(i)*time.Minute), day, code)
		if err != nil {
			t.Fatalf("take %d: %v", i+1, err)
		}
		holds = append(holds, h)
	}
	_, err := l.Take(ctx, now.Add(2*time.Minute), day, code)
	if r, ok := errors.AsType[*Refusal](err); !ok || r.Limit != "code_attempts" {
		t.Fatalf("third take on a 2-per-code rule: %v", err)
	}
	// Refused: all or none, so the day's count did not move.
	if err := l.Clear(ctx, code.Key); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Take(ctx, now.Add(3*time.Minute), day, code); err != nil {
		t.Fatalf("after a new code: %v", err)
	}
	_, err = l.Take(ctx, now.Add(4*time.Minute), day, code)
	r, ok := errors.AsType[*Refusal](err)
	if !ok || r.Limit != "phone_wrong" || r.RetryAfter != 24*time.Hour-4*time.Minute {
		t.Fatalf("fourth in a day: %v %+v", err, r)
	}
	// A released hold gives its place back, under every key.
	if err := l.Release(ctx, holds[1]); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Take(ctx, now.Add(5*time.Minute), day, code); err != nil {
		t.Fatalf("after a release: %v", err)
	}
	if w, _ := l.Wait(ctx, now.Add(5*time.Minute), day); w != 24*time.Hour-5*time.Minute {
		t.Errorf("wait %v", w)
	}
	if w, _ := l.Wait(ctx, now.Add(25*time.Hour), day); w != 0 {
		t.Errorf("a day later: wait %v", w)
	}
}

// TestLimiterParallel: however many take at once, no more than Max pass.
func TestLimiterParallel(t *testing.T) {
	ctx := context.Background()
	l := NewMemoryLimiter()
	now := time.Now()
	rules := []Rule{{"code_attempts", "c", 3, time.Hour}, {"phone_wrong", "d", 10, 24 * time.Hour}}
	var passed atomic.Int32
	var wg sync.WaitGroup
	for range 100 {
		wg.Go(func() {
			if _, err := l.Take(ctx, now, rules...); err == nil {
				passed.Add(1)
			}
		})
	}
	wg.Wait()
	if passed.Load() != 3 {
		t.Errorf("%d of 100 parallel takes passed a limit of 3", passed.Load())
	}
}

func TestHoldExcept(t *testing.T) {
	h := Hold{ID: "x", Keys: []string{"a", "b", "ip"}}
	if got := h.Except("ip"); got.ID != "x" || len(got.Keys) != 2 || got.Keys[1] != "b" {
		t.Errorf("%+v", got)
	}
}
