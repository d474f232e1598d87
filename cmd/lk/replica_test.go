package main

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"lk/store/redistest"
)

// LK_REDIS_URL naming a replica (every write would fail READONLY): the
// server starts and says so in its log, /readyz answers 503 so the
// balancer sends nobody, and a customer who gets here anyway is told in
// Russian to try later; the provider is not asked for a code.
func TestRedisReplicaIsNotReady(t *testing.T) {
	master := redistest.Start(t, redistest.Durable...)
	replica := redistest.StartReplica(t, master, redistest.Durable...)
	addrs, out, stop := started(t, map[string]string{
		"LK_ADDR": "127.0.0.1:0", "LK_SANDBOX_ADDR": "127.0.0.1:0", "LK_DATA_DIR": t.TempDir(), "LK_REDIS_URL": replica.URL(),
	})
	defer stop()
	b, _ := sandboxBrowser(t, addrs, out.String())
	if r := b.get("/readyz"); r != http.StatusServiceUnavailable {
		t.Errorf("/readyz on a replica: %d", r)
	}
	res, err := http.PostForm(b.base+"/login", url.Values{"phone": {"+7 (900) 000-00-00"}})
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(body), "Попробуйте позже") {
		t.Errorf("a code asked for with a replica: %d %.300s", res.StatusCode, body)
	}
	log := out.String()
	for _, want := range []string{"LK_REDIS_URL names a Redis replica", "shared store not ready", "read-only replica"} {
		if !strings.Contains(log, want) {
			t.Errorf("the log does not say %q:\n%s", want, log)
		}
	}
	if strings.Contains(log, `"msg":"sandbox: SMS code sent"`) {
		t.Error("a code was sent while every write fails")
	}
}
