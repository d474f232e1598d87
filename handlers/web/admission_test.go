package web

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// clock is a time the test moves by hand.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// latency is a scheduling latency the test sets.
type latency struct{ v atomic.Int64 }

func (l *latency) read() (time.Duration, bool) { return time.Duration(l.v.Load()), true }

// busyCPU is a process that keeps its cores busy: as much CPU as time.
func busyCPU(c *clock) func() (time.Duration, bool) {
	return func() (time.Duration, bool) {
		return c.Now().Sub(time.Unix(0, 0)) * time.Duration(runtime.GOMAXPROCS(0)), true
	}
}

func TestAdmitsUpToTheLimitThenQueuesInOrder(t *testing.T) {
	// Before anything is measured, a queue as long as Max may wait.
	a := NewAdmission(AdmissionConfig{Min: 1, Initial: 3, Max: 3, Fixed: true, MaxWait: time.Minute})
	var held []func()
	for range 3 {
		done, ok := a.admit(t.Context())
		if !ok {
			t.Fatal("a page under the limit was not admitted")
		}
		held = append(held, done)
	}
	order := make(chan int, 3)
	dones := make([]func(), 3)
	for i := range 3 {
		go func() {
			done, ok := a.admit(t.Context())
			if !ok {
				order <- -1
				return
			}
			dones[i] = done
			order <- i
		}()
		for a.state().Queued != i+1 { // each in the queue before the next comes
			time.Sleep(time.Millisecond)
		}
	}
	if st := a.state(); st.InFlight != 3 || st.Queued != 3 {
		t.Fatalf("state %+v, want 3 in flight and 3 queued", st)
	}
	if _, ok := a.admit(t.Context()); ok {
		t.Error("a fourth page was let wait")
	}
	for want := range 3 { // one place freed at a time
		held[want]()
		if got := <-order; got != want {
			t.Errorf("page %d had its turn in place %d", got, want)
		}
	}
	for _, d := range dones {
		d()
	}
	if st := a.state(); st.InFlight != 0 || st.Queued != 0 {
		t.Errorf("state %+v after all were done", st)
	}
}

func TestWaitEndsAfterMaxWait(t *testing.T) {
	a := NewAdmission(AdmissionConfig{Min: 1, Initial: 1, Fixed: true, MaxWait: 20 * time.Millisecond})
	done, _ := a.admit(t.Context())
	defer done()
	if _, ok := a.admit(t.Context()); ok {
		t.Fatal("admitted beyond the limit")
	}
	if st := a.state(); st.Queued != 0 || st.Refused != 1 {
		t.Errorf("state %+v, want nothing queued and one refused", st)
	}
}

func TestWaitEndsWithTheRequest(t *testing.T) {
	a := NewAdmission(AdmissionConfig{Min: 1, Initial: 1, Fixed: true, MaxWait: time.Minute})
	done, _ := a.admit(t.Context())
	defer done()
	ctx, cancel := context.WithCancel(t.Context())
	go func() {
		for a.state().Queued == 0 {
			time.Sleep(time.Millisecond)
		}
		cancel()
	}()
	if _, ok := a.admit(ctx); ok {
		t.Fatal("a page whose customer left was admitted")
	}
	if st := a.state(); st.Queued != 0 || st.InFlight != 1 {
		t.Errorf("state %+v", st)
	}
}

// Once the server has shown how many pages it finishes a second, a page
// that would wait longer than MaxWait behind the queue is refused at once.
func TestRefusesAtOnceWhatCouldNotBeServedInTime(t *testing.T) {
	c := &clock{now: time.Unix(0, 0)}
	lat := &latency{}
	a := NewAdmission(AdmissionConfig{Min: 1, Initial: 1, Fixed: true, MaxWait: 5 * time.Second, Interval: time.Second,
		Now: c.Now, Latency: lat.read})
	// Full for an interval in which it finished 3 pages in 1.2 s: 2.5 a
	// second, so a queue of 12 is what it serves in 5 s.
	held, _ := a.admit(t.Context())
	for range 3 {
		c.add(400 * time.Millisecond)
		held()
		held, _ = a.admit(t.Context())
	}
	defer held()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	refusals := make(chan struct{}, 100)
	for range 100 {
		go func() {
			if _, ok := a.admit(ctx); !ok {
				refusals <- struct{}{}
			}
		}()
	}
	for range 88 {
		select {
		case <-refusals:
		case <-time.After(4 * time.Second):
			t.Fatalf("not refused at once: %+v", a.state())
		}
	}
	if st := a.state(); st.Queued != 12 {
		t.Errorf("%d queued, want 12 (what is served in MaxWait) and the rest refused at once", st.Queued)
	}
}

func TestLimitFallsWhenCoresAreOversubscribedAndRisesWhenFull(t *testing.T) {
	c := &clock{now: time.Unix(0, 0)}
	lat := &latency{}
	a := NewAdmission(AdmissionConfig{Min: 4, Initial: 40, Max: 100, Target: 5 * time.Millisecond,
		Interval: 100 * time.Millisecond, Now: c.Now, Latency: lat.read, CPU: busyCPU(c)})
	lat.v.Store(int64(50 * time.Millisecond))
	for range 20 {
		c.add(100 * time.Millisecond)
		done := a.enter()
		done()
	}
	if got := a.state().Limit; got != 4 {
		t.Errorf("limit %d after two seconds of oversubscribed cores, want the minimum 4", got)
	}
	// The cores keep up, and the limit is reached: it rises.
	lat.v.Store(int64(time.Millisecond))
	var held []func()
	for range 4 {
		d, _ := a.admit(t.Context())
		held = append(held, d)
	}
	c.add(100 * time.Millisecond)
	d, _ := a.admit(t.Context()) // admits after adjusting: the limit was reached
	held = append(held, d)
	if got := a.state().Limit; got != 5 {
		t.Errorf("limit %d after a full interval with the cores keeping up, want 5", got)
	}
	for _, d := range held {
		d()
	}
	c.add(100 * time.Millisecond)
	d, _ = a.admit(t.Context()) // the interval had 5 in flight: full again
	d()
	// Not full: the limit stays.
	c.add(100 * time.Millisecond)
	d, _ = a.admit(t.Context())
	d()
	if got := a.state().Limit; got != 6 {
		t.Errorf("limit %d after an interval that did not reach it, want 6", got)
	}
}

// Many pages at once: never more in flight than the limit, every page
// either admitted or refused, nothing left counted.
func TestNeverMoreInFlightThanTheLimit(t *testing.T) {
	a := NewAdmission(AdmissionConfig{Min: 1, Initial: 8, Fixed: true, MaxWait: 50 * time.Millisecond})
	var now, most atomic.Int32
	var wg sync.WaitGroup
	var admitted, refused atomic.Int32
	for range 400 {
		wg.Go(func() {
			done, ok := a.admit(context.Background())
			if !ok {
				refused.Add(1)
				return
			}
			admitted.Add(1)
			n := now.Add(1)
			for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
			}
			time.Sleep(time.Millisecond)
			now.Add(-1)
			done()
		})
	}
	for range 50 { // forms are never refused, and count
		wg.Go(func() {
			done := a.enter()
			time.Sleep(time.Millisecond)
			done()
		})
	}
	wg.Wait()
	if most.Load() > 8 {
		t.Errorf("%d pages in flight at once, limit 8", most.Load())
	}
	if admitted.Load()+refused.Load() != 400 || admitted.Load() < 8 {
		t.Errorf("%d admitted, %d refused", admitted.Load(), refused.Load())
	}
	if st := a.state(); st.InFlight != 0 || st.Queued != 0 {
		t.Errorf("state %+v after all were done", st)
	}
}

func TestReadsTheRuntimesSchedulingLatency(t *testing.T) {
	a := NewAdmission(AdmissionConfig{})
	var wg sync.WaitGroup
	for range 200 {
		wg.Go(func() { time.Sleep(time.Millisecond) })
	}
	wg.Wait()
	if _, ok := a.sched.read(); !ok {
		t.Error("no scheduling latency read from the runtime after 200 goroutines ran")
	}
}

// Goroutines that wait while the process used little CPU wait for cores
// the machine gave to something else: fewer pages would not help them.
func TestLimitHoldsWhenTheMachineTookTheCores(t *testing.T) {
	c := &clock{now: time.Unix(0, 0)}
	lat := &latency{}
	idle := func() (time.Duration, bool) { return 0, true }
	a := NewAdmission(AdmissionConfig{Min: 4, Initial: 40, Max: 100, Target: 5 * time.Millisecond,
		Interval: 100 * time.Millisecond, Now: c.Now, Latency: lat.read, CPU: idle})
	lat.v.Store(int64(50 * time.Millisecond))
	for range 20 {
		c.add(100 * time.Millisecond)
		done := a.enter()
		done()
	}
	if got := a.state().Limit; got != 40 {
		t.Errorf("limit %d, want it held at 40", got)
	}
}

// enter counts a page that must not be refused (a form sent), whatever the limit.
func (a *Admission) enter() (done func()) {
	a.mu.Lock()
	a.inflight++
	a.win.peak = max(a.win.peak, a.inflight)
	a.adjust()
	a.mu.Unlock()
	return a.leave
}
