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
	if n := a.sb.Calls("auth/login2f"); n != 0 {
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
	if _, ok := a.sb.LastCode(demoPhone); !ok {
		t.Error("no code sent")
	}
}
