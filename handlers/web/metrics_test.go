package web

import (
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
)

// counted is a counter's value now.
func counted(t *testing.T, c prometheus.Counter) float64 {
	t.Helper()
	var m dto.Metric
	if err := c.Write(&m); err != nil {
		t.Fatal(err)
	}
	return m.GetCounter().GetValue()
}

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

// Every upload refused is counted by its reason: one refused because its
// session has another in flight apart from one refused for want of room; a
// repeat of the form in flight waits for it and is no refusal.
func TestUploadsRefusedAreCountedByReason(t *testing.T) {
	refused := prometheus.NewCounterVec(prometheus.CounterOpts{Name: "refused"}, []string{"reason"})
	u := NewUploads(UploadLimit, refused)
	if ok, _ := u.Take("a", "f1", UploadLimit); !ok {
		t.Fatal("the first upload was refused")
	}
	if ok, same := u.Take("a", "f1", 10); ok || same == nil {
		t.Fatal("a repeat of the form in flight does not wait for it")
	}
	if ok, same := u.Take("a", "f2", 10); ok || same != nil {
		t.Fatal("a second upload of one session was taken")
	}
	if ok, _ := u.Take("b", "f3", 10); ok {
		t.Fatal("an upload beyond the room was taken")
	}
	if s, f := counted(t, refused.WithLabelValues(RefusedSession)), counted(t, refused.WithLabelValues(RefusedFull)); s != 1 || f != 1 {
		t.Errorf("lk_uploads_refused_total session %v, full %v; want 1 and 1", s, f)
	}
	u.Release("a", UploadLimit)
	if ok, _ := u.Take("a", "f2", 10); !ok {
		t.Error("the session's next upload refused after the first ended")
	}
}
