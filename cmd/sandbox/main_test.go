package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestRun(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"LK_SANDBOX_ADDR": "127.0.0.1:0", "LK_DATA_DIR": dir}
	pr, pw := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"sandbox"}, func(k string) string { return env[k] }, pw)
		pw.Close()
	}()

	var base string
	sc := bufio.NewScanner(pr)
	for base == "" && sc.Scan() {
		var line struct {
			Msg     string `json:"msg"`
			BaseURL string `json:"base_url"`
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatalf("log line is not JSON: %s", sc.Bytes())
		}
		if line.Msg == "sandbox gateway ready" {
			base = line.BaseURL
		}
	}
	if base == "" {
		t.Fatal("no ready line")
	}
	go io.Copy(io.Discard, pr)

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

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("run: %v", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("run did not return after cancel")
	}
}
