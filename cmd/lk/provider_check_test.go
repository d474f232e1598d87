package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"lk"
)

// A gateway (or the proxy before it) that starts answering every call with
// 502 and an HTML page is the provider down: lk_provider_up reads 0 after
// three checks in a row, the check's outcome says server_error, and
// /readyz stays 200, saying so in its body. At the default interval of
// 15 s that is 30 s after the first failed check.
func TestProviderAnsweringErrorsIsDown(t *testing.T) {
	var failing atomic.Bool
	var failed atomic.Int32
	var agent, probeID atomic.Value
	gw := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		agent.Store(r.UserAgent())
		probeID.Store(r.Header.Get("X-Request-Id"))
		if !failing.Load() {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"success":true,"result":[]}`))
			return
		}
		failed.Add(1)
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusBadGateway)
		_, _ = w.Write([]byte("<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center></body></html>"))
	}))
	defer gw.Close()
	const every = 40 * time.Millisecond
	addrs, out, stop := started(t, map[string]string{
		"LK_ADDR": "127.0.0.1:0", "LK_DEBUG_ADDR": "127.0.0.1:0", "LK_DATA_DIR": t.TempDir(),
		"LK_GATEWAY_URL": gw.URL + "/v1", "LK_PROVIDER_CHECK_INTERVAL": every.String(),
	})
	defer stop()
	// until polls the metrics until they contain want.
	until := func(want string) string {
		t.Helper()
		start := time.Now()
		for {
			m := body(t, addrs["metrics"])
			if strings.Contains(m, want) {
				return m
			}
			if time.Since(start) > 5*time.Second {
				t.Fatalf("no %q after %d calls answered 502:\n%s", want, failed.Load(), m)
			}
			time.Sleep(every / 4)
		}
	}
	until("\nlk_provider_up 1")
	failing.Store(true)
	m := until("\nlk_provider_up 0")
	if n := failed.Load(); n < 3 {
		t.Errorf("counted down after %d checks, want 3 in a row", n)
	}
	if !strings.Contains(m, `lk_gateway_call_duration_seconds_count{call="ping",outcome="server_error"}`) {
		t.Errorf("the check's outcome is not server_error:\n%s", m)
	}
	if got := status(t, addrs["listening"]+"/readyz"); got != http.StatusOK {
		t.Errorf("/readyz: %d, want 200: the provider is no reason to leave the pool", got)
	}
	if r := body(t, addrs["listening"]+"/readyz"); !strings.Contains(r, "provider: down") {
		t.Errorf("/readyz: %q, want 200 saying the provider is down", r)
	}
	if ua, _ := agent.Load().(string); ua != "lk/"+lk.Version() {
		t.Errorf("User-Agent %q, want lk/%s", ua, lk.Version())
	}
	if id, _ := probeID.Load().(string); !strings.HasPrefix(id, "probe-") {
		t.Errorf("the check's X-Request-Id %q, want its own probe-…", id)
	}
	if !strings.Contains(out.String(), "provider check failed") || !strings.Contains(out.String(), "server_error") {
		t.Errorf("the log does not say why the provider is down:\n%s", out)
	}
}
