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

// Admission bounds the pages worked on at once, so past what the cores can
// serve the server keeps its pace. The limit rises while ready goroutines run
// within Target and falls when they wait longer while the process keeps its
// cores busy (a page waiting on the provider uses no CPU, so never lowers it).
// A page beyond the limit waits its turn for at most MaxWait, or is refused at
// once when it plainly would not get it in time.
type Admission struct {
	cfg AdmissionConfig

	mu       sync.Mutex
	limit    float64
	inflight int
	queue    *list.List // of *waiter, oldest first
	rate     float64    // pages finished per second, smoothed
	win      window     // since the last adjustment
	sched    schedReader
	latency  time.Duration // the last interval's 90th percentile of scheduling latency
	refused  uint64
}

type window struct {
	last time.Time     // the last adjustment
	peak int           // the most in flight
	done int           // pages finished
	cpu  time.Duration // the process's CPU time at the last adjustment
}

type schedReader struct {
	prev    *metrics.Float64Histogram
	samples []metrics.Sample
}

// AdmissionConfig sizes an Admission; a zero field takes its default: Min 8
// and Initial 64 pages per core, Max 1024, MaxWait 2 s, Target (the p90
// scheduling latency under which the cores keep up) 5 ms, Interval 100 ms,
// and the process's own clock, latency and CPU time.
type AdmissionConfig struct {
	Min, Max, Initial         int
	Fixed                     bool // the limit stays at Initial
	MaxWait, Target, Interval time.Duration
	Now                       func() time.Time
	Latency                   func() (time.Duration, bool)
	CPU                       func() (time.Duration, bool)
}

type waiter struct {
	ready   chan struct{} // closed when the page is admitted
	granted bool
}

const schedLatency = "/sched/latencies:seconds"

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
	a := &Admission{cfg: cfg, limit: float64(cfg.Initial), queue: list.New(), win: window{last: cfg.Now()}}
	a.win.cpu, _ = cfg.CPU()
	if a.cfg.Latency == nil {
		a.sched.samples = []metrics.Sample{{Name: schedLatency}}
		metrics.Read(a.sched.samples)
		if a.sched.samples[0].Value.Kind() == metrics.KindFloat64Histogram {
			a.sched.prev = copyHistogram(nil, a.sched.samples[0].Value.Float64Histogram())
		}
		a.cfg.Latency = a.sched.read
	}
	return a
}

// admit waits for the page's turn: false when refused, at once, after MaxWait or as ctx ends.
func (a *Admission) admit(ctx context.Context) (done func(), ok bool) {
	a.mu.Lock()
	a.adjust()
	if a.inflight < int(a.limit) && a.queue.Len() == 0 {
		a.inflight++
		a.win.peak = max(a.win.peak, a.inflight)
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

// tryAdmit admits only if a place is free now: a page fetched ahead goes first.
func (a *Admission) tryAdmit() (done func(), ok bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.adjust()
	if a.inflight < int(a.limit) && a.queue.Len() == 0 {
		a.inflight++
		a.win.peak = max(a.win.peak, a.inflight)
		return a.leave, true
	}
	a.refused++
	return nil, false
}

// mayWait: the queue ahead is shorter than the pages finished in MaxWait
// lately (any, before that is measured), and never longer than Max.
func (a *Admission) mayWait() bool {
	ahead := float64(a.queue.Len() + 1)
	if ahead > float64(a.cfg.Max) {
		return false
	}
	return a.rate == 0 || ahead <= a.rate*a.cfg.MaxWait.Seconds()
}

func (a *Admission) leave() {
	a.mu.Lock()
	a.win.done++
	a.release()
	a.adjust()
	a.mu.Unlock()
}

func (a *Admission) release() {
	a.inflight--
	a.grant()
}

func (a *Admission) grant() {
	for a.inflight < int(a.limit) && a.queue.Len() > 0 {
		w := a.queue.Remove(a.queue.Front()).(*waiter)
		w.granted = true
		a.inflight++
		a.win.peak = max(a.win.peak, a.inflight)
		close(w.ready)
	}
}

// adjust moves the limit once per Interval: down by a fifth when the cores
// were busy and ready goroutines waited past Target, up by an eighth when
// they did not and the limit was reached.
func (a *Admission) adjust() {
	now := a.cfg.Now()
	elapsed := now.Sub(a.win.last)
	if elapsed < a.cfg.Interval {
		return
	}
	full := a.win.peak >= int(a.limit) || a.queue.Len() > 0
	// Throughput counts only while full; it follows a rise at once and a
	// fall slowly, as a burst's refusals taking the cores measure nothing.
	if full && elapsed < 3*a.cfg.Interval {
		rate := float64(a.win.done) / elapsed.Seconds()
		if rate >= a.rate {
			a.rate = rate
		} else {
			a.rate = 0.9*a.rate + 0.1*rate
		}
	}
	latency, measured := a.cfg.Latency()
	a.latency = latency
	// Busy: the process used three quarters of its cores, or cannot tell.
	busy := true
	if cpu, ok := a.cfg.CPU(); ok {
		busy = cpu-a.win.cpu >= elapsed*time.Duration(runtime.GOMAXPROCS(0))*3/4
		a.win.cpu = cpu
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
	a.win.last, a.win.done, a.win.peak = now, 0, a.inflight
	a.grant()
}

// read is the p90 scheduling latency since the last read; false when too few ran.
func (r *schedReader) read() (time.Duration, bool) {
	if r.prev == nil {
		return 0, false
	}
	metrics.Read(r.samples)
	now := r.samples[0].Value.Float64Histogram()
	var total uint64
	for i, n := range now.Counts {
		total += n - r.prev.Counts[i]
	}
	defer func() { r.prev = copyHistogram(r.prev, now) }()
	if total < 20 {
		return 0, false
	}
	want := uint64(math.Ceil(float64(total) * 0.9))
	var seen uint64
	for i, n := range now.Counts {
		seen += n - r.prev.Counts[i]
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

type admissionState struct {
	Limit, InFlight, Queued int
	Refused                 uint64        // pages refused since the start
	Latency                 time.Duration // the scheduling latency last measured
}

func (a *Admission) state() admissionState {
	a.mu.Lock()
	defer a.mu.Unlock()
	return admissionState{Limit: int(a.limit), InFlight: a.inflight, Queued: a.queue.Len(), Refused: a.refused, Latency: a.latency}
}
