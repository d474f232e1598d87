package handlers_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"

	"github.com/prometheus/common/expfmt"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"lk/gateway"
	"lk/handlers"
	"lk/handlers/web"
)

// metrics is what the debug listener's /metrics shows of this app. A
// request is counted after its answer is sent, so a probe goes first on the
// same kept-alive connection: the server reads it only once the request
// before it is done, counting included.
func (a *app) metrics() string {
	a.t.Helper()
	a.get("/healthz")
	families, err := a.reg.Gather()
	if err != nil {
		a.t.Fatal(err)
	}
	var b bytes.Buffer
	for _, f := range families {
		if _, err := expfmt.MetricFamilyToText(&b, f); err != nil {
			a.t.Fatal(err)
		}
	}
	return b.String()
}

// opsApp is the app as cmd/lk wires it for operations: a watched provider
// that can be stopped, traces into memory, and logs at debug.
type opsApp struct {
	*app
	health *web.Health
	spans  *tracetest.InMemoryExporter
}

func newOpsApp(t *testing.T) *opsApp {
	t.Helper()
	spans := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans))
	var health *web.Health
	a := newAppSetup(t, setup{debug: true, gateway: []gateway.Option{gateway.WithRetries(0), gateway.WithBreaker(0, 0), gateway.WithTracerProvider(tp)},
		options: func(o *handlers.Options) {
			var err error
			if health, err = web.NewHealth(o.Registry); err != nil {
				t.Fatal(err)
			}
			o.Health, o.Tracer = health, tp
		}})
	health.SetServing(true)
	return &opsApp{app: a, health: health, spans: spans}
}

// seriesOf counts the series of a metric family.
func seriesOf(metrics, family string) int {
	n := 0
	for _, l := range strings.Split(metrics, "\n") {
		if strings.HasPrefix(l, family+"{") {
			n++
		}
	}
	return n
}

// Any token a client sends as a method is counted as one "other" series
// and answered 501 in Russian; a known method a route does not take is 405.
func TestUnknownMethodsDoNotGrowTheMetrics(t *testing.T) {
	a := newApp(t)
	if r := a.send("FOO", "/login", nil); r.StatusCode != http.StatusNotImplemented || !strings.Contains(r.body, "Так обратиться к этой странице нельзя.") {
		t.Fatalf("FOO /login: %d, want 501 with the Russian text\n%.300s", r.StatusCode, r.body)
	}
	before := seriesOf(a.metrics(), "lk_http_requests_total")
	for i := range 100 {
		m := fmt.Sprintf("X%dQ%d", i, rand.N(1_000_000))
		if r := a.send(m, "/orders", nil); r.StatusCode != http.StatusNotImplemented {
			t.Fatalf("%s /orders: %d, want 501", m, r.StatusCode)
		}
	}
	m := a.metrics()
	if after := seriesOf(m, "lk_http_requests_total"); after != before {
		t.Errorf("lk_http_requests_total: %d series after 100 random methods, %d before", after, before)
	}
	if !strings.Contains(m, `lk_http_requests_total{method="other",route="unmatched",status="501"} 101`) {
		t.Errorf("random methods not counted as one series:\n%s", m)
	}
	r := a.send(http.MethodDelete, "/login", nil)
	if r.StatusCode != http.StatusMethodNotAllowed || !strings.Contains(r.body, "Так обратиться к этой странице нельзя.") {
		t.Errorf("DELETE /login: %d, want 405 with the Russian text", r.StatusCode)
	}
}

// /metrics is not on the public port: cmd/lk serves it on LK_DEBUG_ADDR.
func TestNoPublicMetrics(t *testing.T) {
	a := newApp(t)
	if r := a.get("/metrics"); r.StatusCode != http.StatusNotFound {
		t.Errorf("public /metrics: %d, want 404", r.StatusCode)
	}
}

// With the provider down, /readyz stays 200 (every instance would leave
// the pool at once otherwise) and calls no provider; the lost provider
// shows in the body, lk_provider_up and the Russian pages. Probes are
// logged at debug only.
func TestReadyWhileTheProviderIsDown(t *testing.T) {
	a := newOpsApp(t)
	a.signIn(a.client, demoPhone)
	a.health.CheckProvider(t.Context(), a.gw.Ping, slog.New(slog.DiscardHandler))
	if r := a.get("/readyz"); r.StatusCode != http.StatusOK || !strings.Contains(r.body, "provider: up") {
		t.Fatalf("/readyz with the provider up: %d %q", r.StatusCode, r.body)
	}
	calls := a.sb.AllCalls()

	a.sbSrv.Close()
	for range 3 { // three failed checks in a row count it down
		a.health.CheckProvider(t.Context(), a.gw.Ping, slog.New(slog.DiscardHandler))
	}
	for range 3 {
		if r := a.get("/readyz"); r.StatusCode != http.StatusOK || !strings.Contains(r.body, "provider: down") {
			t.Fatalf("/readyz with the provider down: %d %q, want 200 saying so", r.StatusCode, r.body)
		}
	}
	if r := a.get("/healthz"); r.StatusCode != http.StatusOK {
		t.Errorf("/healthz: %d", r.StatusCode)
	}
	if got := a.sb.AllCalls(); fmt.Sprint(got) != fmt.Sprint(calls) {
		t.Errorf("probes called the provider: %v, before %v", got, calls)
	}
	if m := a.metrics(); !strings.Contains(m, "lk_provider_up 0") {
		t.Errorf("lk_provider_up is not 0 with the provider down:\n%s", m)
	}
	r := a.get("/orders")
	if r.StatusCode != http.StatusServiceUnavailable || !strings.Contains(r.body, "Попробуйте позже") {
		t.Errorf("/orders with the provider down: %d, want 503 with 'Попробуйте позже'\n%.500s", r.StatusCode, r.body)
	}

	a.health.SetServing(false)
	if r := a.get("/readyz"); r.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("/readyz while shutting down: %d, want 503", r.StatusCode)
	}
	for _, line := range strings.Split(a.logs.String(), "\n") {
		if strings.Contains(line, `"msg":"request"`) && strings.Contains(line, `"route":"/readyz"`) && !strings.Contains(line, `"level":"DEBUG"`) {
			t.Errorf("probe logged above debug: %s", line)
		}
	}
}

// Every provider call carries the customer request's id, in a header the
// provider sees and in the call's log line.
func TestProviderCallsCarryTheRequestID(t *testing.T) {
	a := newOpsApp(t)
	seen := make(chan string, 16)
	inner := a.sbSrv.Config.Handler
	a.sbSrv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/getClientInfo") {
			seen <- r.Header.Get(gateway.HeaderRequestID)
		}
		inner.ServeHTTP(w, r)
	})
	a.signIn(a.client, demoPhone)
	if r := a.send(http.MethodGet, "/", http.Header{"X-Request-Id": {"req-25-home"}}); r.StatusCode != http.StatusOK {
		t.Fatalf("/: %d", r.StatusCode)
	}
	found := false
	for len(seen) > 0 {
		if <-seen == "req-25-home" {
			found = true
		}
	}
	if !found {
		t.Error("the provider never saw the request's id")
	}
	logged := false
	for _, line := range strings.Split(a.logs.String(), "\n") {
		if strings.Contains(line, `"msg":"gateway call"`) && strings.Contains(line, `"call":"get client info"`) && strings.Contains(line, `"request_id":"req-25-home"`) {
			logged = true
		}
	}
	if !logged {
		t.Errorf("no gateway log line with the request id:\n%s", a.logs.String())
	}
}

// A request id from outside that is long or not plain (spaces, quotes, a
// line break, Cyrillic) is neither the log's id nor sent to the provider:
// the request gets an id of its own, and the outside one is logged apart,
// cut to 64 bytes.
func TestOutsideRequestIDOnlyWhenShortAndPlain(t *testing.T) {
	a := newOpsApp(t)
	seen := make(chan string, 64)
	inner := a.sbSrv.Config.Handler
	a.sbSrv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen <- r.Header.Get(gateway.HeaderRequestID)
		inner.ServeHTTP(w, r)
	})
	a.signIn(a.client, demoPhone)
	for _, bad := range []string{strings.Repeat("a", 65), `id" injected`, "два", "a\tb", "x/../y"} {
		for len(seen) > 0 {
			<-seen
		}
		r := a.send(http.MethodGet, "/", http.Header{"X-Request-Id": {bad}})
		if id := r.Header.Get("X-Request-Id"); r.StatusCode != http.StatusOK || id == bad || len(id) > 64 || id == "" {
			t.Errorf("%q: %d, id %q", bad, r.StatusCode, id)
		}
		for len(seen) > 0 {
			if got := <-seen; got == bad {
				t.Errorf("%q went on to the provider", bad)
			}
		}
		want, _ := json.Marshal(bad[:min(len(bad), 64)])
		if !strings.Contains(a.logs.String(), `"outside_id":`+string(want)) {
			t.Errorf("%q not logged apart", bad)
		}
	}
}

// Each request is a server span, the parent of the provider calls made for
// it, continuing the balancer's trace; no span carries a phone, a code or
// a token.
func TestRequestsAndProviderCallsAreTraced(t *testing.T) {
	a := newOpsApp(t)
	a.signIn(a.client, demoPhone)
	code := a.code(demoPhone)
	const traceID = "4bf92f3577b34da6a3ce929d0e0e4736"
	if r := a.send(http.MethodGet, "/orders", http.Header{"Traceparent": {"00-" + traceID + "-00f067aa0ba902b7-01"}}); r.StatusCode != http.StatusOK {
		t.Fatalf("/orders: %d", r.StatusCode)
	}
	spans := a.spans.GetSpans()
	var orders *tracetest.SpanStub
	names := map[string]bool{}
	for i, s := range spans {
		names[s.Name] = true
		if s.Name == "GET /orders" {
			orders = &spans[i]
		}
		attrs := fmt.Sprint(s.Name, s.Attributes, s.Status)
		for _, secret := range []string{demoPhone, demoPhone[1:], "900) 000", "code=" + code, `"` + code + `"`, "Bearer"} {
			if strings.Contains(attrs, secret) {
				t.Errorf("span %q carries %q: %s", s.Name, secret, attrs)
			}
		}
	}
	for _, want := range []string{"POST /login", "POST /login/code", "GET /orders", "gateway login", "gateway confirm login"} {
		if !names[want] {
			t.Errorf("no span %q among %v", want, names)
		}
	}
	if orders == nil {
		t.Fatal("no span of GET /orders")
	}
	if orders.SpanContext.TraceID().String() != traceID || orders.Parent.SpanID().String() != "00f067aa0ba902b7" {
		t.Errorf("GET /orders did not continue the incoming trace: %v under %v", orders.SpanContext.TraceID(), orders.Parent.SpanID())
	}
	children := 0
	for _, s := range spans {
		if s.Parent.SpanID() == orders.SpanContext.SpanID() {
			children++
			if !strings.HasPrefix(s.Name, "gateway ") || s.SpanContext.TraceID() != orders.SpanContext.TraceID() {
				t.Errorf("child of GET /orders: %q", s.Name)
			}
		}
	}
	if children < 5 {
		t.Errorf("GET /orders has %d provider calls under it, want the five order lists", children)
	}
}
