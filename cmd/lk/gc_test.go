package main

import (
	"runtime/debug"
	"testing"
)

func TestTuneGCLeavesAnOperatorsGOGC(t *testing.T) {
	was := debug.SetGCPercent(100)
	defer debug.SetGCPercent(was)

	tuneGC(func(string) string { return "" })
	if got := debug.SetGCPercent(100); got != gcPercent {
		t.Errorf("without GOGC the collector's target is %d, want %d", got, gcPercent)
	}
	tuneGC(func(k string) string {
		if k == "GOGC" {
			return "100"
		}
		return ""
	})
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("with GOGC=100 the target became %d", got)
	}
}
