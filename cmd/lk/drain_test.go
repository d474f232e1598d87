package main

import (
	"io"
	"log/slog"
	"net"
	"net/http"
	"testing"
	"time"
)

// A SIGTERM behind a balancer: /readyz turns 503 at once while pages are
// still served; when the drain is over no new connection is taken, and a
// request already in flight still gets its whole answer.
func TestShutdownDrainsBeforeClosing(t *testing.T) {
	started, release := make(chan struct{}), make(chan struct{})
	mux := http.NewServeMux()
	mux.HandleFunc("/readyz", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") })
	mux.HandleFunc("/orders", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "Активные заказы") })
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		close(started)
		<-release
		io.WriteString(w, "Активные заказы")
	})
	var d drain
	srv := &http.Server{Handler: d.readiness(mux)}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	base := "http://" + ln.Addr().String()
	get := func(path string) (*http.Response, string, error) {
		res, err := http.Get(base + path)
		if err != nil {
			return nil, "", err
		}
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		return res, string(b), err
	}
	if res, _, err := get("/readyz"); err != nil || res.StatusCode != http.StatusOK || res.Close {
		t.Fatalf("ready before the signal: %v %v", res, err)
	}

	type answer struct {
		status int
		body   string
		err    error
	}
	inFlight := make(chan answer, 1)
	go func() {
		res, body, err := get("/slow")
		if err != nil {
			inFlight <- answer{err: err}
			return
		}
		inFlight <- answer{res.StatusCode, body, nil}
	}()
	<-started

	drained := make(chan time.Time)
	done := make(chan error, 1)
	go func() {
		done <- d.shutdown(srv, drained, time.Minute, func() time.Time { return time.Time{} }, slog.New(slog.DiscardHandler))
	}()
	for !d.on.Load() {
		time.Sleep(time.Millisecond)
	}
	// Draining: the balancer is told, pages are served, and each answer
	// closes its connection.
	if res, _, err := get("/readyz"); err != nil || res.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("/readyz while draining: %v %v", res, err)
	}
	if res, body, err := get("/orders"); err != nil || res.StatusCode != http.StatusOK || body != "Активные заказы" || !res.Close {
		t.Errorf("a page while draining: %v %q %v", res, body, err)
	}

	close(drained)
	for { // the listener closes
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			break
		}
		c.Close()
		time.Sleep(time.Millisecond)
	}
	select {
	case err := <-done:
		t.Fatalf("shutdown returned before the request in flight ended: %v", err)
	default:
	}
	close(release)
	if a := <-inFlight; a.err != nil || a.status != http.StatusOK || a.body != "Активные заказы" {
		t.Errorf("the request in flight: %+v", a)
	}
	if err := <-done; err != nil {
		t.Errorf("shutdown: %v", err)
	}
}

func TestShutdownDrainConfig(t *testing.T) {
	c, err := loadConfig(env(map[string]string{"LK_SHUTDOWN_DRAIN": "5s"}))
	if err != nil || c.ShutdownDrain != 5*time.Second {
		t.Errorf("5s: %v %v", c.ShutdownDrain, err)
	}
	if c, _ := loadConfig(env(nil)); c.ShutdownDrain != 0 {
		t.Errorf("default %v, want no wait", c.ShutdownDrain)
	}
	if _, err := loadConfig(env(map[string]string{"LK_SHUTDOWN_DRAIN": "-1s"})); err == nil {
		t.Error("a negative drain taken")
	}
}
