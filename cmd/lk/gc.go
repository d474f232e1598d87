package main

import "runtime/debug"

// gcPercent is how far the heap may grow past what is live before the
// collector runs, when GOGC does not say otherwise. Nearly everything a
// page allocates (the provider's answers, the view, the rendered page) dies
// with it, while what lives (sessions, pools, idle connections) is a few
// megabytes, so at Go's default of 100 the collector ran several times a
// second under load and took a tenth of the CPU. At 200 it runs half as
// often; the server's peak memory grows by a few tens of megabytes
// (make bench prints both).
const gcPercent = 200

// tuneGC sets gcPercent unless the operator set GOGC, which the runtime has
// already applied.
func tuneGC(getenv func(string) string) {
	if getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
}
