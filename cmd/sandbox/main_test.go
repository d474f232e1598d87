package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"lk/internal/testkit"
)

func TestRun(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"LK_SANDBOX_ADDR": "127.0.0.1:0", "LK_DATA_DIR": dir}
	var base string
	_, stop := testkit.Start(t, func(ctx context.Context, out io.Writer) error {
		return run(ctx, []string{"sandbox"}, func(k string) string { return env[k] }, out)
	}, func(log string) bool {
		for _, l := range strings.Split(strings.TrimSpace(log), "\n") {
			var line struct {
				Msg     string `json:"msg"`
				BaseURL string `json:"base_url"`
			}
			if err := json.Unmarshal([]byte(l), &line); err != nil && l != "" {
				t.Fatalf("log line is not JSON: %s", l)
			}
			if line.Msg == "sandbox gateway ready" {
				base = line.BaseURL
			}
		}
		return base != ""
	})

	resp, err := http.Get(base + "/aqua/getSessionsAqua?date=" + time.Now().Format("02.01.2006"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d", resp.StatusCode)
	}
	if _, err := os.Stat(filepath.Join(dir, "sandbox.db")); err != nil {
		t.Fatal(err)
	}
	stop()
}
