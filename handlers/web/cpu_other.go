//go:build !unix

package web

import "time"

// processCPU is unknown here: the limit follows the scheduling latency alone.
func processCPU() (time.Duration, bool) { return 0, false }
