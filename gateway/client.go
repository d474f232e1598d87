package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/sony/gobreaker/v2"
	"go.opentelemetry.io/otel/trace"
)

// Defaults of a Client: a call may wait 3 s to connect and 10 s in all.
const (
	DefaultConnectTimeout  = 3 * time.Second
	DefaultCallTimeout     = 10 * time.Second
	DefaultRetries         = 2
	DefaultBreakerFailures = 5
	DefaultBreakerOpen     = 30 * time.Second
	// MaxBody caps what is read of one answer; PDFs are the largest.
	MaxBody = 10 << 20
)

// APIVersion is the version of the provider's API this client speaks
// (gateway/openapi.yaml): every base URL ends in "/" + APIVersion.
const APIVersion = "v1"

// Client calls the provider's API gateway v1. It is safe for concurrent use.
// Build it with NewClient.
type Client struct {
	base           *url.URL
	hc             *http.Client
	connectTimeout time.Duration
	callTimeout    time.Duration
	retries        int
	breakerFails   uint32
	breakerOpen    time.Duration
	breakerMu      sync.Mutex
	breakers       map[string]*gobreaker.CircuitBreaker[answer] // per provider path
	reg            prometheus.Registerer
	duration       *prometheus.HistogramVec
	log            *slog.Logger
	flights        flights       // identical reads in flight for one customer
	common         common        // answers the same for every customer, kept a short time
	slots          chan struct{} // one per call in flight; nil: no bound (WithMaxInFlight)
	inFlight       prometheus.Gauge
	refused        prometheus.Counter
	loc            *time.Location
	tracer         trace.Tracer // nil: no spans (WithTracerProvider)
	maxBody        int64
	userAgent      string // WithUserAgent; empty: Go's
	serviceKey     string // WithServiceKey; empty: none sent
	throttle       throttle
	throttleWait   time.Duration // the longest hold a read waits out (ThrottleWait)
	// backoff is the pause before retry number n (1-based); tests shorten it.
	backoff func(n int) time.Duration
}

// Option configures a Client.
type Option func(*Client)

// WithHTTPClient makes the Client send through hc (its transport, TLS and
// proxy settings). WithTimeouts' connect timeout then does not apply; the
// call timeout still does.
func WithHTTPClient(hc *http.Client) Option { return func(c *Client) { c.hc = hc } }

// WithTimeouts sets the connect timeout and the deadline of a whole call:
// every attempt, the pauses between them and reading the answer. Zero keeps
// the default.
func WithTimeouts(connect, call time.Duration) Option {
	return func(c *Client) {
		if connect > 0 {
			c.connectTimeout = connect
		}
		if call > 0 {
			c.callTimeout = call
		}
	}
}

// WithRetries sets how many times a GET is tried again after a transport
// failure or a 5xx. POST and PUT are never retried: they change state.
func WithRetries(n int) Option { return func(c *Client) { c.retries = max(n, 0) } }

// WithBreaker opens the circuit of a provider path after failures
// consecutive failed calls of that path (transport failures, deadlines, 5xx
// answers) and keeps it open for openFor, failing calls of that path at once
// with ErrUnavailable; the other paths are not affected. failures 0 turns
// the breakers off.
func WithBreaker(failures uint32, openFor time.Duration) Option {
	return func(c *Client) {
		c.breakerFails = failures
		if openFor > 0 {
			c.breakerOpen = openFor
		}
	}
}

// WithMaxInFlight bounds the provider calls in flight at once: beyond n, a
// call fails at once with ErrBusy instead of waiting on a slow provider
// until its deadline. 0 or less: no bound.
func WithMaxInFlight(n int) Option {
	return func(c *Client) {
		c.slots = nil
		if n > 0 {
			c.slots = make(chan struct{}, n)
		}
	}
}

// WithRegisterer registers the client's metrics with reg: the histogram
// lk_gateway_call_duration_seconds (labels call, outcome), the calls in
// flight and refused, and the breakers open.
func WithRegisterer(reg prometheus.Registerer) Option { return func(c *Client) { c.reg = reg } }

// WithLogger logs failed calls at Warn and successful ones at Debug. Tokens,
// SMS codes and bodies are never logged; phones are masked.
func WithLogger(l *slog.Logger) Option { return func(c *Client) { c.log = l } }

// WithUserAgent names the client in every call's User-Agent, such as
// "lk/0.5.0", so the provider's logs tell this service and its build.
func WithUserAgent(ua string) Option { return func(c *Client) { c.userAgent = ua } }

// ServiceKeyHeader carries the service key by which the gateway knows
// this account (WithServiceKey) on every call: the customer's bearer
// token has Authorization on the two profile calls.
const ServiceKeyHeader = "X-Api-Key"

// WithServiceKey sends key as ServiceKeyHeader on every call, the
// background check's included. The key is never logged, nor put in an
// error or a span.
func WithServiceKey(key string) Option { return func(c *Client) { c.serviceKey = key } }

// WithLocation sets the zone the provider's wall-clock dates are written in
// (default ResortLocation).
func WithLocation(loc *time.Location) Option { return func(c *Client) { c.loc = loc } }

// NewClient returns a client of the gateway at baseURL, which includes the
// version, e.g. "http://127.0.0.1:8090/v1".
func NewClient(baseURL string, opts ...Option) (*Client, error) {
	u, err := url.Parse(baseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("gateway: base URL %q: want http(s)://host/v1", baseURL)
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	u.RawQuery, u.Fragment = "", ""
	c := &Client{
		base:           u,
		connectTimeout: DefaultConnectTimeout,
		callTimeout:    DefaultCallTimeout,
		retries:        DefaultRetries,
		breakerFails:   DefaultBreakerFailures,
		breakerOpen:    DefaultBreakerOpen,
		maxBody:        MaxBody,
		backoff:        jitteredBackoff,
		throttleWait:   ThrottleWait,
		common:         common{ttl: DefaultSharedTTL},
		flights:        flights{hold: DefaultSpeculativeHold},
	}
	for _, opt := range opts {
		opt(c)
	}
	if c.log == nil {
		c.log = slog.New(slog.DiscardHandler)
	}
	if c.loc == nil {
		c.loc = ResortLocation()
	}
	if c.common.now == nil {
		c.common.now = time.Now
	}
	c.flights.now = c.common.now
	if c.hc == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.DialContext = (&net.Dialer{Timeout: c.connectTimeout, KeepAlive: 30 * time.Second}).DialContext
		t.TLSHandshakeTimeout = c.connectTimeout
		// A page asks for up to five answers at once, so 50 pages in flight
		// hold 250 connections; with only 32 kept, most calls under load
		// paid a new TCP connection on both sides (a tenth of the server's
		// CPU in the profile of /orders at 50 concurrent).
		t.MaxIdleConnsPerHost = 256
		t.MaxIdleConns = 256
		c.hc = &http.Client{Transport: t}
	}
	c.breakers = map[string]*gobreaker.CircuitBreaker[answer]{}
	c.duration = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "lk_gateway_call_duration_seconds",
		Help:    "Duration of calls to the provider's API gateway, retries included, by call and outcome.",
		Buckets: []float64{.01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
	}, []string{"call", "outcome"})
	c.inFlight = prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "lk_gateway_calls_in_flight",
		Help: "Provider calls (attempts) in flight now.",
	})
	c.refused = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "lk_gateway_calls_refused_total",
		Help: "Provider calls refused at once because LK_GATEWAY_MAX_INFLIGHT calls were in flight.",
	})
	if c.reg != nil {
		var err error
		if c.duration, err = register(c.reg, c.duration); err == nil {
			if c.inFlight, err = register(c.reg, c.inFlight); err == nil {
				if c.refused, err = register(c.reg, c.refused); err == nil {
					if _, err = register(c.reg, c.openBreakers()); err == nil {
						_, err = register(c.reg, c.throttledSeconds())
					}
				}
			}
		}
		if err != nil {
			return nil, fmt.Errorf("gateway: register metrics: %w", err)
		}
	}
	return c, nil
}

// register registers m with reg, or answers the one of that name already
// registered (several clients on one registry share their metrics).
func register[M prometheus.Collector](reg prometheus.Registerer, m M) (M, error) {
	err := reg.Register(m)
	if err == nil {
		return m, nil
	}
	if are, ok := errors.AsType[prometheus.AlreadyRegisteredError](err); ok {
		if existing, ok := are.ExistingCollector.(M); ok {
			return existing, nil
		}
	}
	return m, err
}

// openBreakers counts the provider paths whose breaker is open now: their
// calls fail at once without reaching the provider.
func (c *Client) openBreakers() prometheus.GaugeFunc {
	return prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "lk_gateway_breakers_open",
		Help: "Provider paths whose circuit breaker is open now (their calls fail at once).",
	}, func() float64 {
		c.breakerMu.Lock()
		defer c.breakerMu.Unlock()
		n := 0
		for _, b := range c.breakers {
			if b.State() == gobreaker.StateOpen {
				n++
			}
		}
		return float64(n)
	})
}

// breaker is the circuit breaker of one provider path, made on first use;
// nil when breakers are off. One path failing (say the hotel's order list)
// must not stop the calls that work.
func (c *Client) breaker(path string) *gobreaker.CircuitBreaker[answer] {
	if c.breakerFails == 0 {
		return nil
	}
	c.breakerMu.Lock()
	defer c.breakerMu.Unlock()
	if b, ok := c.breakers[path]; ok {
		return b
	}
	fails := c.breakerFails
	b := gobreaker.NewCircuitBreaker[answer](gobreaker.Settings{
		Name:        path,
		Timeout:     c.breakerOpen,
		ReadyToTrip: func(n gobreaker.Counts) bool { return n.ConsecutiveFailures >= fails },
		// The customer leaving is no sign of the provider's health.
		// Nor is our own bound on the calls in flight, nor a call not
		// made because the provider asked for fewer.
		IsExcluded: func(err error) bool {
			return errors.Is(err, context.Canceled) || errors.Is(err, ErrBusy) || errors.Is(err, ErrThrottled)
		},
		OnStateChange: func(name string, from, to gobreaker.State) {
			c.log.Warn("gateway circuit breaker", slog.String("path", name),
				slog.String("from", from.String()), slog.String("to", to.String()))
		},
	})
	c.breakers[path] = b
	return b
}

// jitteredBackoff waits 100–200 ms before the first retry, 200–400 ms before
// the second and later ones.
func jitteredBackoff(n int) time.Duration {
	base := 100 * time.Millisecond
	if n > 1 {
		base = 200 * time.Millisecond
	}
	return base + rand.N(base)
}

// Metric outcomes.
const (
	outcomeOK            = "ok"
	outcomeProviderError = "provider_error"
	outcomeUnavailable   = "unavailable"
	outcomeMalformed     = "malformed"
	outcomeNotFound      = "not_found"
	outcomeThrottled     = "throttled"    // 429, or not made in the hold it asked for
	outcomeUnauthorized  = "unauthorized" // the gateway refused this service (403)
)

func outcome(err error) string {
	switch {
	case err == nil:
		return outcomeOK
	case errors.Is(err, ErrNotFound):
		return outcomeNotFound
	case errors.Is(err, ErrThrottled):
		return outcomeThrottled
	case errors.Is(err, ErrServiceRefused):
		return outcomeUnauthorized
	case errors.Is(err, ErrUnavailable):
		return outcomeUnavailable
	case errors.Is(err, ErrMalformed):
		return outcomeMalformed
	default: // *ProviderError, ErrUnauthorized
		return outcomeProviderError
	}
}

// call describes one request to the provider.
type call struct {
	op      string      // for errors and logs: "get aqua orders"
	method  string      //
	path    string      // relative to the base: "aqua/getAquaOrders"
	query   url.Values  //
	json    any         // JSON body
	files   []File      // documents streamed into the JSON body's placeholder (withDocuments)
	form    url.Values  // form body
	token   string      // bearer; only the two auth calls have one
	pdf     bool        // a PDF is the expected answer
	common  bool        // the answer is the same for every customer: kept and shared (shared.go)
	emptyOK bool        // a 2xx with an empty body is success ("answer not shown")
	attrs   []slog.Attr // extra, non-secret log attributes
}

// answer is what came back over the wire.
type answer struct {
	status   int
	ctype    string
	body     []byte
	tooLarge bool
	hold     time.Duration // a 429's Retry-After
}

// errServerFailure tells the breaker that a 5xx is a failure; do turns it
// back into an answer for decode.
var errServerFailure = errors.New("server failure")

// serverFailure is a 5xx that does not say success: the provider is failing,
// whatever text its answer holds.
func serverFailure(a answer) bool {
	if a.status < 500 {
		return false
	}
	v, ok := readVerdict(a.body)
	return !ok || !v.succeeded
}

// do performs c and decodes the answer into out (nil to ignore it, *[]byte
// for a PDF). check, if not nil, runs after a successful decode and may
// return ErrNotFound or ErrMalformed (possibly wrapped). It is the one place
// that turns answers into errors, and it times every call.
func (c *Client) do(ctx context.Context, cl call, out any, check func() error) (err error) {
	start := time.Now()
	status, attempts := 0, 0
	ctx, span := c.startSpan(ctx, cl)
	defer func() {
		endSpan(span, status, attempts, err)
		o := outcome(err)
		took := time.Since(start)
		c.duration.WithLabelValues(strings.ReplaceAll(cl.op, " ", "_"), o).Observe(took.Seconds())
		level, msg := slog.LevelDebug, "gateway call"
		if err != nil {
			level, msg = slog.LevelWarn, "gateway call failed"
		}
		if !c.log.Enabled(ctx, level) { // a successful call is not logged at info: nothing to build
			return
		}
		attrs := append([]slog.Attr{
			slog.String("call", cl.op), slog.String("path", cl.path), slog.String("outcome", o),
			slog.Int("status", status), slog.Int("attempts", attempts), slog.Duration("took", took),
		}, cl.attrs...)
		attrs = append(attrs, requestIDAttr(ctx)...)
		if err != nil {
			attrs = append(attrs, slog.String("error", err.Error()))
		}
		c.log.LogAttrs(ctx, level, msg, attrs...)
	}()

	req, err := c.prepare(cl)
	if err != nil {
		return err
	}
	// One deadline for the whole call, retries and pauses included.
	ctx, cancel := context.WithTimeout(ctx, c.callTimeout)
	defer cancel()
	if cl.method != http.MethodGet && !sharedRead(cl) {
		c.flights.forget()
		defer c.flights.forget()
		c.common.drop(part(cl.path))
		defer c.common.drop(part(cl.path))
	}
	var a answer
	waited := AwaitProvider(ctx)
	fetch := func(ctx context.Context) (answer, int, error) { return c.fetch(ctx, cl, req) }
	if sharedRead(cl) && c.common.ttl > 0 {
		var shared bool
		a, attempts, shared, err = c.common.get(ctx, sharedKey(cl, req), part(cl.path), isFresh(ctx), fetch)
		if shared {
			cl.attrs = append(cl.attrs, slog.Bool("shared", true))
		}
	} else if key, ok := flightKey(cl, req); ok {
		var shared bool
		a, attempts, shared, err = c.flights.do(ctx, key, fetch)
		if shared {
			cl.attrs = append(cl.attrs, slog.Bool("shared", true))
		}
	} else {
		a, attempts, err = c.fetch(ctx, cl, req)
	}
	waited()
	status = a.status
	if err != nil {
		markBusy(ctx, err)
		return opError(cl.op, ErrUnavailable, err)
	}
	if err := c.decode(cl, a, out); err != nil {
		return err
	}
	if check != nil {
		if err := check(); err != nil {
			return fmt.Errorf("gateway: %s: %w", cl.op, err)
		}
	}
	return nil
}

// fetch is the exchange of one call behind its path's breaker; it answers
// how many attempts it took.
func (c *Client) fetch(ctx context.Context, cl call, req prepared) (a answer, attempts int, err error) {
	b := c.breaker(cl.path)
	if b == nil {
		a, err = c.exchange(ctx, cl, req, &attempts)
		return a, attempts, err
	}
	a, err = b.Execute(func() (answer, error) {
		a, err := c.exchange(ctx, cl, req, &attempts)
		if err == nil && serverFailure(a) {
			return a, errServerFailure
		}
		return a, err
	})
	if errors.Is(err, errServerFailure) {
		err = nil
	}
	return a, attempts, err
}

// prepared is a request's URL and body, encoded once and sent per attempt.
type prepared struct {
	url   string
	open  func() io.Reader // a fresh body for each attempt; nil when none
	size  int64
	ctype string
}

func (c *Client) prepare(cl call) (prepared, error) {
	u := c.base.JoinPath(cl.path)
	if len(cl.query) > 0 {
		u.RawQuery = cl.query.Encode()
	}
	p := prepared{url: u.String()}
	fixed := func(b []byte) {
		p.open, p.size = func() io.Reader { return bytes.NewReader(b) }, int64(len(b))
	}
	switch {
	case cl.files != nil:
		open, size, err := documentsBody(cl.json, cl.files)
		if err != nil {
			return p, fmt.Errorf("gateway: %s: encode request: %w", cl.op, err)
		}
		p.open, p.size, p.ctype = open, size, "application/json"
	case cl.json != nil:
		b, err := json.Marshal(cl.json)
		if err != nil {
			return p, fmt.Errorf("gateway: %s: encode request: %w", cl.op, err)
		}
		fixed(b)
		p.ctype = "application/json"
	case cl.form != nil:
		fixed([]byte(cl.form.Encode()))
		p.ctype = "application/x-www-form-urlencoded"
	}
	return p, nil
}

// exchange sends the request, retrying a GET on transport failures, 5xx
// and 429 (after the hold it asked for, when a read may wait it out).
// A transport error comes back without the URL (it may carry ids).
func (c *Client) exchange(ctx context.Context, cl call, p prepared, attempts *int) (answer, error) {
	tries := 1
	if cl.method == http.MethodGet {
		tries += c.retries
	}
	var (
		a   answer
		err error
	)
	for i := range tries {
		if i > 0 && sleep(ctx, c.backoff(i)) != nil {
			break // keep the last answer or error
		}
		if held := c.admit(ctx, cl); held != nil {
			if i == 0 {
				return a, held
			}
			break // keep the last answer (a 429) or error
		}
		*attempts = i + 1
		a, err = c.bounded(ctx, cl, p)
		if ctx.Err() != nil || errors.Is(err, ErrBusy) || (err == nil && a.status < 500 && a.status != http.StatusTooManyRequests) {
			break
		}
	}
	return a, err
}

// bounded is one attempt within the bound on calls in flight: beyond it,
// ErrBusy at once.
func (c *Client) bounded(ctx context.Context, cl call, p prepared) (answer, error) {
	if c.slots != nil {
		select {
		case c.slots <- struct{}{}:
			defer func() { <-c.slots }()
		default:
			c.refused.Inc()
			return answer{}, ErrBusy
		}
	}
	c.inFlight.Inc()
	defer c.inFlight.Dec()
	return c.roundTrip(ctx, cl, p)
}

// roundTrip is one attempt; the caller's ctx carries the call's deadline.
func (c *Client) roundTrip(ctx context.Context, cl call, p prepared) (answer, error) {
	var body io.Reader
	if p.open != nil {
		body = p.open()
	}
	req, err := http.NewRequestWithContext(ctx, cl.method, p.url, body)
	if err != nil {
		return answer{}, withoutURL(err)
	}
	if body != nil {
		// Streamed bodies too: a length (no chunked encoding), and a way to
		// start again for net/http's own retry on a stale kept-alive
		// connection, as it has for a bytes.Reader.
		req.ContentLength = p.size
		req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(p.open()), nil }
	}
	if p.ctype != "" {
		req.Header.Set("Content-Type", p.ctype)
	}
	if cl.pdf {
		req.Header.Set("Accept", "application/pdf, application/json")
	} else {
		req.Header.Set("Accept", "application/json")
	}
	if cl.token != "" {
		req.Header.Set("Authorization", "Bearer "+cl.token)
	}
	if c.userAgent != "" {
		req.Header.Set("User-Agent", c.userAgent)
	}
	if c.serviceKey != "" {
		req.Header.Set(ServiceKeyHeader, c.serviceKey)
	}
	annotate(ctx, req)
	resp, err := c.hc.Do(req)
	if err != nil {
		return answer{}, withoutURL(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, c.maxBody+1))
	a := answer{status: resp.StatusCode, ctype: resp.Header.Get("Content-Type"), body: b}
	if a.status == http.StatusTooManyRequests {
		a.hold = retryAfter(resp.Header)
		c.throttle.hold(a.hold)
	}
	if err != nil {
		return a, fmt.Errorf("read answer: %w", withoutURL(err))
	}
	if int64(len(b)) > c.maxBody {
		a.body, a.tooLarge = nil, true
	}
	return a, nil
}

// withoutURL drops the request URL from a transport error: the text stays
// short and carries no ids.
func withoutURL(err error) error {
	if ue, ok := errors.AsType[*url.Error](err); ok {
		return ue.Err
	}
	return err
}

func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// decode turns an answer into nil or a typed error. The HTTP status is not
// trusted to mean success (the provider says success in the body, not in the status): a
// JSON body is read whatever the status, and its success/hasErrors decide.
// A 5xx that does not say success is a *ProviderError that is also
// ErrUnavailable: its text may be shown, but it is the provider failing, not
// its word on the request.
func (c *Client) decode(cl call, a answer, out any) error {
	ok2xx := a.status >= 200 && a.status < 300
	switch {
	case cl.token != "" && a.status == http.StatusUnauthorized:
		return opError(cl.op, ErrUnauthorized, nil)
	case a.status == http.StatusTooManyRequests:
		return opError(cl.op, ErrThrottled, &StatusError{Status: a.status, Body: fmt.Sprintf("no calls for %s", a.hold)})
	case a.status == http.StatusForbidden:
		// Whatever the body says: its text is the gateway's word to this
		// service, not to the customer.
		return opError(cl.op, ErrServiceRefused, &StatusError{Status: a.status, Body: "the gateway refused this service"})
	}
	if a.tooLarge {
		return opError(cl.op, ErrMalformed, fmt.Errorf("answer over %d bytes", c.maxBody))
	}
	if cl.pdf && ok2xx && isPDF(a) {
		if p, ok := out.(*[]byte); ok {
			*p = a.body
		}
		return nil
	}
	body := bytes.TrimSpace(a.body)
	if len(body) == 0 && ok2xx && cl.emptyOK {
		return nil
	}
	if ok2xx && !cl.pdf && decodedSuccess(body, out) {
		return nil
	}
	return decodeJSON(cl, a, body, out)
}

// decodeJSON reads the verdict of a JSON answer first, then, when the call
// succeeded, the answer into out.
func decodeJSON(cl call, a answer, body []byte, out any) error {
	ok2xx := a.status >= 200 && a.status < 300
	v, ok := readVerdict(body)
	if !ok {
		cause := &StatusError{Status: a.status, Body: describeBody(a)}
		if a.status >= 500 {
			return opError(cl.op, ErrUnavailable, cause)
		}
		return opError(cl.op, ErrMalformed, cause)
	}
	if v.failed || (!ok2xx && !v.succeeded) {
		return &ProviderError{Op: cl.op, Message: v.message, Status: a.status}
	}
	if cl.pdf {
		return opError(cl.op, ErrMalformed, fmt.Errorf("HTTP %d, JSON instead of a PDF", a.status))
	}
	if out != nil {
		if err := unmarshal(body, out); err != nil {
			return opError(cl.op, ErrMalformed, err)
		}
	}
	return nil
}

func isPDF(a answer) bool {
	mt, _, _ := mime.ParseMediaType(a.ctype)
	switch mt {
	case "application/pdf", "application/octet-stream", "":
		return bytes.HasPrefix(a.body, []byte("%PDF-"))
	}
	return false
}

// describeBody names what came instead of JSON, without quoting it.
func describeBody(a answer) string {
	if len(bytes.TrimSpace(a.body)) == 0 {
		return "empty body"
	}
	mt, _, _ := mime.ParseMediaType(a.ctype)
	if mt == "" {
		mt = "untyped"
	}
	return fmt.Sprintf("%d-byte %s body, not JSON", len(a.body), mt)
}
