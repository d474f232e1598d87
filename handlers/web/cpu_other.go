//go:build !unix

package web

import "time"

// processCPU is not known here: the limit then follows the scheduling
// latency alone.
func processCPU() (time.Duration, bool) { return 0, false }
