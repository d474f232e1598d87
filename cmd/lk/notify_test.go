package main

import (
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// fakeSystemd is the socket systemd gives a Type=notify service.
func fakeSystemd(t *testing.T) (path string, next func() string) {
	t.Helper()
	path = filepath.Join(t.TempDir(), "notify")
	c, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: path, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return path, func() string {
		t.Helper()
		buf := make([]byte, 256)
		_ = c.SetReadDeadline(time.Now().Add(30 * time.Second))
		n, err := c.Read(buf)
		if err != nil {
			t.Fatalf("nothing sent to the notify socket: %v", err)
		}
		return string(buf[:n])
	}
}

// The watchdog is fed only while the server's own /healthz answers 200.
func TestWatchdogIsFedOnlyWhileTheServerAnswers(t *testing.T) {
	sock, next := fakeSystemd(t)
	n := newNotifier(func(k string) string {
		return map[string]string{"NOTIFY_SOCKET": sock, "WATCHDOG_USEC": "2000000", "WATCHDOG_PID": strconv.Itoa(os.Getpid())}[k]
	})
	if n.watchdog != 2*time.Second {
		t.Fatalf("watchdog %s, want 2s", n.watchdog)
	}
	status := http.StatusOK
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(status) }))
	defer srv.Close()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	if !n.feedOnce(srv.Client(), srv.URL+"/healthz", log) || next() != "WATCHDOG=1" {
		t.Error("a server that answers did not feed the watchdog")
	}
	status = http.StatusServiceUnavailable
	if n.feedOnce(srv.Client(), srv.URL+"/healthz", log) {
		t.Error("a server answering 503 fed the watchdog")
	}
	srv.Close()
	if n.feedOnce(srv.Client(), srv.URL+"/healthz", log) {
		t.Error("a server that does not answer fed the watchdog")
	}
	_ = n.send("MARK")
	if got := next(); got != "MARK" {
		t.Errorf("the notify socket got %q from a server that cannot serve", got)
	}
	// Another process's watchdog is not ours to feed.
	if o := newNotifier(func(k string) string {
		return map[string]string{"NOTIFY_SOCKET": sock, "WATCHDOG_USEC": "2000000", "WATCHDOG_PID": "1"}[k]
	}); o.watchdog != 0 {
		t.Error("the watchdog of process 1 was taken for this one")
	}
}

// Under systemd the server says READY=1 once it listens, feeds the
// watchdog, and says STOPPING=1 when it is stopped; without NOTIFY_SOCKET
// it sends nothing (every other test runs so).
func TestRunNotifiesSystemd(t *testing.T) {
	sock, next := fakeSystemd(t)
	_, _, stop := started(t, map[string]string{
		"LK_ADDR": "127.0.0.1:0", "LK_SANDBOX_ADDR": "127.0.0.1:0", "LK_DATA_DIR": t.TempDir(),
		"NOTIFY_SOCKET": sock, "WATCHDOG_USEC": "200000",
	})
	if got := next(); got != "READY=1" {
		t.Fatalf("first notification %q, want READY=1", got)
	}
	if got := next(); got != "WATCHDOG=1" {
		t.Errorf("second notification %q, want WATCHDOG=1", got)
	}
	stop()
	for got := next(); got != "STOPPING=1"; got = next() {
		if got != "WATCHDOG=1" {
			t.Fatalf("notification %q at shutdown, want STOPPING=1", got)
		}
	}
}
