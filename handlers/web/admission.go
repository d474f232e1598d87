// Package web holds what any page of any web application needs and that
// knows nothing of orders, customers or the provider: admission under
// overload, first of all.
package web

import (
	"container/list"
	"context"
	"math"
	"runtime"
	"runtime/metrics"
	"sync"
	"time"
)

// Admission bounds the pages being worked on at once, so that past what the
// cores can serve the server keeps its pace instead of slowing every page
// down: each page in progress holds memory and competes for a CPU, and a
// page that waits for a CPU is a page that waits longer for everything.
//
// The limit adapts to the process's own measured state: the time goroutines
// wait to be run once they are ready (the Go scheduler's latency, which
// runtime/metrics reports) and the CPU time the process used. While most
// goroutines run within Target, the limit rises whenever it was reached;
// when they wait longer while the process keeps its cores busy, the cores
// are oversubscribed and the limit falls (additive increase, multiplicative
// decrease). When they wait although the process used little CPU, the
// machine gave its cores to something else, and fewer pages would not help:
// the limit stays. A page waiting on a slow provider waits for no CPU, so a
// slow provider raises the limit rather than lowering it: latency of the
// whole request would mistake the provider's slowness for the server's.
//
// A page beyond the limit waits its turn, first come first served, parked on
// its connection's own goroutine, for at most MaxWait. One that would
// plainly not get its turn in time (the queue ahead of it is longer than
// the pages finished in MaxWait lately) is refused at once, so that the
// customer hears 'try again' now rather than after the wait.
type Admission struct {
	cfg AdmissionConfig

	mu       sync.Mutex
	limit    float64
	inflight int
	peak     int        // the most in flight since the last adjustment
	queue    *list.List // of *waiter, oldest first
	done     int        // pages finished since the last adjustment
	rate     float64    // pages finished per second, smoothed
	last     time.Time  // the last adjustment
	sched    *metrics.Float64Histogram
	samples  []metrics.Sample
	latency  time.Duration // the last interval's 90th percentile of scheduling latency
	cpu      time.Duration // the process's CPU time at the last adjustment
	refused  uint64
}

// AdmissionConfig sizes an Admission; a zero field takes its default.
type AdmissionConfig struct {
	// Min and Max bound the limit; Initial is where it starts. Defaults:
	// 8 and 64 pages per core (GOMAXPROCS) for Min and Initial, 1024.
	Min, Max, Initial int
	// Fixed keeps the limit at Initial (for tests and for operators who
	// size it by hand).
	Fixed bool
	// MaxWait is the longest a page waits for its turn; default 2 s.
	MaxWait time.Duration
	// Target is the scheduling latency (90th percentile) under which the
	// cores are taken to keep up; default 5 ms.
	Target time.Duration
	// Interval is how often the limit is adjusted; default 100 ms.
	Interval time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Latency reads the scheduling latency of the last interval; nil means
	// the runtime's own. Tests give their own.
	Latency func() (time.Duration, bool)
	// CPU reads the CPU time the process has used; nil means its own.
	CPU func() (time.Duration, bool)
}

type waiter struct {
	ready   chan struct{} // closed when the page is admitted
	granted bool
}

// schedLatency is the Go runtime's histogram of the time goroutines spent
// ready to run before running.
const schedLatency = "/sched/latencies:seconds"

// NewAdmission makes an Admission with cfg.
func NewAdmission(cfg AdmissionConfig) *Admission {
	procs := runtime.GOMAXPROCS(0)
	if cfg.Min <= 0 {
		cfg.Min = 8 * procs
	}
	if cfg.Max <= 0 {
		cfg.Max = 1024
	}
	if cfg.Initial <= 0 {
		cfg.Initial = 64 * procs
	}
	cfg.Max = max(cfg.Max, cfg.Min)
	cfg.Initial = min(max(cfg.Initial, cfg.Min), cfg.Max)
	if cfg.MaxWait <= 0 {
		cfg.MaxWait = 2 * time.Second
	}
	if cfg.Target <= 0 {
		cfg.Target = 5 * time.Millisecond
	}
	if cfg.Interval <= 0 {
		cfg.Interval = 100 * time.Millisecond
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.CPU == nil {
		cfg.CPU = processCPU
	}
	a := &Admission{cfg: cfg, limit: float64(cfg.Initial), queue: list.New(), last: cfg.Now()}
	a.cpu, _ = cfg.CPU()
	if a.cfg.Latency == nil {
		a.samples = []metrics.Sample{{Name: schedLatency}}
		metrics.Read(a.samples)
		if a.samples[0].Value.Kind() == metrics.KindFloat64Histogram {
			a.sched = copyHistogram(nil, a.samples[0].Value.Float64Histogram())
		}
		a.cfg.Latency = a.readLatency
	}
	return a
}

// Enter counts a page that must not be refused (a form being sent, which
// the customer cannot simply repeat): it takes its place in the count at
// once, whatever the limit. done must be called when it is answered.
func (a *Admission) Enter() (done func()) {
	a.mu.Lock()
	a.inflight++
	a.peak = max(a.peak, a.inflight)
	a.adjust()
	a.mu.Unlock()
	return a.leave
}

// Admit waits for the page's turn. It answers ok false, at once or after
// MaxWait, when the page is refused; ctx ending gives up the wait. done
// must be called when an admitted page is answered.
func (a *Admission) Admit(ctx context.Context) (done func(), ok bool) {
	a.mu.Lock()
	a.adjust()
	if a.inflight < int(a.limit) && a.queue.Len() == 0 {
		a.inflight++
		a.peak = max(a.peak, a.inflight)
		a.mu.Unlock()
		return a.leave, true
	}
	if !a.mayWait() {
		a.refused++
		a.mu.Unlock()
		return nil, false
	}
	w := &waiter{ready: make(chan struct{})}
	el := a.queue.PushBack(w)
	a.mu.Unlock()

	t := time.NewTimer(a.cfg.MaxWait)
	defer t.Stop()
	select {
	case <-w.ready:
		return a.leave, true
	case <-t.C:
	case <-ctx.Done():
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if w.granted { // admitted as the wait ended: the place is the page's
		if ctx.Err() != nil {
			a.release()
			return nil, false
		}
		return a.leave, true
	}
	a.queue.Remove(el)
	a.refused++
	return nil, false
}

// TryAdmit admits a page only if a place is free now and nobody waits for
// one: for a page the customer has not asked for yet (one fetched ahead),
// which is the first to go when there is not room for everything.
func (a *Admission) TryAdmit() (done func(), ok bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.adjust()
	if a.inflight < int(a.limit) && a.queue.Len() == 0 {
		a.inflight++
		a.peak = max(a.peak, a.inflight)
		return a.leave, true
	}
	a.refused++
	return nil, false
}

// mayWait tells whether one more page can expect its turn within MaxWait:
// the queue ahead of it is shorter than what was finished in MaxWait
// lately. Before that was measured, every page may wait (MaxWait still
// bounds it). It never lets the queue pass Max.
func (a *Admission) mayWait() bool {
	ahead := float64(a.queue.Len() + 1)
	if ahead > float64(a.cfg.Max) {
		return false
	}
	return a.rate == 0 || ahead <= a.rate*a.cfg.MaxWait.Seconds()
}

func (a *Admission) leave() {
	a.mu.Lock()
	a.done++
	a.release()
	a.adjust()
	a.mu.Unlock()
}

// release frees a place and hands the free places to the oldest waiters.
func (a *Admission) release() {
	a.inflight--
	a.grant()
}

func (a *Admission) grant() {
	for a.inflight < int(a.limit) && a.queue.Len() > 0 {
		w := a.queue.Remove(a.queue.Front()).(*waiter)
		w.granted = true
		a.inflight++
		a.peak = max(a.peak, a.inflight)
		close(w.ready)
	}
}

// adjust moves the limit once an interval has passed: down by a fifth when
// the process kept its cores busy and ready goroutines waiting past Target,
// up by an eighth when they did not wait and the limit was reached (there
// was more work than it let in). It also measures the pages finished per
// second while full.
func (a *Admission) adjust() {
	now := a.cfg.Now()
	elapsed := now.Sub(a.last)
	if elapsed < a.cfg.Interval {
		return
	}
	full := a.peak >= int(a.limit) || a.queue.Len() > 0
	// The pages finished say what the server can do only while it had
	// more than it let in, and over an interval it was asked all along.
	// It follows a rise at once and a fall slowly: an interval in which
	// the refusals of a burst took the cores is no measure of what the
	// server can do, and forgetting it at once would refuse still more.
	if full && elapsed < 3*a.cfg.Interval {
		rate := float64(a.done) / elapsed.Seconds()
		if rate >= a.rate {
			a.rate = rate
		} else {
			a.rate = 0.9*a.rate + 0.1*rate
		}
	}
	latency, measured := a.cfg.Latency()
	a.latency = latency
	// Busy: the process used at least three quarters of its cores (or it
	// cannot tell).
	busy := true
	if cpu, ok := a.cfg.CPU(); ok {
		busy = cpu-a.cpu >= elapsed*time.Duration(runtime.GOMAXPROCS(0))*3/4
		a.cpu = cpu
	}
	if !a.cfg.Fixed && measured {
		switch {
		case latency > a.cfg.Target && busy:
			a.limit = max(float64(a.cfg.Min), math.Floor(a.limit*0.8))
		case latency > a.cfg.Target: // the cores went to something else
		case full:
			a.limit = min(float64(a.cfg.Max), a.limit+max(1, math.Floor(a.limit/8)))
		}
	}
	a.last, a.done, a.peak = now, 0, a.inflight
	a.grant()
}

// readLatency is the 90th percentile of the scheduling latencies recorded
// since it was last read; false when too few were recorded to tell.
func (a *Admission) readLatency() (time.Duration, bool) {
	if a.sched == nil {
		return 0, false
	}
	metrics.Read(a.samples)
	now := a.samples[0].Value.Float64Histogram()
	var total uint64
	for i, n := range now.Counts {
		total += n - a.sched.Counts[i]
	}
	defer func() { a.sched = copyHistogram(a.sched, now) }()
	if total < 20 {
		return 0, false
	}
	want := uint64(math.Ceil(float64(total) * 0.9))
	var seen uint64
	for i, n := range now.Counts {
		seen += n - a.sched.Counts[i]
		if seen >= want {
			upper := now.Buckets[i+1]
			if math.IsInf(upper, 1) {
				upper = now.Buckets[i]
			}
			return time.Duration(upper * float64(time.Second)), true
		}
	}
	return 0, false
}

func copyHistogram(dst, src *metrics.Float64Histogram) *metrics.Float64Histogram {
	if dst == nil {
		dst = &metrics.Float64Histogram{}
	}
	dst.Counts = append(dst.Counts[:0], src.Counts...)
	dst.Buckets = src.Buckets // the runtime's buckets never change
	return dst
}

// AdmissionState is what an operator reads of an Admission.
type AdmissionState struct {
	Limit, InFlight, Queued int
	Refused                 uint64        // pages refused since the start
	Latency                 time.Duration // the scheduling latency last measured
}

// State is the Admission as it is now.
func (a *Admission) State() AdmissionState {
	a.mu.Lock()
	defer a.mu.Unlock()
	return AdmissionState{Limit: int(a.limit), InFlight: a.inflight, Queued: a.queue.Len(), Refused: a.refused, Latency: a.latency}
}
