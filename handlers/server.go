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

	Health *web.Health
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

// Server is the personal account's HTTP handler: its pages, sign-in and
// order actions, on the request plumbing of web.Kit.
type Server struct {
	web         *web.Kit
	account     accountProvider
	lessons     lessonProvider
	rents       rentProvider
	aqua        aquaProvider
	hotel       hotelProvider
	codes       codeRules // the limits on SMS codes
	stores      stores    // what outlives a request
	log         *slog.Logger
	loc         *time.Location
	now         func() time.Time
	metrics     *metrics
	ops         *opsMetrics
	callTimeout time.Duration
}

// stores keep what an action leaves behind for the requests after it.
type stores struct {
	once   store.Once        // one-time action tokens
	files  store.RefundFiles // refund documents kept after a refusal
	moves  store.Moves       // first ids of moved bookings
	acts   store.Acts        // what each customer last did to an order
	leases store.Leases      // one action at a time per order
}

// New builds the echo instance with every route and middleware.
func New(o Options) (*echo.Echo, error) {
	if o.Provider == nil {
		return nil, errors.New("handlers: a provider is required")
	}
	s := &Server{
		account: o.Provider, lessons: o.Provider, rents: o.Provider, aqua: o.Provider, hotel: o.Provider,
		log: o.Logger, loc: o.Location, now: o.Now, callTimeout: cmp.Or(o.CallTimeout, 10*time.Second),
		stores: stores{once: o.Once, files: o.Files, moves: o.Moves, acts: o.Acts, leases: o.Leases},
		codes: codeRules{limits: o.Limiter, interval: cmp.Or(o.CodeInterval, CodeInterval),
			budget: SMSBudget{Hour: cmp.Or(o.SMSBudget.Hour, DefaultCodesPerHour), Day: cmp.Or(o.SMSBudget.Day, DefaultCodesPerDay)}},
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

// fill puts the in-memory store in place of each that was not given.
func (st *stores) fill(now func() time.Time) {
	if st.once == nil {
		st.once = store.NewMemoryOnce(now)
	}
	if st.leases == nil {
		st.leases = store.NewMemoryLeases(now)
	}
	if st.files == nil {
		st.files = store.NewMemoryRefundFiles(now)
	}
	if st.moves == nil {
		st.moves = store.NewMemoryMoves(now)
	}
	if st.acts == nil {
		st.acts = store.NewMemoryActs(now)
	}
}

// page is a page's frame; its shell names the customer as the profile does
// (shellName).
func (s *Server) page(c *echo.Context, title, description string) views.Page {
	p := s.web.Page(c, title, description)
	if p.User != nil {
		p.User.Name = s.shellName(c, web.SessionOf(c))
	}
	return p
}
