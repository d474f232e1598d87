package handlers

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
	"github.com/labstack/echo/v5/middleware"
	"github.com/prometheus/client_golang/prometheus"
	"go.opentelemetry.io/otel/trace"

	"lk/gateway"
	"lk/handlers/web"
	"lk/store"
	"lk/views"
)

// routes builds each piece of the plumbing with what it needs, and every route.
func (s *Server) routes(e *echo.Echo, o Options, reg prometheus.Registerer) error {
	calls := providerCalls{}
	observe, err := web.Observe(s.log, calls, reg)
	if err != nil {
		return err
	}
	admit, err := web.NewAdmitter(o.Admission, o.Site, o.Assets, s.log, reg)
	if err != nil {
		return err
	}
	speculative, err := web.MarkSpeculative(calls, reg)
	if err != nil {
		return err
	}
	health := o.Health
	if health == nil {
		health, _ = web.NewHealth(nil) // nothing registered: cannot fail
		health.SetServing(true)
	}
	e.HTTPErrorHandler = web.ErrorHandler(s.log, calls, s.shell, s.uploads)
	loading := web.Loading(s.sessions, calls, o.Site, o.Assets, o.LoadingAfter, s.log)
	e.Use(observe, web.Traced(o.Tracer), web.Secure(o.TrustedProxies), web.Compress(web.GzipLevel), web.HandleErrors,
		admit.Admit, middleware.Recover(), web.CrossOrigin(), web.BodyLimit(o.FormBodyTime, s.callTimeout, health, s.uploads),
		web.LoadSession(s.sessions, s.log), s.offlineMarks)

	// Operations.
	e.GET(web.RouteHealthz, func(c *echo.Context) error { return c.String(http.StatusOK, "ok") })
	e.GET(web.RouteReadyz, web.Readyz(health, o.StorePing, s.log))
	e.GET("/robots.txt", robots)
	e.GET("/static/*", web.StaticFiles(o.Static))
	e.GET("/favicon.ico", func(c *echo.Context) error {
		return c.Redirect(http.StatusMovedPermanently, "/static/img/favicon-32.png")
	})
	e.GET(views.PathManifest, s.manifest)
	e.GET(views.PathWorker, s.worker)
	e.GET(views.PathOffline, s.offline)

	// Sign-in, public.
	e.GET(views.PathLogin, s.loginForm, signedOut)
	e.POST(views.PathLogin, s.loginSubmit)
	e.GET(views.PathLoginCode, s.codeForm)
	e.POST(views.PathLoginCode, s.codeSubmit)
	e.POST(views.PathLoginResend, s.codeResend)
	e.GET(views.PathSignup, s.signupForm, signedOut)
	e.POST(views.PathSignup, s.signupSubmit)
	e.POST(views.PathLogout, s.logout)

	// The account, guarded; its pages take their turn under overload (admit).
	// A form sent after its session ended is kept for the sign-in (keepLapsed).
	g := e.Group("", s.keepLapsed, web.RequireSession, speculative, s.writesSeen)
	read := func(path string, h echo.HandlerFunc) {
		g.GET(path, h)
		admit.Hold(path)
	}
	// Pages that wait for the provider show that they are loading.
	read(views.PathHome, loading(s.home))
	read(views.PathProfileEdit, loading(s.profileForm))
	g.POST(views.PathProfileEdit, s.profileSubmit)
	read(views.PathOrders, loading(s.orders))
	// An order's refusals lead on: back to the order, or to the booking it became.
	on := s.leadOn
	read(routeOrder, loading(s.order))
	g.POST(routeOrder+"/confirm", on(s.orderConfirm))
	read(routeOrder+"/cancel", loading(on(s.withOrder(actCancel, s.orderCancelForm))))
	g.POST(routeOrder+"/cancel", on(s.orderCancel))
	read(routeOrder+"/refund", loading(on(s.withOrder(actRefund, s.orderRefundForm))))
	g.POST(routeOrder+"/refund", on(s.orderRefund))
	read(routeOrder+"/transfer", loading(on(s.withOrder(actTransfer, s.orderTransferForm))))
	g.POST(routeOrder+"/transfer", on(s.orderTransfer))
	read(routeOrder+"/ticket.pdf", on(s.orderDocument))
	read(routeOrder+"/voucher.pdf", on(s.orderDocument))
	read(routeOrder+"/"+calendarFile, on(s.orderCalendar))
	read(routeOrder+"/ticket.pkpass", on(s.orderPass))
	read(routeOrder+"/tickets.pkpasses", on(s.orderPass))
	read(routeOrder+"/voucher.pkpass", on(s.orderPass))
	read(routeOrder+"/lesson.pkpass", on(s.orderPass))

	e.RouteNotFound("/*", web.NotFound)
	return nil
}

func robots(c *echo.Context) error {
	c.Response().Header().Set(echo.HeaderCacheControl, "public, max-age=86400")
	return c.String(http.StatusOK, "User-agent: *\nAllow: /login\nAllow: /signup\nDisallow: /\n")
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
	Numbers     store.Numbers     // numbers whose codes were entered; nil means in memory
	Kept        store.KeptForms   // forms sent after their session ended; nil means in memory
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
	// SMSBudget caps the codes per hour and day of all instances; zero: default.
	SMSBudget SMSBudget
	// TrustedProxies alone may set X-Forwarded-For and -Proto, so the per-IP limit holds.
	TrustedProxies []*net.IPNet

	Health *web.Health
	Tracer trace.TracerProvider
	// PublicURL starts every absolute URL, never the Host anyone can set; empty: http://localhost.
	PublicURL    string
	FormBodyTime time.Duration
	// LoadingAfter is how long a page waits in silence before its frame; 0: 300 ms.
	LoadingAfter time.Duration
	// Admission bounds the pages worked on at once; nil: an adaptive default.
	Admission *web.Admission
	Wallet    Wallet
}

func New(o Options) (*echo.Echo, error) {
	if o.Provider == nil {
		return nil, errors.New("handlers: a provider is required")
	}
	if o.Sessions == nil || o.Site == nil || o.Assets == nil || o.Static == nil {
		return nil, errors.New("handlers: sessions, site, assets and static are required")
	}
	s := &Server{
		account: o.Provider, log: o.Logger, clock: clock{loc: o.Location, now: o.Now}, callTimeout: o.CallTimeout,
		stores: stores{once: o.Once, files: o.Files, moves: o.Moves, acts: o.Acts, leases: o.Leases, numbers: o.Numbers, kept: o.Kept},
		codes: codeRules{limits: o.Limiter, interval: o.CodeInterval,
			budget: SMSBudget{Hour: cmp.Or(o.SMSBudget.Hour, DefaultCodesPerHour), Day: cmp.Or(o.SMSBudget.Day, DefaultCodesPerDay)}},
	}
	if s.callTimeout <= 0 {
		s.callTimeout = 10 * time.Second
	}
	if s.codes.interval <= 0 {
		s.codes.interval = CodeInterval
	}
	if s.codes.limits == nil {
		s.codes.limits = store.NewMemoryLimiter()
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.loc == nil {
		s.loc = gateway.ResortLocation()
	}
	if s.now == nil {
		s.now = time.Now
	}
	wall := s.now
	s.now = func() time.Time { return wall().In(s.loc) } // the date rules take today in now's zone
	s.stores.fill(s.now)
	reg := o.Registry
	if reg == nil { // counted where nobody reads: tests that do not look
		reg = prometheus.NewRegistry()
	}
	s.sessions = o.Sessions
	s.shell = &shell{site: o.Site, assets: o.Assets, static: o.Static, sessions: o.Sessions, now: s.now,
		publicURL: cmp.Or(strings.TrimRight(o.PublicURL, "/"), "http://localhost")}
	var err error
	if s.ops, err = newOpsMetrics(reg); err != nil {
		return nil, err
	}
	s.uploads = newUploads(o.UploadBudget, s.ops.uploadRefused)
	if s.passes, err = newPassKit(o.Wallet, o.Static); err != nil {
		return nil, err
	}
	if s.metrics, err = newMetrics(reg); err != nil {
		return nil, err
	}
	s.moves = moveBook{s.stores.moves, s.log}
	meet := ""
	if s.passes != nil {
		meet = s.passes.MeetingPoint
	}
	p := o.Provider
	s.kinds = []kind{ // in the order the pages show them
		lessonKind{&s.clock, p, s.moves, s.log, meet},
		rentKind{clock: &s.clock, p: p},
		aquaKind{&s.clock, p},
		hotelKind{&s.clock, p, p, s.log, o.Site.SupportPhone},
		rentKind{clock: &s.clock, room: true, p: p},
	}
	// HEAD is answered wherever GET is (monitors use it); no GET changes state.
	e := echo.NewWithConfig(echo.Config{Router: echo.NewRouter(echo.RouterConfig{AllowOverwritingRoute: true, AutoHandleHEAD: true})})
	e.Logger = s.log
	if len(o.TrustedProxies) > 0 {
		trust := []echo.TrustOption{echo.TrustLoopback(false), echo.TrustPrivateNet(false), echo.TrustLinkLocal(false)}
		for _, n := range o.TrustedProxies {
			trust = append(trust, echo.TrustIPRange(n))
		}
		e.IPExtractor = echo.ExtractIPFromXFFHeader(trust...)
	}
	if err := s.routes(e, o, reg); err != nil {
		return nil, err
	}
	return e, nil
}
