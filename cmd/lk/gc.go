package main

import "runtime/debug"

// gcPercent is how far the heap may grow past what is live before the
// collector runs, when GOGC does not say otherwise. Nearly everything a
// page allocates (the provider's answers, the view, the rendered page) dies
// with it, while what lives (sessions, pools, idle connections) is a few
// megabytes, so at Go's default of 100 the collector ran several times a
// second under load and took a tenth of the CPU. At 200 it runs half as
// often; the server's peak memory at 200 pages at once grows from about 75
// to about 95 MB (make bench prints both).
const gcPercent = 200

// memoryLimit is the heap size past which the collector works harder
// whatever gcPercent allows, when GOMEMLIMIT does not say otherwise. Refund
// uploads are read into memory up to their own budget (about 100 MB), and at
// 200 a burst of them would let the heap triple; near this limit the
// collector runs as often as it must instead. It is a soft limit: nothing
// fails above it.
const memoryLimit = 192 << 20

// tuneGC sets gcPercent and memoryLimit unless the operator set GOGC or
// GOMEMLIMIT, which the runtime has already applied.
func tuneGC(getenv func(string) string) {
	if getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	if getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
}
