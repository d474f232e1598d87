package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/trace"

	"lk/gateway"
	"lk/internal/testkit"
)

// A whole sign-in in sandbox mode, at the debug level, leaves in the
// server's log (the product's and the bundled sandbox's, one stream)
// neither an SMS code, right or wrong, nor the whole phone.
func TestSandboxSignInLogsNoCodeNorPhone(t *testing.T) {
	const phone = "79000000000"
	addrs, out, stop := started(t, map[string]string{
		"LK_ADDR": "127.0.0.1:0", "LK_SANDBOX_ADDR": "127.0.0.1:0", "LK_DATA_DIR": t.TempDir(), "LK_LOG_LEVEL": "debug",
	})
	b, sandboxURL := sandboxBrowser(t, addrs, out.String())
	if r := b.post("/login", url.Values{"phone": {"+7 (900) 000-00-00"}}); r != http.StatusSeeOther {
		t.Fatalf("POST /login: %d", r)
	}
	sms := sandboxCode(t, sandboxURL, phone)
	wrong := "0000"
	if sms == wrong {
		wrong = "1111"
	}
	if r := b.post("/login/code", url.Values{"code": {wrong}}); r != http.StatusUnprocessableEntity {
		t.Fatalf("a wrong code: %d", r)
	}
	if r := b.post("/login/code", url.Values{"code": {sms}}); r != http.StatusSeeOther {
		t.Fatalf("the right code: %d", r)
	}
	if r := b.get("/"); r != http.StatusOK {
		t.Fatalf("home: %d", r)
	}
	if r := b.post("/logout", nil); r != http.StatusSeeOther {
		t.Fatalf("sign-out: %d", r)
	}
	stop()

	leaks := map[string]*regexp.Regexp{
		"the right code": regexp.MustCompile(`(^|[^0-9A-Za-z])` + sms + `([^0-9A-Za-z]|$)`),
		"a wrong code":   regexp.MustCompile(`(^|[^0-9A-Za-z])` + wrong + `([^0-9A-Za-z]|$)`),
		"the phone":      regexp.MustCompile(`9000000000|900\D{0,3}000\D?00\D?00`),
	}
	lines := 0
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var fields map[string]any
		if err := json.Unmarshal([]byte(line), &fields); err != nil {
			t.Errorf("not a JSON line: %s", line)
			continue
		}
		lines++
		delete(fields, "time") // its fractions of a second are any digits
		for key, v := range flatten(fields) {
			for what, re := range leaks {
				if re.MatchString(v) {
					t.Errorf("%s in the log (%s=%q): %s", what, key, v, line)
				}
			}
		}
	}
	if lines < 10 {
		t.Fatalf("only %d log lines: the log was not read\n%s", lines, out.String())
	}

	// Every sign-in and sign-out line carries the id of its request, the
	// one the request's own line names, under the one key request_id.
	requests, signins := map[string]bool{}, 0
	var lineOf []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var f map[string]any
		if json.Unmarshal([]byte(line), &f) == nil {
			lineOf = append(lineOf, f)
			if id, _ := f["request_id"].(string); f["msg"] == "request" && id != "" {
				requests[id] = true
			}
			if _, ok := f["id"]; ok {
				t.Errorf("a line with the key id: %v", f)
			}
		}
	}
	for _, f := range lineOf {
		if msg, _ := f["msg"].(string); strings.HasPrefix(msg, "sign-in") || strings.HasPrefix(msg, "sign-out") {
			signins++
			if id, _ := f["request_id"].(string); !requests[id] {
				t.Errorf("%q has request_id %q, no request's id", msg, id)
			}
		}
	}
	if signins < 3 || len(requests) < 5 {
		t.Errorf("only %d sign-in and sign-out lines, %d request lines with request_id", signins, len(requests))
	}
}

// With tracing on, a request's lines carry its trace and span beside its id.
func TestLogLinesCarryTheTrace(t *testing.T) {
	var out testkit.Buffer
	log := newLogger("info", &out)
	sc := trace.NewSpanContext(trace.SpanContextConfig{
		TraceID: trace.TraceID{0x4b, 0xf9, 0x2f, 0x35, 0x77, 0xb3, 0x4d, 0xa6, 0xa3, 0xce, 0x92, 0x9d, 0x0e, 0x0e, 0x47, 0x36},
		SpanID:  trace.SpanID{0x00, 0xf0, 0x67, 0xaa, 0x0b, 0xa9, 0x02, 0xb7}, TraceFlags: trace.FlagsSampled,
	})
	ctx := trace.ContextWithSpanContext(gateway.WithRequestID(t.Context(), "req-1"), sc)
	log.InfoContext(ctx, "order action", "outcome", "ok")
	log.Info("no request")
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	var first, second map[string]any
	if len(lines) != 2 || json.Unmarshal([]byte(lines[0]), &first) != nil || json.Unmarshal([]byte(lines[1]), &second) != nil {
		t.Fatalf("log: %s", out.String())
	}
	if first["request_id"] != "req-1" || first["trace_id"] != "4bf92f3577b34da6a3ce929d0e0e4736" || first["span_id"] != "00f067aa0ba902b7" {
		t.Errorf("a request's line: %v; want its request_id, trace_id and span_id", first)
	}
	if second["request_id"] != nil || second["trace_id"] != nil {
		t.Errorf("a line of no request: %v", second)
	}
}

// flatten gives every value of a JSON object, nested ones too, as text.
func flatten(m map[string]any) map[string]string {
	out := map[string]string{}
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				walk(prefix+"."+k, x)
			}
		case []any:
			for i, x := range v {
				walk(fmt.Sprintf("%s[%d]", prefix, i), x)
			}
		default:
			out[prefix] = fmt.Sprint(v)
		}
	}
	walk("", m)
	return out
}

// browser keeps cookies by hand: the session's are Secure, which Go's
// cookie jar sends over https only, and this server speaks plain http.
type browser struct {
	t       *testing.T
	base    string
	cookies map[string]string
	body    string // of the last answer
}

// sandboxBrowser is a browser on the server that log says listens at
// addrs, and the URL of the bundled sandbox that log names.
func sandboxBrowser(t *testing.T, addrs map[string]string, log string) (b *browser, sandboxURL string) {
	t.Helper()
	for _, line := range strings.Split(log, "\n") {
		var l struct{ Msg, URL string }
		if json.Unmarshal([]byte(line), &l) == nil && l.Msg == "running on the bundled sandbox gateway" {
			sandboxURL = strings.TrimSuffix(l.URL, "/v1")
		}
	}
	if sandboxURL == "" {
		t.Fatalf("no sandbox in the log:\n%s", log)
	}
	return &browser{t: t, base: addrs["listening"], cookies: map[string]string{}}, sandboxURL
}

// sandboxCode is the last SMS code the sandbox sent to phone.
func sandboxCode(t *testing.T, sandboxURL, phone string) string {
	t.Helper()
	res, err := http.Get(sandboxURL + "/sandbox/sms/" + phone)
	if err != nil {
		t.Fatal(err)
	}
	var sms struct{ Code string }
	err = json.NewDecoder(res.Body).Decode(&sms)
	res.Body.Close()
	if err != nil || len(sms.Code) != 4 {
		t.Fatalf("the sandbox's outbox: %v %q", err, sms.Code)
	}
	return sms.Code
}

func (b *browser) do(req *http.Request) int {
	b.t.Helper()
	testkit.AddCookies(req, b.cookies)
	res, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		b.t.Fatal(err)
	}
	b.body = string(body)
	testkit.KeepCookies(b.cookies, res)
	return res.StatusCode
}

func (b *browser) get(path string) int {
	req, _ := http.NewRequest(http.MethodGet, b.base+path, nil)
	return b.do(req)
}

func (b *browser) post(path string, form url.Values) int {
	req, _ := http.NewRequest(http.MethodPost, b.base+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return b.do(req)
}
