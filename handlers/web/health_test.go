package web

import (
	"context"
	"errors"
	"log/slog"
	"testing"

	dto "github.com/prometheus/client_model/go"
)

// The provider is down after three failed checks in a row and up after two
// good ones; the first check decides at once.
func TestProviderStateHasHysteresis(t *testing.T) {
	h, err := NewHealth(nil)
	if err != nil {
		t.Fatal(err)
	}
	failed := errors.New("gateway: ping: unavailable: server_error")
	quiet := slog.New(slog.DiscardHandler)
	for i, step := range []struct {
		err   error
		state string
	}{
		{nil, "up"},                                 // the first check decides
		{failed, "up"}, {failed, "up"}, {nil, "up"}, // a good answer starts the count again
		{failed, "up"}, {failed, "up"}, {failed, "down"},
		{nil, "down"}, {failed, "down"}, {nil, "down"}, {nil, "up"},
	} {
		h.CheckProvider(t.Context(), func(context.Context) error { return step.err }, quiet)
		var m dto.Metric
		if err := h.up.Write(&m); err != nil {
			t.Fatal(err)
		}
		gauge := map[string]float64{"up": 1, "down": 0}[step.state]
		if got := h.providerState(); got != step.state || m.GetGauge().GetValue() != gauge {
			t.Fatalf("check %d (err %v): %s, lk_provider_up %v; want %s", i+1, step.err, got, m.GetGauge().GetValue(), step.state)
		}
	}

	fresh, _ := NewHealth(nil)
	fresh.CheckProvider(t.Context(), func(context.Context) error { return failed }, quiet)
	if got := fresh.providerState(); got != "down" {
		t.Errorf("a first check that fails: %s, want down at once", got)
	}
}
