package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"lk/gateway"
)

// The service key comes from a file: read at start, its line's end
// dropped; a file that cannot be read, holds nothing or more than a
// header can carry stops the start, naming the variable and never the
// content.
func TestGatewayKeyFromAFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		f := filepath.Join(dir, name)
		if err := os.WriteFile(f, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return f
	}
	c, err := loadConfig(env(map[string]string{"LK_GATEWAY_KEY_FILE": write("key", "k3y-0f-th1s-acc0unt\n")}))
	if err != nil || c.GatewayKey != "k3y-0f-th1s-acc0unt" {
		t.Errorf("key %q, %v; want the file's line", c.GatewayKey, err)
	}
	for name, file := range map[string]string{
		"missing":   filepath.Join(dir, "none"),
		"a folder":  dir,
		"empty":     write("empty", "\n \n"),
		"two lines": write("two", "s3cr3t-line-one\ns3cr3t-line-two\n"),
		"a space":   write("space", "s3cr3t with space"),
		"not ASCII": write("utf8", "s3cr3t-ключ"),
		"a control": write("control", "s3cr3t\x00"),
	} {
		_, err := loadConfig(env(map[string]string{"LK_GATEWAY_KEY_FILE": file}))
		if err == nil || !strings.HasPrefix(err.Error(), "LK_GATEWAY_KEY_FILE:") || strings.Contains(err.Error(), "s3cr3t") {
			t.Errorf("%s: %v; want an error naming LK_GATEWAY_KEY_FILE without the file's content", name, err)
		}
	}
}

// The key goes to the gateway with the background check and every
// customer's call, and into no log line.
func TestGatewayKeyIsSentAndNeverLogged(t *testing.T) {
	const key = "svc-7d1f0c2a9be54e36"
	file := filepath.Join(t.TempDir(), "key")
	if err := os.WriteFile(file, []byte(key+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var with, without atomic.Int32
	gw := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get(gateway.ServiceKeyHeader) != key {
			without.Add(1)
			w.WriteHeader(http.StatusForbidden)
			return
		}
		with.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"success":true,"result":[]}`))
	}))
	defer gw.Close()
	addrs, out, stop := started(t, map[string]string{
		"LK_ADDR": "127.0.0.1:0", "LK_DEBUG_ADDR": "127.0.0.1:0", "LK_DATA_DIR": t.TempDir(), "LK_LOG_LEVEL": "debug",
		"LK_GATEWAY_URL": gw.URL + "/v1", "LK_GATEWAY_KEY_FILE": file, "LK_PROVIDER_CHECK_INTERVAL": "40ms",
	})
	stopped := false
	defer func() {
		if !stopped {
			stop()
		}
	}()
	for start := time.Now(); with.Load() < 3; time.Sleep(10 * time.Millisecond) {
		if time.Since(start) > 5*time.Second {
			t.Fatalf("%d checks with the key, %d without, in 5 s", with.Load(), without.Load())
		}
	}
	if m := body(t, addrs["metrics"]); !strings.Contains(m, "\nlk_provider_up 1") {
		t.Errorf("the provider is not up with the key:\n%s", m)
	}
	stop()
	stopped = true
	if without.Load() != 0 || strings.Contains(out.String(), key) {
		t.Errorf("%d calls without the key; the log holds it: %v", without.Load(), strings.Contains(out.String(), key))
	}
}

// The bundled sandbox asks for the key it is given, and for a random one
// of its own when none is: lk sends it either way, so the demo's pages
// load, and a call without it is refused.
func TestBundledSandboxAsksForTheKey(t *testing.T) {
	file := filepath.Join(t.TempDir(), "key")
	if err := os.WriteFile(file, []byte("sandbox-key-of-this-test\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, vars := range map[string]map[string]string{
		"given":  {"LK_GATEWAY_KEY_FILE": file},
		"random": {},
	} {
		t.Run(name, func(t *testing.T) {
			vars := map[string]string{"LK_ADDR": "127.0.0.1:0", "LK_SANDBOX_ADDR": "127.0.0.1:0", "LK_DEBUG_ADDR": "127.0.0.1:0",
				"LK_DATA_DIR": t.TempDir(), "LK_PROVIDER_CHECK_INTERVAL": "40ms", "LK_GATEWAY_KEY_FILE": vars["LK_GATEWAY_KEY_FILE"]}
			addrs, out, stop := started(t, vars)
			defer stop()
			for start := time.Now(); !strings.Contains(body(t, addrs["metrics"]), `lk_gateway_call_duration_seconds_count{call="ping",outcome="ok"}`); time.Sleep(20 * time.Millisecond) {
				if time.Since(start) > 5*time.Second {
					t.Fatalf("no check answered well by the sandbox in 5 s:\n%s", body(t, addrs["metrics"]))
				}
			}
			_, sandboxURL := sandboxBrowser(t, addrs, out.String())
			r, err := http.Get(sandboxURL + "/v1/aqua/getSessionsAqua?date=01.02.2026")
			if err != nil {
				t.Fatal(err)
			}
			r.Body.Close()
			if r.StatusCode != http.StatusForbidden {
				t.Errorf("a call without the key: %d, want 403", r.StatusCode)
			}
		})
	}
}
