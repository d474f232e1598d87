package main

import (
	"net/http"
	"strings"
	"testing"
)

func status(t *testing.T, url string) int {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

// Profiles are served on LK_DEBUG_ADDR only, never on the public port.
func TestProfilingOnlyOnTheDebugAddress(t *testing.T) {
	vars := map[string]string{"LK_ADDR": "127.0.0.1:0", "LK_SANDBOX_ADDR": "127.0.0.1:0", "LK_DATA_DIR": t.TempDir()}
	addrs, _, stop := started(t, vars)
	if got := status(t, addrs["listening"]+"/debug/pprof/"); got != http.StatusNotFound {
		t.Errorf("public /debug/pprof/ without LK_DEBUG_ADDR: %d, want 404", got)
	}
	if addrs["profiling"] != "" {
		t.Errorf("profiling at %s without LK_DEBUG_ADDR", addrs["profiling"])
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
}
