package workers

import (
	"sync"
	"sync/atomic"
	"testing"
)

// Every task runs once, whether an idle goroutine takes it or a new one
// does, and past MaxKept tasks still run.
func TestEveryTaskRunsOnce(t *testing.T) {
	const n = 3 * MaxKept
	var ran [n]atomic.Int32
	var wg sync.WaitGroup
	release := make(chan struct{})
	for i := range n {
		wg.Add(1)
		Go(func() {
			defer wg.Done()
			<-release // all busy at once: the pool is full and more are started
			ran[i].Add(1)
		})
	}
	close(release)
	wg.Wait()
	for i := range n {
		if got := ran[i].Load(); got != 1 {
			t.Fatalf("task %d ran %d times", i, got)
		}
	}
	if k := kept.Load(); k > MaxKept {
		t.Fatalf("%d goroutines kept, at most %d", k, MaxKept)
	}
	// The kept goroutines take the next tasks.
	before := kept.Load()
	for range 100 {
		done := make(chan struct{})
		Go(func() { close(done) })
		<-done
	}
	if after := kept.Load(); after != before {
		t.Fatalf("kept goroutines went from %d to %d for tasks one at a time", before, after)
	}
}

// BenchmarkDeepTask compares a task that needs a deep stack on a new
// goroutine and on a kept one.
func BenchmarkDeepTask(b *testing.B) {
	b.Run("go", func(b *testing.B) {
		for b.Loop() {
			done := make(chan struct{})
			go func() { recurse(64); close(done) }()
			<-done
		}
	})
	b.Run("workers", func(b *testing.B) {
		for b.Loop() {
			done := make(chan struct{})
			Go(func() { recurse(64); close(done) })
			<-done
		}
	})
}

//go:noinline
func recurse(n int) int {
	var pad [256]byte
	pad[n%256] = byte(n)
	if n == 0 {
		return int(pad[0])
	}
	return recurse(n-1) + int(pad[n%256])
}
