package handlers_test

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"lk/gateway/sandbox"
	"lk/gateway/sandbox/sandboxtest"
	"lk/handlers"
)

// A sign-in form whose body never arrives whole does not hold its
// connection: past the form's deadline the server answers 408 with a
// Russian page and lets go. (The client's own limit below is only there so
// that a server that waits forever fails the test instead of hanging it.)
func TestSlowFormBodyIsLetGo(t *testing.T) {
	a := newAppSetup(t, setup{options: func(o *handlers.Options) { o.FormBodyTime = 200 * time.Millisecond }})
	conn, err := net.Dial("tcp", a.plain().Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_, err = io.WriteString(conn, "POST /login HTTP/1.1\r\nHost: lk\r\nContent-Type: application/x-www-form-urlencoded\r\n"+
		"Content-Length: 100\r\n\r\nphone=7900")
	if err != nil {
		t.Fatal(err)
	}
	_ = conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer to a form whose body never came: %v", err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusRequestTimeout || !strings.Contains(string(body), "Форма пришла не целиком") {
		t.Errorf("%d %v\n%s", res.StatusCode, res.Header, body)
	}
	if n := a.sb.AllCalls()["auth/login2f"]; n != 0 {
		t.Errorf("the provider was asked for a code %d times on a form that never came", n)
	}
}

// The deadline is for the body only: once a form is in, a provider slower
// than the deadline still gets its answer through (net/http would cancel
// the request if the deadline stayed and passed).
func TestFormDeadlineEndsWithTheBody(t *testing.T) {
	a := newAppSetup(t, setup{options: func(o *handlers.Options) { o.FormBodyTime = 200 * time.Millisecond }})
	a.sb.SetFault("auth/login2f", sandbox.Fault{Delay: time.Second, Times: 1})
	r := a.post("/login", url.Values{"phone": {demoPhone}})
	if r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/login/code" {
		t.Fatalf("a code request slower than the form's deadline: %d %q", r.StatusCode, r.text("#error-summary"))
	}
	if _, ok := sandboxtest.LastCode(a.sb, demoPhone); !ok {
		t.Error("no code sent")
	}
}

// A small form declared larger than a form may be (200 KB) and sent slowly
// is answered at once with a Russian 413, and its connection closed: the
// server neither reads the rest of the body before answering nor holds
// the connection for it. (The client's limit is only there so that a
// server that waits fails the test instead of hanging it.)
func TestSlowDeclaredBodyIsAnsweredAndLetGo(t *testing.T) {
	a := newAppSetup(t, setup{options: func(o *handlers.Options) { o.FormBodyTime = 200 * time.Millisecond }})
	for _, path := range []string{"/login", "/profile/edit", "/orders/aqua/1/cancel"} {
		conn, err := net.Dial("tcp", a.plain().Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		_, err = io.WriteString(conn, "POST "+path+" HTTP/1.1\r\nHost: lk\r\nContent-Type: application/x-www-form-urlencoded\r\n"+
			"Content-Length: 204800\r\n\r\nphone=7900")
		if err != nil {
			t.Fatal(err)
		}
		_ = conn.SetReadDeadline(time.Now().Add(30 * time.Second))
		br := bufio.NewReader(conn)
		res, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatalf("%s: no answer to a slow 200 KB form: %v", path, err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(string(body), "В форме слишком много текста") {
			t.Errorf("%s: %d %.200s", path, res.StatusCode, body)
		}
		if _, err := br.ReadByte(); err != io.EOF {
			t.Errorf("%s: the connection stays open after the answer: %v", path, err)
		}
		conn.Close()
	}
}
