package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"lk/internal/testkit"
)

// env is m as an environment's NAME=value lines.
func env(m map[string]string) []string {
	var lines []string
	for k, v := range m {
		lines = append(lines, k+"="+v)
	}
	return lines
}

func TestConfigErrorsNameTheVariable(t *testing.T) {
	for name, bad := range map[string]string{
		"LK_ADDR":            "8080",
		"LK_GATEWAY_URL":     "ftp://x",
		"LK_COOKIE_KEYS":     "c2hvcnQ=",
		"LK_SOCIAL_LINKS":    "ВКонтакте",
		"LK_TIMEZONE":        "Mars/Olympus",
		"LK_GATEWAY_TIMEOUT": "soon",
		"LK_LOG_LEVEL":       "loud",
		"LK_TRUSTED_PROXIES": "10.0.0.1",
		"LK_CODE_INTERVAL":   "-1s",
		"LK_DEBUG_ADDR":      "6060",
		"LK_SMS_PER_HOUR":    "0",
		"LK_SMS_PER_DAY":     "many",
	} {
		_, err := loadConfig(env(map[string]string{name: bad}))
		if err == nil || !strings.HasPrefix(err.Error(), name+":") {
			t.Errorf("%s=%q: error %v does not name the variable", name, bad, err)
		}
	}
	c, err := loadConfig(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.Addr != ":8080" || c.SandboxAddr != "127.0.0.1:8090" || c.CallTimeout != 10*time.Second || c.ConnectTimeout != 3*time.Second || c.CodeInterval != time.Minute {
		t.Errorf("defaults: %+v", c)
	}
}

// LK_GATEWAY_URL ends in the version of the contract: without it every
// call would go to a path the gateway does not serve.
func TestGatewayURLEndsInTheVersion(t *testing.T) {
	for _, c := range [][2]string{
		{"https://gw.example", "did you mean https://gw.example/v1?"},
		{"https://gw.example/api/", "did you mean https://gw.example/api/v1?"},
		{"https://gw.example/v2", "did you mean https://gw.example/v1?"},
		{"https://gw.example/v1/extra", "did you mean https://gw.example/v1?"},
		{"https://gw.example/v1?x=1", "is not an http(s) URL"},
		{"https://gw.example/v1#top", "is not an http(s) URL"},
	} {
		bad, hint := c[0], c[1]
		_, err := loadConfig(env(map[string]string{"LK_GATEWAY_URL": bad}))
		if err == nil || !strings.HasPrefix(err.Error(), "LK_GATEWAY_URL:") || !strings.Contains(err.Error(), hint) {
			t.Errorf("LK_GATEWAY_URL=%s: %v; want %q", bad, err, hint)
		}
	}
	for _, good := range []string{"https://gw.example/v1", "https://gw.example/v1/", "http://10.0.0.5:8090/api/v1"} {
		if _, err := loadConfig(env(map[string]string{"LK_GATEWAY_URL": good})); err != nil {
			t.Errorf("LK_GATEWAY_URL=%s: %v", good, err)
		}
	}
}

// A shutdown that would end before the provider's deadline is refused at
// start, naming both variables: it would cut an action in flight.
func TestShutdownShorterThanTheProviderDeadlineIsRefused(t *testing.T) {
	err := run(context.Background(), []string{"lk"}, env(map[string]string{"LK_SHUTDOWN_TIMEOUT": "5s"}), io.Discard)
	if err == nil || !strings.Contains(err.Error(), "LK_SHUTDOWN_TIMEOUT=5s") || !strings.Contains(err.Error(), "LK_GATEWAY_TIMEOUT=10s") {
		t.Errorf("LK_SHUTDOWN_TIMEOUT=5s with the default provider deadline: %v", err)
	}
	if _, err := loadConfig(env(map[string]string{"LK_SHUTDOWN_TIMEOUT": "20s", "LK_GATEWAY_TIMEOUT": "20s"})); err != nil {
		t.Errorf("a shutdown as long as the deadline: %v", err)
	}
}

// started runs the server with vars until the test stops it, and answers
// the addresses of its log lines "listening" and "profiling" once it
// listens, the log, and a function that shuts it down gracefully.
func started(t *testing.T, vars map[string]string) (addrs map[string]string, out *testkit.Buffer, stop func()) {
	t.Helper()
	addrs = map[string]string{}
	out, stop = testkit.Start(t, func(ctx context.Context, w io.Writer) error { return run(ctx, []string{"lk"}, env(vars), w) },
		func(log string) bool {
			for _, line := range strings.Split(log, "\n") {
				var l struct{ Msg, Addr string }
				if json.Unmarshal([]byte(line), &l) == nil && l.Addr != "" {
					addrs[l.Msg] = l.Addr
				}
			}
			return addrs["listening"] != ""
		})
	return addrs, out, stop
}

func TestRunServesOnTheSandboxAndShutsDown(t *testing.T) {
	addrs, out, stop := started(t, map[string]string{
		"LK_ADDR": "127.0.0.1:0", "LK_SANDBOX_ADDR": "127.0.0.1:0", "LK_DATA_DIR": t.TempDir(),
	})
	addr := addrs["listening"]
	for _, path := range []string{"/healthz", "/readyz", "/login"} {
		if got := status(t, addr+path); got != http.StatusOK {
			t.Errorf("%s: %d", path, got)
		}
	}
	if !strings.Contains(out.String(), "LK_COOKIE_KEYS is not set") {
		t.Error("no warning about random cookie keys")
	}
	stop()
}
