// Package handlers holds the echo handlers of the personal account: one
// file per screen or action, every route in routes.go, and the middleware.
package handlers

import (
	"cmp"
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"net"
	"strings"
	"time"

	"github.com/labstack/echo/v5"
	"github.com/prometheus/client_golang/prometheus"
	"go.opentelemetry.io/otel/trace"

	"lk/gateway"
	"lk/handlers/web"
	"lk/store"
	"lk/views"
)

// Provider is what the handlers need of the provider's gateway, made of
// each family's own small interface; *gateway.Client implements it.
type Provider interface {
	accountProvider
	lessonProvider
	rentProvider
	aquaProvider
	hotelProvider
	Ping(ctx context.Context) error
}

type accountProvider interface {
	Login(ctx context.Context, phone string, resend bool) error
	LoginConfirm(ctx context.Context, phone, code string) (string, error)
	ClientInfo(ctx context.Context, token string) (gateway.PersonalInfo, error)
	EditClientInfo(ctx context.Context, token string, p gateway.ProfileUpdate) error
	Register(ctx context.Context, r gateway.Registration) error
}

// Options are the server's dependencies, built by cmd/lk.
type Options struct {
	Provider    Provider
	Sessions    *web.Sessions
	Limiter     store.Limiter
	Once        store.Once        // one-time action tokens; nil means in memory
	Files       store.RefundFiles // refund documents kept after a refusal; nil means in memory
	Moves       store.Moves       // first ids of moved bookings; nil means in memory
	Leases      store.Leases      // one action at a time per order; nil means in memory
	Acts        store.Acts        // what each customer last did to an order; nil means in memory
	CallTimeout time.Duration
	// UploadBudget bounds the refund bytes read at once; 0: 100 MB.
	UploadBudget int64
	// StorePing is the shared store's health for /readyz; nil without one.
	StorePing    func(context.Context) error
	Site         *views.Site
	Assets       *views.Assets
	Static       fs.FS // the static/ folder
	Logger       *slog.Logger
	Registry     prometheus.Registerer
	Location     *time.Location
	Now          func() time.Time // nil means time.Now
	CodeInterval time.Duration
	// SMSBudget caps the codes sent per hour and per day by every instance
	// sharing Limiter; a zero field takes its default.
	SMSBudget SMSBudget
	// TrustedProxies may set X-Forwarded-For and X-Forwarded-Proto; anyone
	// else's word is not taken, so the per-IP limit cannot be dodged.
	TrustedProxies []*net.IPNet

	Health *Health
	Tracer trace.TracerProvider
	// PublicURL starts every absolute URL the server writes, never the
	// request's Host, which anyone can set. Empty: http://localhost.
	PublicURL    string
	FormBodyTime time.Duration
	// LoadingAfter is how long a page waits for the provider in silence
	// before it sends its frame and 'Загружаем…'; 0: 300 ms.
	LoadingAfter time.Duration
	// Admission bounds the pages worked on at once; nil: an adaptive one
	// with its defaults.
	Admission *web.Admission
}

// Server is the personal account's HTTP handler.
type Server struct {
	gw           Provider // for readiness only; the handlers use their own part:
	account      accountProvider
	lessons      lessonProvider
	rents        rentProvider
	aqua         aquaProvider
	hotel        hotelProvider
	sessions     *web.Sessions
	speculation  speculation
	limits       store.Limiter
	interval     time.Duration
	budget       SMSBudget
	budgetGauge  budgetGauge
	once         store.Once
	files        store.RefundFiles
	moves        store.Moves
	acts         store.Acts
	storePing    func(context.Context) error
	health       *Health
	tracer       trace.Tracer // nil: no spans
	site         *views.Site
	assets       *views.Assets
	static       fs.FS
	gzipped      gzipCache // static files compressed once
	log          *slog.Logger
	loc          *time.Location
	now          func() time.Time
	metrics      *metrics
	ops          *opsMetrics
	trusted      []*net.IPNet // reverse proxies whose X-Forwarded-* are believed
	publicURL    string       // without a trailing slash
	formBodyTime time.Duration
	loadingAfter time.Duration
	uploads      *uploads
	leases       store.Leases
	callTimeout  time.Duration
	admission    *web.Admission
	shed         map[string]bool // routes whose pages wait their turn or are refused
	shedWarn     shedLog
	frames       frames // the loading frames, prepared once
	names        names  // the shell's names, read from the profiles
}

// New builds the echo instance with every route and middleware.
func New(o Options) (*echo.Echo, error) {
	if o.Provider == nil || o.Sessions == nil || o.Site == nil || o.Assets == nil || o.Static == nil {
		return nil, errors.New("handlers: provider, sessions, site, assets and static are required")
	}
	s := &Server{
		gw: o.Provider, account: o.Provider, lessons: o.Provider, rents: o.Provider, aqua: o.Provider, hotel: o.Provider, sessions: o.Sessions, limits: o.Limiter, once: o.Once, files: o.Files, moves: o.Moves, acts: o.Acts, storePing: o.StorePing, health: o.Health, site: o.Site, assets: o.Assets,
		static: o.Static, log: o.Logger, loc: o.Location, now: o.Now,
		interval: o.CodeInterval, uploads: newUploads(o.UploadBudget), leases: o.Leases, callTimeout: o.CallTimeout, trusted: o.TrustedProxies, publicURL: strings.TrimRight(o.PublicURL, "/"),
	}
	s.formBodyTime = cmp.Or(o.FormBodyTime, formBodyTime)
	s.admission = o.Admission
	if s.admission == nil {
		s.admission = web.NewAdmission(web.AdmissionConfig{})
	}
	s.loadingAfter = cmp.Or(o.LoadingAfter, loadingAfter)
	if s.publicURL == "" {
		s.publicURL = "http://localhost"
	}
	if s.limits == nil {
		s.limits = store.NewMemoryLimiter()
	}
	if s.interval <= 0 {
		s.interval = CodeInterval
	}
	s.budget = SMSBudget{Hour: cmp.Or(o.SMSBudget.Hour, DefaultCodesPerHour), Day: cmp.Or(o.SMSBudget.Day, DefaultCodesPerDay)}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.loc == nil {
		s.loc = gateway.ResortLocation()
	}
	if s.now == nil {
		s.now = time.Now
	}
	clock := s.now
	s.now = func() time.Time { return clock().In(s.loc) } // the date rules take today in now's zone
	if o.Tracer != nil {
		s.tracer = o.Tracer.Tracer("lk/handlers")
	}
	if s.health == nil {
		s.health, _ = NewHealth(nil) // nothing registered: cannot fail
		s.health.SetServing(true)
	}
	if s.once == nil {
		s.once = store.NewMemoryOnce(s.now)
	}
	if s.leases == nil {
		s.leases = store.NewMemoryLeases(s.now)
	}
	if s.callTimeout <= 0 {
		s.callTimeout = 10 * time.Second
	}
	if s.files == nil {
		s.files = store.NewMemoryRefundFiles(s.now)
	}
	if s.moves == nil {
		s.moves = store.NewMemoryMoves(s.now)
	}
	if s.acts == nil {
		s.acts = store.NewMemoryActs(s.now)
	}
	reg := o.Registry
	if reg == nil { // counted where nobody reads: tests that do not look
		reg = prometheus.NewRegistry()
	}
	m, err := newMetrics(reg)
	if err != nil {
		return nil, err
	}
	s.metrics = m
	for _, c := range admissionMetrics(s.admission) {
		if err := reg.Register(c); err != nil {
			return nil, err
		}
	}
	if s.speculation, err = newSpeculation(reg); err != nil {
		return nil, err
	}
	if s.ops, err = newOpsMetrics(reg); err != nil {
		return nil, err
	}
	s.uploads.full = s.ops.uploadRefused
	// HEAD is answered wherever GET is (monitors use it); no GET changes state.
	e := echo.NewWithConfig(echo.Config{Router: echo.NewRouter(echo.RouterConfig{AllowOverwritingRoute: true, AutoHandleHEAD: true})})
	e.Logger = s.log
	e.HTTPErrorHandler = s.handleError
	if len(o.TrustedProxies) > 0 {
		trust := []echo.TrustOption{echo.TrustLoopback(false), echo.TrustPrivateNet(false), echo.TrustLinkLocal(false)}
		for _, n := range o.TrustedProxies {
			trust = append(trust, echo.TrustIPRange(n))
		}
		e.IPExtractor = echo.ExtractIPFromXFFHeader(trust...)
	}
	s.routes(e)
	return e, nil
}

// page is a page's frame; its shell names the customer as the profile does
// (shellName).
func (s *Server) page(c *echo.Context, title, description string) views.Page {
	p := s.knownPage(c, title, description)
	if p.User != nil {
		p.User.Name = s.shellName(c, session(c))
	}
	return p
}

// knownPage is a page's frame with the name already known, asking the
// provider nothing: an error's page, which may answer a stranger's request.
func (s *Server) knownPage(c *echo.Context, title, description string) views.Page {
	p := views.Page{Title: title, Description: description, Nonce: nonce(c), Site: s.site, Assets: s.assets}
	if sess := session(c); sess != nil {
		name, ok := s.names.get(sess.GUID, s.now())
		if !ok {
			name = sess.Name
		}
		p.User = &views.User{Name: name}
		if !isSpeculative(c) {
			p.Notice = s.sessions.TakeNotice(c.Response(), c.Request())
		}
		p.Speculate = !savesData(c.Request())
	}
	return p
}

// A plain-http client cannot make the server claim https (and send HSTS):
// only TLS or a trusted proxy says so.
func (s *Server) scheme(c *echo.Context) string {
	r := c.Request()
	if r.TLS != nil {
		return "https"
	}
	if s.fromTrustedProxy(r.RemoteAddr) {
		proto, _, _ := strings.Cut(r.Header.Get(echo.HeaderXForwardedProto), ",")
		if strings.EqualFold(strings.TrimSpace(proto), "https") {
			return "https"
		}
	}
	return "http"
}

func (s *Server) fromTrustedProxy(remoteAddr string) bool {
	host, _, err := net.SplitHostPort(remoteAddr)
	if err != nil {
		host = remoteAddr
	}
	ip := net.ParseIP(host)
	for _, n := range s.trusted {
		if ip != nil && n.Contains(ip) {
			return true
		}
	}
	return false
}

func (s *Server) absolute(path string) string { return s.publicURL + path }
