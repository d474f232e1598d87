package sandbox

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"lk/gateway"
)

// With a service key, the sandbox answers a /v1 call only when it carries
// the key (403 otherwise, not counted as a call); its own /sandbox/ tools
// ask for none.
func TestServiceKeyIsAskedFor(t *testing.T) {
	sb, err := New(Config{Now: newClock().Now, Logger: quietLogger(), ServiceKey: "sandbox-key"})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(sb.Handler())
	t.Cleanup(func() { srv.Close(); sb.Close() })
	get := func(path, key string) int {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+path, nil)
		if key != "" {
			req.Header.Set(gateway.ServiceKeyHeader, key)
		}
		r, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		r.Body.Close()
		return r.StatusCode
	}
	const sessions = "/v1/aqua/getSessionsAqua?date=11.03.2026"
	for key, want := range map[string]int{"": http.StatusForbidden, "sandbox-ke": http.StatusForbidden, "sandbox-keyy": http.StatusForbidden, "sandbox-key": http.StatusOK} {
		if got := get(sessions, key); got != want {
			t.Errorf("key %q: %d, want %d", key, got, want)
		}
	}
	if n := sb.AllCalls()["aqua/getSessionsAqua"]; n != 1 {
		t.Errorf("%d calls counted, want the one with the key", n)
	}
	if got := get("/sandbox/calls", ""); got != http.StatusOK {
		t.Errorf("/sandbox/calls without the key: %d, want 200", got)
	}
}
