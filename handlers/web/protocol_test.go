package web

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestRussianProtocolErrors(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		io.WriteString(w, "ok")
	}), ReadHeaderTimeout: 5 * time.Second, MaxHeaderBytes: 1 << 10}
	go srv.Serve(RussianProtocolErrors(ln))
	t.Cleanup(func() { srv.Close() })
	for _, tc := range []struct{ raw, status, body string }{
		{"GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n", "400", "Запрос не удалось прочитать (ошибка 400)"},
		{"GET / HTTP/1.1\r\nHost: x\r\nX: " + strings.Repeat("a", 8<<10) + "\r\n\r\n", "431", "Удалите cookie"},
		{"GET / HTTP/1.1\r\nHost: x\r\n\r\n", "200", "ok"},
	} {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(c, tc.raw)
		res, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(io.LimitReader(res.Body, 1<<10))
		c.Close()
		if !strings.HasPrefix(res.Status, tc.status) || !strings.Contains(string(b), tc.body) {
			t.Errorf("%.30q: %s %q", tc.raw, res.Status, b)
		}
	}
}
