// Package handlers holds the echo handlers of the personal account, one file
// per screen or action, every route in routes.go, and the middleware: request
// id, access log, recover, security headers with a CSP nonce, gzip, body
// limits, cross-origin protection and the session.
package handlers

import (
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v5"
	"github.com/prometheus/client_golang/prometheus"
	"go.opentelemetry.io/otel/trace"

	"lk/gateway"
	"lk/views"
)

// Provider is what the handlers need of the provider's gateway; *gateway.Client
// implements it, and a test may hand a fake that fails where the sandbox can't.
type Provider interface {
	Login(ctx context.Context, phone string, resend bool) error
	LoginConfirm(ctx context.Context, phone, code string) (string, error)
	ClientInfo(ctx context.Context, token string) (gateway.PersonalInfo, error)
	EditClientInfo(ctx context.Context, token string, p gateway.ProfileUpdate) error
	Register(ctx context.Context, r gateway.Registration) error

	// Orders, always asked for with the session's own client id.
	LessonOrders(ctx context.Context, clientID string) ([]gateway.LessonOrder, error)
	LessonOrder(ctx context.Context, clientID, lessonID string) (gateway.LessonOrder, error)
	ConfirmLesson(ctx context.Context, clientID, lessonID string) error
	PavilionOrders(ctx context.Context, clientID string) ([]gateway.PavilionOrder, error)
	PavilionOrder(ctx context.Context, clientID, rentID string) (gateway.PavilionOrder, error)
	RoomOrders(ctx context.Context, clientID string) ([]gateway.RoomOrder, error)
	RoomOrder(ctx context.Context, clientID, rentID string) (gateway.RoomOrder, error)
	AquaOrders(ctx context.Context, userID string) (active, history []gateway.AquaOrder, err error)
	AquaOrder(ctx context.Context, userID, orderID string) (gateway.AquaOrder, error)
	AquaTicketPDF(ctx context.Context, orderID string) ([]byte, error)
	HotelOrders(ctx context.Context, userID string) (active, history []gateway.HotelOrder, err error)
	HotelOrder(ctx context.Context, userID, orderID string) (gateway.HotelOrder, error)
	HotelVoucherPDF(ctx context.Context, orderID string) ([]byte, error)

	// Actions on orders (DESIGN "Order actions"); the handlers call them only
	// after the guard has fetched the order with the session's client id.
	CancelLesson(ctx context.Context, r gateway.CancelLessonRequest) error
	Timetable(ctx context.Context, q gateway.TimetableQuery) ([]gateway.Lesson, error)
	ChangeLesson(ctx context.Context, r gateway.ChangeLessonRequest) (string, error)
	CancelPavilionRent(ctx context.Context, r gateway.CancelRentRequest) error
	RefundPavilion(ctx context.Context, r gateway.PavilionRefundRequest) (string, error)
	PavilionSchedule(ctx context.Context, pavilionID string, date time.Time) (gateway.Schedule, error)
	ChangePavilionRent(ctx context.Context, r gateway.ChangePavilionRequest) (string, error)
	CancelRoomRent(ctx context.Context, r gateway.CancelRentRequest) error
	RefundRoom(ctx context.Context, r gateway.RoomRefundRequest) (string, error)
	RoomSchedule(ctx context.Context, celRoomID string, date time.Time) (gateway.Schedule, error)
	ChangeRoomRent(ctx context.Context, r gateway.ChangeRoomRequest) (string, error)
	RefundAqua(ctx context.Context, r gateway.AquaRefundRequest) (string, error)
	TransferTickets(ctx context.Context, r gateway.TransferTicketRequest) error
	AquaSessions(ctx context.Context, date time.Time) ([]gateway.AquaSession, error)
	CancelHotelOrder(ctx context.Context, orderID string) error
	RefundHotel(ctx context.Context, r gateway.HotelRefundRequest) (string, error)
	HotelDates(ctx context.Context, from, to time.Time) ([]gateway.HotelDay, error)
	PushReservation(ctx context.Context, r gateway.PushReservationRequest) (string, error)
}

// Options are the server's dependencies, built by cmd/lk.
type Options struct {
	Provider Provider
	Sessions *Sessions
	Limiter  Limiter
	Once     Once        // one-time action tokens; nil means in memory
	Files    RefundFiles // refund documents kept after a refusal; nil means in memory
	Moves    Moves       // first ids of moved bookings; nil means in memory
	// StorePing tells whether the shared store answers, for /readyz; nil
	// when the state is this process's own.
	StorePing func(context.Context) error
	Site      *views.Site
	Assets    *views.Assets
	Static    fs.FS // the static/ folder
	Logger    *slog.Logger
	Registry  prometheus.Registerer
	Location  *time.Location
	Now       func() time.Time // nil means time.Now
	// CodeInterval is how long a phone waits between SMS codes;
	// CodeInterval (60 s) when 0.
	CodeInterval time.Duration
	// TrustedProxies may set X-Forwarded-For; without them the client's
	// address is the connection's, so the per-IP limit cannot be dodged.
	TrustedProxies []*net.IPNet

	// Health is what /readyz reports, set by the caller as the instance
	// starts and stops serving; nil: serving, the provider not watched.
	Health *Health
	// Tracer makes each request an OpenTelemetry span; nil: none.
	Tracer trace.TracerProvider
}

// Server is the personal account's HTTP handler.
type Server struct {
	gw        Provider
	sessions  *Sessions
	limits    Limiter
	interval  time.Duration
	confirms  flights
	once      Once
	files     RefundFiles
	moves     Moves
	storePing func(context.Context) error
	health    *Health
	tracer    trace.Tracer // nil: no spans
	site      *views.Site
	assets    *views.Assets
	static    fs.FS
	log       *slog.Logger
	loc       *time.Location
	now       func() time.Time
	metrics   *metrics
}

// New builds the echo instance with every route and middleware.
func New(o Options) (*echo.Echo, error) {
	if o.Provider == nil || o.Sessions == nil || o.Site == nil || o.Assets == nil || o.Static == nil {
		return nil, errors.New("handlers: provider, sessions, site, assets and static are required")
	}
	s := &Server{
		gw: o.Provider, sessions: o.Sessions, limits: o.Limiter, once: o.Once, files: o.Files, moves: o.Moves, storePing: o.StorePing, health: o.Health, site: o.Site, assets: o.Assets,
		static: o.Static, log: o.Logger, loc: o.Location, now: o.Now,
		interval: o.CodeInterval,
	}
	if s.limits == nil {
		s.limits = NewMemoryLimiter()
	}
	if s.interval <= 0 {
		s.interval = CodeInterval
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
	if o.Tracer != nil {
		s.tracer = o.Tracer.Tracer("lk/handlers")
	}
	if s.health == nil {
		s.health, _ = NewHealth(nil) // nothing registered: cannot fail
		s.health.SetServing(true)
	}
	if s.once == nil {
		s.once = NewMemoryOnce(s.now)
	}
	if s.files == nil {
		s.files = NewMemoryRefundFiles(s.now)
	}
	if s.moves == nil {
		s.moves = NewMemoryMoves(s.now)
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
	// HEAD is answered wherever GET is (monitors and link checkers use it);
	// net/http drops the body. No GET here changes state.
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

// page starts the view model of a page for this request.
func (s *Server) page(c *echo.Context, title, description string) views.Page {
	p := views.Page{Title: title, Description: description, Nonce: nonce(c), Site: s.site, Assets: s.assets}
	if sess := session(c); sess != nil {
		p.User = &views.User{Name: sess.Name}
		p.Notice = s.sessions.TakeNotice(c.Response(), c.Request())
	}
	return p
}

// render writes a templ component with the given status.
func render(c *echo.Context, status int, comp templ.Component) error {
	c.Response().Header().Set(echo.HeaderContentType, echo.MIMETextHTMLCharsetUTF8)
	c.Response().WriteHeader(status)
	ctx := templ.WithNonce(c.Request().Context(), nonce(c))
	return comp.Render(ctx, c.Response())
}

// wantsJSON tells an island's fetch from a plain form post.
func wantsJSON(c *echo.Context) bool {
	for _, a := range c.Request().Header.Values(echo.HeaderAccept) {
		if a == echo.MIMEApplicationJSON {
			return true
		}
	}
	return false
}

// seeOther is the answer to a successful POST.
func seeOther(c *echo.Context, url string) error {
	return c.Redirect(http.StatusSeeOther, url)
}
