package main

import (
	"math"
	"runtime/debug"
	"testing"
)

func TestTuneGCLeavesWhatTheOperatorSet(t *testing.T) {
	wasPercent, wasLimit := debug.SetGCPercent(100), debug.SetMemoryLimit(math.MaxInt64)
	defer func() {
		debug.SetGCPercent(wasPercent)
		debug.SetMemoryLimit(wasLimit)
	}()

	tuneGC(func(string) string { return "" })
	if got := debug.SetGCPercent(100); got != gcPercent {
		t.Errorf("without GOGC the collector's target is %d, want %d", got, gcPercent)
	}
	if got := debug.SetMemoryLimit(math.MaxInt64); got != memoryLimit {
		t.Errorf("without GOMEMLIMIT the memory limit is %d, want %d", got, memoryLimit)
	}

	set := map[string]string{"GOGC": "100", "GOMEMLIMIT": "1GiB"}
	tuneGC(func(k string) string { return set[k] })
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("with GOGC=100 the target became %d", got)
	}
	if got := debug.SetMemoryLimit(math.MaxInt64); got != math.MaxInt64 {
		t.Errorf("with GOMEMLIMIT set the limit became %d", got)
	}
}
