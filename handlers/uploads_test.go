package handlers

import (
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"lk/handlers/web"
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

// Every upload refused is counted by its reason: one refused because its
// session has another in flight apart from one refused for want of room; a
// repeat of the form in flight waits for it and is no refusal.
func TestUploadsRefusedAreCountedByReason(t *testing.T) {
	refused := prometheus.NewCounterVec(prometheus.CounterOpts{Name: "refused"}, []string{"reason"})
	u := newUploads(web.UploadLimit, refused)
	if ok, _ := u.take("a", "f1", web.UploadLimit); !ok {
		t.Fatal("the first upload was refused")
	}
	if ok, same := u.take("a", "f1", 10); ok || same == nil {
		t.Fatal("a repeat of the form in flight does not wait for it")
	}
	if ok, same := u.take("a", "f2", 10); ok || same != nil {
		t.Fatal("a second upload of one session was taken")
	}
	if ok, _ := u.take("b", "f3", 10); ok {
		t.Fatal("an upload beyond the room was taken")
	}
	if s, f := counted(t, refused.WithLabelValues(refusedSession)), counted(t, refused.WithLabelValues(refusedFull)); s != 1 || f != 1 {
		t.Errorf("lk_uploads_refused_total session %v, full %v; want 1 and 1", s, f)
	}
	u.release("a", web.UploadLimit)
	if ok, _ := u.take("a", "f2", 10); !ok {
		t.Error("the session's next upload refused after the first ended")
	}
}
