// Package workers runs short tasks on goroutines that are kept for the next
// task instead of ending.
//
// A new goroutine starts with a small stack and grows it by copying the
// whole stack each time its calls go deeper than it has room for. A
// provider call (an HTTP exchange, then decoding its JSON) is deep, and
// the order list starts ten such tasks per page: copying stacks took a
// tenth of the server's CPU under load. A kept goroutine keeps the stack it
// grew; the collector shrinks the stacks of idle ones, so an idle pool
// costs a few kilobytes per goroutine.
package workers

import (
	"sync"
	"sync/atomic"
)

// MaxKept bounds the goroutines kept waiting for work. Past it a task gets
// a goroutine of its own, as the go statement would give it.
const MaxKept = 1024

var (
	work = make(chan func()) // unbuffered: a send succeeds only to a waiting goroutine
	kept atomic.Int32
)

// Go runs f on a goroutine of the pool: an idle one if there is one, else
// a new one that stays for later tasks. Like the go statement, it does not
// wait for f, and a panic in f ends the program.
func Go(f func()) {
	select {
	case work <- f:
		return
	default:
	}
	if kept.Add(1) > MaxKept {
		kept.Add(-1)
		go f()
		return
	}
	go loop(f)
}

func loop(f func()) {
	for {
		f()
		f = <-work
	}
}

// Group starts tasks on the pool and waits for them, as sync.WaitGroup's Go
// and Wait do with goroutines of their own.
type Group struct{ wg sync.WaitGroup }

// Go runs f on the pool.
func (g *Group) Go(f func()) {
	g.wg.Add(1)
	Go(func() {
		defer g.wg.Done()
		f()
	})
}

// Wait waits until every task started by Go has returned.
func (g *Group) Wait() { g.wg.Wait() }
