package store_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"lk/store"
)

func refundFilesWithin(t *testing.T, limit int) map[string]store.RefundFiles {
	r, _ := openRedis(t)
	return map[string]store.RefundFiles{"memory": store.NewMemoryRefundFilesWithin(time.Now, limit), "redis": r.FilesWithin(limit)}
}

// held is the bytes kept under keys.
func held(t *testing.T, s store.RefundFiles, keys ...string) int {
	t.Helper()
	n := 0
	for _, k := range keys {
		l, err := s.List(context.Background(), k)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range l {
			n += f.Size
		}
	}
	return n
}

func doc(i, size int) store.RefundFile {
	data := make([]byte, size)
	copy(data, fmt.Sprint(i)) // each document differs
	return store.RefundFile{ID: fmt.Sprint("f", i), Name: fmt.Sprint(i, ".pdf"), Data: data}
}

// refused counts err: as want, or as other.
func refused(t *testing.T, err, want error, as, other *atomic.Int32) {
	switch {
	case errors.Is(err, want):
		as.Add(1)
	case err != nil:
		t.Log(err)
		other.Add(1)
	}
}

// One customer keeps at most what one refund may send, over all their
// sessions, however many puts arrive at once; others are not held back by
// it.
func TestRefundFilesPerCustomer(t *testing.T) {
	ctx := context.Background()
	forEach(t, refundFilesWithin(t, 200<<20), func(t *testing.T, s store.RefundFiles) {
		sessions := []string{"s1/hotel/1", "s2/hotel/1", "s3/hotel/1", "s4/hotel/1"}
		var wg sync.WaitGroup
		var full, other atomic.Int32
		for i := range 40 { // 4 sessions × 10 documents of 1 MB: 40 MB asked
			wg.Go(func() {
				_, err := s.Put(ctx, "c1", sessions[i%4], doc(i, 1<<20), time.Hour)
				refused(t, err, store.ErrRefundFilesFull, &full, &other)
			})
		}
		wg.Wait()
		if got := held(t, s, sessions...); got != 25<<20 || full.Load() != 15 || other.Load() != 0 {
			t.Fatalf("one customer over four sessions holds %d MB (%d refused as full, %d otherwise), want 25 MB and 15", got>>20, full.Load(), other.Load())
		}
		if _, err := s.Put(ctx, "c2", "s5/hotel/1", doc(100, 10<<20), time.Hour); err != nil {
			t.Errorf("another customer's document while the first is at their ceiling: %v", err)
		}
		// What is removed or cleared makes room again.
		var with []string // sessions holding documents
		for _, k := range sessions {
			if l, _ := s.List(ctx, k); len(l) > 0 {
				with = append(with, k)
			}
		}
		first, _ := s.List(ctx, with[0])
		second, _ := s.List(ctx, with[len(with)-1])
		if err := s.Remove(ctx, with[0], first[0].ID); err != nil {
			t.Fatal(err)
		}
		freed := 1
		if len(with) > 1 {
			if err := s.Clear(ctx, with[len(with)-1]); err != nil {
				t.Fatal(err)
			}
			freed += len(second)
		}
		for i := range freed {
			if _, err := s.Put(ctx, "c1", "s6/hotel/1", doc(200+i, 1<<20), time.Hour); err != nil {
				t.Errorf("after a remove and a clear, document %d: %v", i, err)
			}
		}
		if _, err := s.Put(ctx, "c1", "s7/hotel/1", doc(300, 1<<20), time.Hour); !errors.Is(err, store.ErrRefundFilesFull) {
			t.Errorf("one more over the ceiling again: %v", err)
		}
		if got := held(t, s, append(sessions, "s6/hotel/1")...); got != 25<<20 {
			t.Errorf("after remove, clear and puts: %d MB held, want 25", got>>20)
		}
	})
}

// The store as a whole keeps at most its ceiling, and says so apart from
// a customer's own ceiling; what is cleared or ends makes room.
func TestRefundFilesStoreCeiling(t *testing.T) {
	ctx := context.Background()
	forEach(t, refundFilesWithin(t, 10<<20), func(t *testing.T, s store.RefundFiles) {
		var wg sync.WaitGroup
		var storeFull, other atomic.Int32
		keys := make([]string, 20)
		for i := range keys {
			keys[i] = fmt.Sprintf("s%d/aqua/1", i)
			wg.Go(func() {
				_, err := s.Put(ctx, fmt.Sprint("c", i), keys[i], doc(i, 1<<20), time.Hour)
				refused(t, err, store.ErrRefundStoreFull, &storeFull, &other)
			})
		}
		wg.Wait()
		if got := held(t, s, keys...); got != 10<<20 || storeFull.Load() != 10 || other.Load() != 0 {
			t.Fatalf("20 customers × 1 MB against 10 MB: %d MB kept, %d refused as the store full, %d otherwise; want 10, 10, 0", got>>20, storeFull.Load(), other.Load())
		}
		for _, k := range keys {
			if err := s.Clear(ctx, k); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := s.Put(ctx, "c99", "s99/aqua/1", doc(99, 9<<20), 2*time.Second); err != nil {
			t.Fatalf("after the others were cleared: %v", err)
		}
		if _, err := s.Put(ctx, "c98", "s98/aqua/1", doc(98, 9<<20), time.Hour); !errors.Is(err, store.ErrRefundStoreFull) {
			t.Errorf("9 MB more on 9 of 10: %v", err)
		}
		time.Sleep(3 * time.Second)
		if _, err := s.Put(ctx, "c98", "s98/aqua/1", doc(98, 9<<20), time.Hour); err != nil {
			t.Errorf("after the first ended: %v", err)
		}
	})
}
