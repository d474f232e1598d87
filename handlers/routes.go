package handlers

import (
	"cmp"
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
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

func (s *Server) routes(e *echo.Echo) {
	w := s.web
	e.Use(w.Observe, w.Traced, w.Secure, web.Compress(web.GzipLevel), w.HandleErrors, w.Admit, middleware.Recover(),
		web.CrossOrigin(), w.BodyLimit, w.LoadSession, s.offlineMarks)

	// Operations.
	e.GET(web.RouteHealthz, func(c *echo.Context) error { return c.String(http.StatusOK, "ok") })
	e.GET(web.RouteReadyz, w.Readyz)
	e.GET("/robots.txt", robots)
	e.GET("/static/*", w.StaticFiles)
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
	g := e.Group("", s.keepLapsed, web.RequireSession, w.MarkSpeculative, s.writesSeen)
	read := func(path string, h echo.HandlerFunc) {
		g.GET(path, h)
		w.Hold(path)
	}
	// Pages that wait for the provider show that they are loading.
	read(views.PathHome, w.Loading(s.home))
	read(views.PathProfileEdit, w.Loading(s.profileForm))
	g.POST(views.PathProfileEdit, s.profileSubmit)
	read(views.PathOrders, w.Loading(s.orders))
	read(routeOrder, w.Loading(s.order))
	g.POST(routeOrder+"/confirm", s.orderConfirm)
	read(routeOrder+"/cancel", w.Loading(s.withOrder(actCancel, s.orderCancelForm)))
	g.POST(routeOrder+"/cancel", s.orderCancel)
	read(routeOrder+"/refund", w.Loading(s.withOrder(actRefund, s.orderRefundForm)))
	g.POST(routeOrder+"/refund", s.orderRefund)
	read(routeOrder+"/transfer", w.Loading(s.withOrder(actTransfer, s.orderTransferForm)))
	g.POST(routeOrder+"/transfer", s.orderTransfer)
	read(routeOrder+"/ticket.pdf", s.orderDocument)
	read(routeOrder+"/voucher.pdf", s.orderDocument)
	read(routeOrder+"/"+calendarFile, s.orderCalendar)
	read(routeOrder+"/ticket.pkpass", s.orderPass)
	read(routeOrder+"/tickets.pkpasses", s.orderPass)
	read(routeOrder+"/voucher.pkpass", s.orderPass)
	read(routeOrder+"/lesson.pkpass", s.orderPass)

	e.RouteNotFound("/*", web.NotFound)
}

// robots lets search engines see the public pages only.
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

// New builds the echo instance with every route and middleware.
func New(o Options) (*echo.Echo, error) {
	if o.Provider == nil {
		return nil, errors.New("handlers: a provider is required")
	}
	s := &Server{
		kinds:   []kind{lessonKind{}, pavilionKind, aquaKind{}, hotelKind{}, roomKind},
		account: o.Provider, lessons: o.Provider, rents: o.Provider, aqua: o.Provider, hotel: o.Provider,
		log: o.Logger, loc: o.Location, now: o.Now, callTimeout: o.CallTimeout,
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
	clock := s.now
	s.now = func() time.Time { return clock().In(s.loc) } // the date rules take today in now's zone
	s.stores.fill(s.now)
	reg := o.Registry
	if reg == nil { // counted where nobody reads: tests that do not look
		reg = prometheus.NewRegistry()
	}
	var err error
	s.web, err = web.New(web.Config{
		Sessions: o.Sessions, Calls: providerCalls{}, Site: o.Site, Assets: o.Assets, Static: o.Static,
		Logger: s.log, Registry: reg, Tracer: o.Tracer, Health: o.Health, StorePing: o.StorePing, Admission: o.Admission,
		TrustedProxies: o.TrustedProxies, PublicURL: o.PublicURL, FormBodyTime: o.FormBodyTime, LoadingAfter: o.LoadingAfter,
		CallTimeout: s.callTimeout, UploadBudget: o.UploadBudget, Now: s.now,
	})
	if err != nil {
		return nil, err
	}
	if s.passes, err = newPassKit(o.Wallet, o.Static); err != nil {
		return nil, err
	}
	if s.metrics, err = newMetrics(reg); err != nil {
		return nil, err
	}
	if s.ops, err = newOpsMetrics(reg); err != nil {
		return nil, err
	}
	// HEAD is answered wherever GET is (monitors use it); no GET changes state.
	e := echo.NewWithConfig(echo.Config{Router: echo.NewRouter(echo.RouterConfig{AllowOverwritingRoute: true, AutoHandleHEAD: true})})
	e.Logger = s.log
	e.HTTPErrorHandler = s.web.HandleError
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
