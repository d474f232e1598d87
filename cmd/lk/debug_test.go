package main

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"lk/internal/testkit"
)

func body(t *testing.T, url string) string {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("%s: %d %v", url, res.StatusCode, err)
	}
	return string(b)
}

func status(t *testing.T, url string) int {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

// Metrics and profiles are served on LK_DEBUG_ADDR only, never on the
// public port.
func TestMetricsAndProfilingOnlyOnTheDebugAddress(t *testing.T) {
	vars := map[string]string{"LK_ADDR": "127.0.0.1:0", "LK_SANDBOX_ADDR": "127.0.0.1:0", "LK_DATA_DIR": t.TempDir()}
	addrs, _, stop := started(t, vars)
	if got := status(t, addrs["listening"]+"/debug/pprof/"); got != http.StatusNotFound {
		t.Errorf("public /debug/pprof/ without LK_DEBUG_ADDR: %d, want 404", got)
	}
	if got := status(t, addrs["listening"]+"/metrics"); got != http.StatusNotFound {
		t.Errorf("public /metrics without LK_DEBUG_ADDR: %d, want 404", got)
	}
	if addrs["profiling"] != "" || addrs["metrics"] != "" {
		t.Errorf("debug listener at %v without LK_DEBUG_ADDR", addrs)
	}
	stop()

	vars["LK_DEBUG_ADDR"] = "127.0.0.1:0"
	addrs, _, stop = started(t, vars)
	defer stop()
	if got := status(t, addrs["listening"]+"/debug/pprof/"); got != http.StatusNotFound {
		t.Errorf("public /debug/pprof/: %d, want 404", got)
	}
	if got := status(t, addrs["listening"]+"/debug/pprof/heap"); got != http.StatusNotFound {
		t.Errorf("public /debug/pprof/heap: %d, want 404", got)
	}
	if !strings.HasSuffix(addrs["profiling"], "/debug/pprof/") {
		t.Fatalf("no profiling address logged: %v", addrs)
	}
	if got := status(t, addrs["profiling"]+"heap?debug=1"); got != http.StatusOK {
		t.Errorf("LK_DEBUG_ADDR heap profile: %d, want 200", got)
	}
	if got := status(t, addrs["listening"]+"/metrics"); got != http.StatusNotFound {
		t.Errorf("public /metrics: %d, want 404", got)
	}
	// The public requests above were counted (each is counted after its
	// answer is sent, so not the last one necessarily, but these were
	// several round trips ago).
	m := body(t, addrs["metrics"])
	for _, want := range []string{`lk_build_info{commit="`, `lk_http_requests_total{method="GET",route="/*",status="404"}`, "lk_provider_up", "go_goroutines"} {
		if !strings.Contains(m, want) {
			t.Errorf("LK_DEBUG_ADDR /metrics lacks %s", want)
		}
	}
}

// A debug listener any machine may reach, without a token, is a warning at
// start; on loopback, or with a token, it is not.
func TestDebugAddressBeyondLoopbackWarns(t *testing.T) {
	for _, tc := range []struct {
		addr, token string
		warn        bool
	}{
		{"0.0.0.0:0", "", true},
		{"[::]:0", "", true},
		{"127.0.0.1:0", "", false},
		{"0.0.0.0:0", "secret", false},
	} {
		var out testkit.Buffer
		stop, err := serveDebug(tc.addr, tc.token, prometheus.NewRegistry(), newLogger("info", &out))
		if err != nil {
			t.Fatal(err)
		}
		stop()
		if got := strings.Contains(out.String(), `"level":"WARN","msg":"LK_DEBUG_ADDR listens beyond this machine without LK_DEBUG_TOKEN_FILE`); got != tc.warn {
			t.Errorf("%s with token %q: warned %v, want %v:\n%s", tc.addr, tc.token, got, tc.warn, out.String())
		}
	}
}
