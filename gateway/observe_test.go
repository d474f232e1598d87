package gateway

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"lk/internal/testkit"
)

// Each call is a client span, a child of the caller's span, whose
// attributes name the call and never carry a phone, code or token; the
// provider gets the trace context and the request's id.
func TestSpansAndRequestID(t *testing.T) {
	spans := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans))
	var logs testkit.Buffer
	log := slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	c, mux, _ := setup(t, WithTracerProvider(tp), WithLogger(log), WithRetries(0))
	var mu sync.Mutex
	headers := map[string]http.Header{}
	keep := func(r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		headers[strings.TrimPrefix(r.URL.Path, "/v1/")] = r.Header.Clone()
	}
	mux.HandleFunc("/v1/auth/login2f", func(w http.ResponseWriter, r *http.Request) { keep(r); io.WriteString(w, `{"success":true}`) })
	mux.HandleFunc("/v1/auth/loginConfirm", func(w http.ResponseWriter, r *http.Request) {
		keep(r)
		io.WriteString(w, `{"success":false,"errorMessage":"Неверный код"}`)
	})
	mux.HandleFunc("/v1/auth/getClientInfo", func(w http.ResponseWriter, r *http.Request) { keep(r); w.WriteHeader(401) })

	ctx, parent := tp.Tracer("test").Start(WithRequestID(context.Background(), "req-25"), "GET /login")
	_ = c.Login(ctx, testPhone, false)
	_, _ = c.LoginConfirm(ctx, testPhone, testCode)
	_, _ = c.ClientInfo(ctx, testToken)
	parent.End()

	got := spans.GetSpans()
	if len(got) != 4 {
		t.Fatalf("%d spans, want 3 calls and their parent", len(got))
	}
	for _, s := range got[:3] {
		if s.SpanKind != trace.SpanKindClient || s.Parent.SpanID() != parent.SpanContext().SpanID() || s.SpanContext.TraceID() != parent.SpanContext().TraceID() {
			t.Errorf("span %q: kind %v, parent %v; want a client span under the caller's", s.Name, s.SpanKind, s.Parent.SpanID())
		}
		attrs := fmt.Sprint(s.Attributes, s.Status, s.Name)
		for _, secret := range []string{testPhone, testPhone[1:], testCode, testToken} {
			if strings.Contains(attrs, secret) {
				t.Errorf("span %q carries %q: %s", s.Name, secret, attrs)
			}
		}
		if !strings.Contains(attrs, `"lk.request_id":"req-25"`) || !strings.Contains(attrs, "lk.gateway.call") {
			t.Errorf("span %q lacks the call or the request id: %s", s.Name, attrs)
		}
	}
	if got[1].Status.Code.String() != "Error" || !strings.Contains(fmt.Sprint(got[1].Attributes), "provider_error") {
		t.Errorf("a refused call's span: %v %v", got[1].Status, got[1].Attributes)
	}
	for path, h := range headers {
		if h.Get(HeaderRequestID) != "req-25" || !strings.Contains(h.Get("Traceparent"), parent.SpanContext().TraceID().String()) {
			t.Errorf("%s: request id %q, traceparent %q", path, h.Get(HeaderRequestID), h.Get("Traceparent"))
		}
	}
	if n := strings.Count(logs.String(), `"request_id":"req-25"`); n != 3 {
		t.Errorf("%d log lines carry the request id, want one per call:\n%s", n, logs.String())
	}
}

// Without a tracer provider there are no spans, and the id still travels.
func TestRequestIDWithoutTracing(t *testing.T) {
	c, mux, _ := setup(t, WithRetries(0))
	var got http.Header
	mux.HandleFunc("/v1/auth/login2f", func(w http.ResponseWriter, r *http.Request) {
		got = r.Header.Clone()
		io.WriteString(w, `{"success":true}`)
	})
	if err := c.Login(WithRequestID(t.Context(), "req-25b"), testPhone, false); err != nil {
		t.Fatal(err)
	}
	if got.Get(HeaderRequestID) != "req-25b" || got.Get("Traceparent") != "" {
		t.Errorf("request id %q, traceparent %q", got.Get(HeaderRequestID), got.Get("Traceparent"))
	}
}
