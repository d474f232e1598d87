package gateway

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// The background check counts the provider down when customers would see
// errors (a 5xx whatever its body, an answer outside the contract, a
// refusal of this service, no answer in time, no connection), and up when
// it answers in its own protocol; each outcome has its own label.
func TestPingOutcomes(t *testing.T) {
	sessions := `{"success":true,"result":[{"sessionId":"s1","sessionTime":"10:00","availableCount":5,"name":"Дневной","endTime":"13:00"}]}`
	for _, tc := range []struct {
		name, ctype, body string
		status            int
		outcome           string
	}{
		{"sessions", "application/json", sessions, 200, PingOK},
		{"502 with an HTML page", "text/html", "<html><body><h1>502 Bad Gateway</h1></body></html>", 502, PingServerError},
		{"500 with the provider's JSON", "application/json", `{"success":false,"errorMessage":"Сервис недоступен"}`, 500, PingServerError},
		{"503 empty", "", "", 503, PingServerError},
		{"200 with an HTML page", "text/html", "<html>Welcome to nginx</html>", 200, PingMalformed},
		{"200 with the wrong shape", "application/json", `{"success":true,"result":{"sessions":1}}`, 200, PingMalformed},
		{"404 from a proxy", "text/plain", "404 page not found", 404, PingMalformed},
		{"401 for this service", "application/json", `{"success":false,"errorMessage":"unauthorized"}`, 401, PingUnauthorized},
		{"the provider's refusal", "application/json", `{"success":false,"errorMessage":"Нет сеансов"}`, 200, PingRefusal},
		{"429", "application/json", `{"success":false,"errorMessage":"too many"}`, 429, PingThrottled},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reg := prometheus.NewRegistry()
			c, mux, _ := setup(t, WithRegisterer(reg))
			seen := record(t, mux, tc.status, tc.ctype, tc.body)
			err := c.Ping(t.Context())
			if down := PingDown(tc.outcome); down != (err != nil) || down && !errors.Is(err, ErrUnavailable) {
				t.Errorf("Ping: %v, want down %v", err, down)
			}
			if err != nil && !strings.Contains(err.Error(), tc.outcome) {
				t.Errorf("error %q does not name the outcome %s", err, tc.outcome)
			}
			if got := callSamples(t, reg); got["ping/"+tc.outcome] != 1 || len(got) != 1 {
				t.Errorf("samples %v, want one ping/%s", got, tc.outcome)
			}
			if seen.path != "aqua/getSessionsAqua" || seen.query.Get("date") == "" {
				t.Errorf("the check asked %s?%s, want today's water-park sessions", seen.path, seen.query.Encode())
			}
		})
	}
}

func TestPingTimeoutAndNoConnection(t *testing.T) {
	reg := prometheus.NewRegistry()
	c, mux, srv := setup(t, WithRegisterer(reg), WithTimeouts(0, 50*time.Millisecond))
	release := make(chan struct{})
	mux.HandleFunc("/v1/", func(w http.ResponseWriter, r *http.Request) { <-release })
	err := c.Ping(t.Context())
	close(release)
	if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), PingTimeout) {
		t.Errorf("a provider that does not answer: %v, want %s", err, PingTimeout)
	}
	srv.Close()
	if err := c.Ping(t.Context()); !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), PingUnreachable) {
		t.Errorf("a closed port: %v, want %s", err, PingUnreachable)
	}
	if got := callSamples(t, reg); got["ping/"+PingTimeout] != 1 || got["ping/"+PingUnreachable] != 1 {
		t.Errorf("samples %v, want one timeout and one unreachable", got)
	}
}

// The check carries its own request id, so the provider's log tells it
// from customers' calls, and the client's name and version.
func TestPingHasItsOwnRequestID(t *testing.T) {
	c, mux, _ := setup(t, WithUserAgent("lk/0.5.0-dev"))
	ids := make(chan string, 2)
	mux.HandleFunc("/v1/", func(w http.ResponseWriter, r *http.Request) {
		if ua := r.UserAgent(); ua != "lk/0.5.0-dev" {
			t.Errorf("User-Agent %q, want lk/0.5.0-dev", ua)
		}
		ids <- r.Header.Get(HeaderRequestID)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"success":true,"result":[]}`))
	})
	for range 2 {
		if err := c.Ping(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	a, b := <-ids, <-ids
	if !strings.HasPrefix(a, "probe-") || len(a) != len("probe-")+16 || a == b {
		t.Errorf("request ids %q, %q: want a fresh probe-… id per check", a, b)
	}
}
