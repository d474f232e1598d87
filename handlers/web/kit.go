// Package web is the request plumbing of the personal account: middleware,
// session cookies, rendering, Russian error pages, the loading frame,
// compression, static files, tracing, health and the bounds on load. It knows
// nothing of orders or the provider; it follows the provider's calls via Calls.
package web

import (
	"cmp"
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v5"
	"github.com/prometheus/client_golang/prometheus"
	"go.opentelemetry.io/otel/trace"

	"lk/views"
)

// Calls is what the plumbing follows of the calls a request makes to the
// services behind the account.
type Calls interface {
	// Watch carries the request's id to every call; with giveUp (a page), the
	// first call refused for want of room cancels the others.
	Watch(ctx context.Context, requestID string, giveUp bool) context.Context
	// Refused tells whether a call made with ctx was refused for want of room.
	Refused(ctx context.Context) bool
	// Follow returns ctx in which the calls are followed, and since when the
	// request has waited on one without a break (false: none in flight).
	Follow(ctx context.Context) (context.Context, func() (since time.Time, waiting bool))
	// Ahead marks ctx as a page's fetched ahead of a tap.
	Ahead(ctx context.Context) context.Context
}

// Shell draws every page's frame, asking nothing of the provider: an error's
// page may answer a stranger.
type Shell interface {
	Page(c *echo.Context, title, description string) views.Page
}

// Uploads tells the forms that may carry documents, which get a larger body
// and a longer time, and counts those refused as the instance shuts down.
type Uploads interface {
	IsUpload(r *http.Request) bool
	Draining()
}

// Config is what a Kit is built from.
type Config struct {
	Sessions *Sessions
	Calls    Calls
	Site     *views.Site
	Assets   *views.Assets
	Static   fs.FS // the static/ folder
	Logger   *slog.Logger
	Registry prometheus.Registerer
	Tracer   trace.TracerProvider
	Health   *Health
	Shell    Shell
	// StorePing is the shared store's health for /readyz; nil without one.
	StorePing func(context.Context) error
	// Admission bounds the pages worked on at once; nil: an adaptive default.
	Admission *Admission
	// TrustedProxies may set X-Forwarded-For and X-Forwarded-Proto.
	TrustedProxies []*net.IPNet
	// PublicURL starts every absolute URL, never the Host anyone can set; empty: http://localhost.
	PublicURL    string
	FormBodyTime time.Duration
	// LoadingAfter is how long a page waits in silence before its frame; 0: 300 ms.
	LoadingAfter time.Duration
	// CallTimeout is the provider's deadline, which an upload may wait for.
	CallTimeout time.Duration
	Uploads     Uploads
	Now         func() time.Time // nil means time.Now
}

// Kit is the plumbing's state, shared by every request.
type Kit struct {
	Config
	tracer   trace.Tracer // nil: no spans
	metrics  *counters
	frames   frames          // the loading frames, prepared once
	gzipped  gzipCache       // static files compressed once
	held     map[string]bool // routes whose pages wait their turn or are refused
	shedWarn shedLog
}

// New builds the plumbing and registers its metrics.
func New(c Config) (*Kit, error) {
	if c.Sessions == nil || c.Site == nil || c.Assets == nil || c.Static == nil || c.Shell == nil || c.Uploads == nil {
		return nil, errors.New("web: sessions, site, assets, static, shell and uploads are required")
	}
	k := &Kit{Config: c, held: map[string]bool{}}
	k.Calls = cmp.Or[Calls](k.Calls, noCalls{})
	k.FormBodyTime = cmp.Or(k.FormBodyTime, formBodyTime)
	k.LoadingAfter = cmp.Or(k.LoadingAfter, loadingAfter)
	k.CallTimeout = cmp.Or(k.CallTimeout, 10*time.Second)
	k.PublicURL = cmp.Or(strings.TrimRight(k.PublicURL, "/"), "http://localhost")
	if k.Logger == nil {
		k.Logger = slog.New(slog.DiscardHandler)
	}
	if k.Now == nil {
		k.Now = time.Now
	}
	if k.Admission == nil {
		k.Admission = NewAdmission(AdmissionConfig{})
	}
	if k.Health == nil {
		k.Health, _ = NewHealth(nil) // nothing registered: cannot fail
		k.Health.SetServing(true)
	}
	if c.Tracer != nil {
		k.tracer = c.Tracer.Tracer("lk/handlers")
	}
	reg := k.Registry
	if reg == nil { // counted where nobody reads: tests that do not look
		reg = prometheus.NewRegistry()
	}
	m, err := newMetrics(reg, k.Admission)
	if err != nil {
		return nil, err
	}
	k.metrics = m
	return k, nil
}

// Hold marks a route whose pages take their turn under overload (Admit).
func (k *Kit) Hold(route string) { k.held[route] = true }

// Absolute is path as an absolute URL of the account.
func (k *Kit) Absolute(path string) string { return k.PublicURL + path }

// A plain-http client cannot make the server claim https (and send HSTS):
// only TLS or a trusted proxy says so.
func (k *Kit) scheme(c *echo.Context) string {
	r := c.Request()
	if r.TLS != nil {
		return "https"
	}
	if k.fromTrustedProxy(r.RemoteAddr) {
		proto, _, _ := strings.Cut(r.Header.Get(echo.HeaderXForwardedProto), ",")
		if strings.EqualFold(strings.TrimSpace(proto), "https") {
			return "https"
		}
	}
	return "http"
}

func (k *Kit) fromTrustedProxy(remoteAddr string) bool {
	host, _, err := net.SplitHostPort(remoteAddr)
	if err != nil {
		host = remoteAddr
	}
	ip := net.ParseIP(host)
	for _, n := range k.TrustedProxies {
		if ip != nil && n.Contains(ip) {
			return true
		}
	}
	return false
}

// noCalls follows nothing: a Kit without services behind it.
type noCalls struct{}

func (noCalls) Watch(ctx context.Context, _ string, _ bool) context.Context { return ctx }
func (noCalls) Refused(context.Context) bool                                { return false }
func (noCalls) Ahead(ctx context.Context) context.Context                   { return ctx }
func (noCalls) Follow(ctx context.Context) (context.Context, func() (time.Time, bool)) {
	return ctx, func() (time.Time, bool) { return time.Time{}, false }
}
