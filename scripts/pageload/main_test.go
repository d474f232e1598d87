package main

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

// Each way an answer can go wrong is counted as what it is, not as a 200.
func TestFetchTellsAnswersApart(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/orders", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Cookie") != "s=1" {
			http.Redirect(w, r, "/login", http.StatusSeeOther)
			return
		}
		w.Write([]byte("Активные заказы"))
	})
	mux.HandleFunc("/cut", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "1000")
		w.Write([]byte("Активные"))
		w.(http.Flusher).Flush()
		conn, _, _ := w.(http.Hijacker).Hijack() // the instance dies mid-answer
		conn.Close()
	})
	mux.HandleFunc("/busy", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "no server", http.StatusServiceUnavailable)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	gone := "http://" + ln.Addr().String() + "/orders"
	ln.Close()

	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, c := range []struct{ url, cookie, want string }{
		{srv.URL + "/orders", "s=1", "200"},
		{srv.URL + "/orders", "", "303 to /login: session lost"},
		{srv.URL + "/cut", "s=1", "200 cut short: connection closed"},
		{srv.URL + "/busy", "s=1", "503"},
		{gone, "s=1", "no answer: connection refused"},
	} {
		if got := fetch(client, c.url, c.cookie); got != c.want {
			t.Errorf("%s: %q, want %q", c.url, got, c.want)
		}
	}
}

// Every request made is counted once, the last ones included.
func TestLoadCountsEveryRequest(t *testing.T) {
	var served atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { served.Add(1) }))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	counts := load(ctx, srv.URL, "", 3, 10*time.Millisecond)
	if got := int64(counts["200"]); len(counts) != 1 || got == 0 || got != served.Load() {
		t.Errorf("counted %v, served %d", counts, served.Load())
	}
}
