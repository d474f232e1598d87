package web

import (
	"testing"

	"github.com/prometheus/client_golang/prometheus"
)

// lk_ready says what /readyz says: 0 while shutting down or while the
// shared store failed its last check.
func TestReadyGaugeFollowsReadiness(t *testing.T) {
	reg := prometheus.NewRegistry()
	h, err := NewHealth(reg)
	if err != nil {
		t.Fatal(err)
	}
	ready := func() float64 {
		t.Helper()
		mfs, err := reg.Gather()
		if err != nil {
			t.Fatal(err)
		}
		for _, mf := range mfs {
			if mf.GetName() == "lk_ready" {
				return mf.GetMetric()[0].GetGauge().GetValue()
			}
		}
		t.Fatal("lk_ready not gathered")
		return 0
	}
	h.SetServing(true)
	if v := ready(); v != 1 {
		t.Errorf("serving: lk_ready %v, want 1", v)
	}
	h.storeDown.Store(true)
	if v := ready(); v != 0 {
		t.Errorf("store down: lk_ready %v, want 0", v)
	}
	h.storeDown.Store(false)
	h.SetServing(false)
	if v := ready(); v != 0 {
		t.Errorf("shutting down: lk_ready %v, want 0", v)
	}
}
