// Package sandbox is a stateful, faithful stand-in for the resort provider's
// API gateway v1, served over real HTTP.
//
// It keeps its state in SQLite (modernc.org/sqlite, no cgo), seeds a demo
// customer with orders of all five kinds relative to "today" in the resort's
// time zone, keeps an SMS outbox instead of sending SMS, renders real PDFs
// (TicketPDF, VoucherPDF) and lets tests inject faults per path.
//
// Routes:
//
//	/v1/...                   every call of the provider, paths case-sensitive
//	GET  /sandbox/sms/{digits} the last code "sent" to a phone
//	POST /sandbox/faults       {"path","delayMs","status","malformed","drop","times"}
//	POST /sandbox/past         {"phone","count"} adds past orders to a customer
//	POST /sandbox/today        {"phone"} adds a water-park visit of today (its refund needs a reason)
//	POST /sandbox/reset        clears faults and call counters
//	GET  /sandbox/calls        call counts per /v1 path since the last reset
//	GET  /sandbox/refunds      refund requests received, files reduced to sizes
//
// With Config.ServiceKey, a /v1 call without that key in X-Api-Key is
// answered 403, as the contract says a gateway does.
//
// Business errors are answered with HTTP 200 and success:false plus a
// Russian errorMessage, as the provider does; malformed requests with 400.
package sandbox

import (
	"context"
	"crypto/subtle"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	_ "modernc.org/sqlite" // driver "sqlite"

	"lk/gateway"
)

// Config configures a Sandbox.
type Config struct {
	// DataDir holds sandbox.db; "" keeps everything in memory.
	DataDir string
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Location is the resort's time zone; nil means Europe/Moscow.
	Location *time.Location
	// Logger receives the sandbox's logs; nil means slog.Default().
	Logger *slog.Logger
	// ServiceKey, when set, is asked of every /v1 call (gateway.ServiceKeyHeader):
	// a call without it is answered 403 and not counted.
	ServiceKey string
}

// Fault is a misbehaviour injected for one /v1 path.
type Fault struct {
	Delay     time.Duration // wait before answering (or before the other fault)
	Status    int           // answer this HTTP status with a JSON error body
	Malformed bool          // answer a body that is not JSON (status 200 unless Status is set)
	Drop      bool          // close the connection without an answer (Go's transport retries an idempotent request once on a reused connection)
	Times     int           // how many calls it applies to; 0 = until Reset
}

// Sandbox is the stand-in gateway. It is safe for concurrent use.
type Sandbox struct {
	db     *sql.DB
	now    func() time.Time
	loc    *time.Location
	log    *slog.Logger
	memory bool
	key    []byte // Config.ServiceKey

	mu      sync.Mutex // serialises every state change
	seedDay string     // guarded by mu: the day the demo orders were seeded for

	fmu    sync.Mutex // guards faults and calls
	faults map[string]*Fault
	calls  map[string]int
}

// New opens (or creates) the database, creates the schema and seeds the demo
// data relative to today. Seeding is idempotent: on a later day the demo
// customers' orders are re-seeded and the 31-day reference window extended;
// registered customers and their orders are kept.
func New(cfg Config) (*Sandbox, error) {
	s := &Sandbox{
		now:    cfg.Now,
		loc:    cfg.Location,
		log:    cfg.Logger,
		key:    []byte(cfg.ServiceKey),
		faults: map[string]*Fault{},
		calls:  map[string]int{},
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.loc == nil {
		loc, err := time.LoadLocation("Europe/Moscow")
		if err != nil {
			loc = time.FixedZone("MSK", 3*60*60) // Moscow has no DST since 2014
		}
		s.loc = loc
	}
	if s.log == nil {
		s.log = slog.Default()
	}

	const pragmas = "_pragma=busy_timeout(5000)&_pragma=foreign_keys(1)&_txlock=immediate"
	var dsn string
	if cfg.DataDir == "" {
		s.memory = true
		dsn = ":memory:?" + pragmas
	} else {
		if err := os.MkdirAll(cfg.DataDir, 0o750); err != nil {
			return nil, fmt.Errorf("sandbox: data dir: %w", err)
		}
		dsn = "file:" + filepath.Join(cfg.DataDir, "sandbox.db") + "?" + pragmas + "&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)"
	}
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("sandbox: open db: %w", err)
	}
	if s.memory {
		// Every connection to ":memory:" is its own database: keep exactly one.
		db.SetMaxOpenConns(1)
		db.SetMaxIdleConns(1)
		db.SetConnMaxLifetime(0)
		db.SetConnMaxIdleTime(0)
	} else {
		db.SetMaxOpenConns(4)
	}
	s.db = db

	ctx := context.Background()
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	s.mu.Lock()
	err = s.refreshLocked(ctx)
	s.mu.Unlock()
	if err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// Close closes the database.
func (s *Sandbox) Close() error { return s.db.Close() }

// nowLocal is the current time in the resort's zone.
func (s *Sandbox) nowLocal() time.Time { return s.now().In(s.loc) }

// today is the start of the current day in the resort's zone.
func (s *Sandbox) today() time.Time { return dayOf(s.nowLocal()) }

func dayOf(t time.Time) time.Time {
	y, m, d := t.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, t.Location())
}

// SetFault injects f for path ("aqua/getAquaOrders"; a leading "/v1/" or
// "/" is ignored). A zero Fault removes the fault.
func (s *Sandbox) SetFault(path string, f Fault) {
	path = normPath(path)
	s.fmu.Lock()
	defer s.fmu.Unlock()
	if f == (Fault{}) {
		delete(s.faults, path)
		return
	}
	s.faults[path] = &f
}

// Reset clears the faults and the call counters (not the data).
func (s *Sandbox) Reset() {
	s.fmu.Lock()
	defer s.fmu.Unlock()
	s.faults = map[string]*Fault{}
	s.calls = map[string]int{}
}

// AllCalls is a copy of every call counter.
func (s *Sandbox) AllCalls() map[string]int {
	s.fmu.Lock()
	defer s.fmu.Unlock()
	m := make(map[string]int, len(s.calls))
	for k, v := range s.calls {
		m[k] = v
	}
	return m
}

func normPath(p string) string {
	p = strings.TrimPrefix(p, "/")
	p = strings.TrimPrefix(p, "v1/")
	return p
}

// takeFault counts a call and returns the fault to apply, if any.
func (s *Sandbox) takeFault(path string) (Fault, bool) {
	s.fmu.Lock()
	defer s.fmu.Unlock()
	s.calls[path]++
	f, ok := s.faults[path]
	if !ok {
		return Fault{}, false
	}
	out := *f
	if f.Times > 0 {
		f.Times--
		if f.Times == 0 {
			delete(s.faults, path)
		}
	}
	return out, true
}

// Handler serves /v1/... and /sandbox/....
func (s *Sandbox) Handler() http.Handler {
	mux := http.NewServeMux()
	v1 := func(pattern string, h http.HandlerFunc) {
		method, path, _ := strings.Cut(pattern, " ")
		mux.Handle(method+" /v1/"+path, s.wrap(path, h))
	}

	v1("POST auth/login2f", posted(s.handleLogin2f))
	v1("POST auth/loginConfirm", posted(s.handleLoginConfirm))
	v1("GET auth/getClientInfo", s.handleGetClientInfo)
	v1("PUT auth/clientEditInfo", s.handleClientEditInfo)
	v1("POST reg/registration", posted(s.handleRegistration))

	v1("GET GLK/getTimetableForCurrentClient", s.handleLessonOrders)
	v1("GET GLK/getTimetable", s.handleLessonTimetable)
	v1("POST GLK/confirmLesson", posted(s.handleConfirmLesson))
	v1("POST GLK/cancelRegistration", posted(s.handleCancelLesson))
	v1("POST GLK/changeLessonPeriod", posted(s.handleChangeLesson))

	v1("GET Rent/getPavilionRentTimetableForCurrentClient", s.rentOrders(pavilionKind))
	v1("GET Rent/getPavilionRentTimetable", s.rentSchedule(pavilionKind))
	v1("POST Rent/cancelPavilionRent", s.rentCancel(pavilionKind))
	v1("POST Rent/registerRefund", s.rentRefund(pavilionKind))
	v1("POST Rent/changePavilionRentPeriod", s.rentChange(pavilionKind))

	v1("GET CelRooms/getCelRoomsTimetableForCurrentClient", s.rentOrders(roomKind))
	v1("GET CelRooms/getCelRoomsTimetable", s.rentSchedule(roomKind))
	v1("POST CelRooms/cancelCelRoomRent", s.rentCancel(roomKind))
	v1("POST CelRooms/registerRefund", s.rentRefund(roomKind))
	v1("POST CelRooms/changeCelRoomRentPeriod", s.rentChange(roomKind))

	v1("GET aqua/getAquaOrders", s.handleAquaOrders)
	v1("POST aqua/registerRefund1C", posted(s.handleAquaRefund))
	v1("POST aqua/transferTicket", posted(s.handleTransferTicket))
	v1("GET aqua/getSessionsAqua", s.handleAquaSessions)
	v1("GET aqua/generatePdf", s.handleAquaPDF)

	v1("GET hotel/getHotelOrders", s.handleHotelOrders)
	v1("POST hotel/cancelOrder", s.handleHotelCancel)
	v1("POST hotel/registerRefund", posted(s.handleHotelRefund))
	v1("POST hotel/getDates", s.handleHotelDates)
	v1("POST hotel/pushReservation", posted(s.handlePushReservation))
	v1("GET hotel/generatePdf", s.handleHotelPDF)

	mux.HandleFunc("GET /sandbox/sms/{digits}", s.handleOutbox)
	mux.HandleFunc("POST /sandbox/faults", s.handleSetFault)
	mux.HandleFunc("POST /sandbox/past", s.handlePast)
	mux.HandleFunc("POST /sandbox/today", s.handleToday)
	mux.HandleFunc("POST /sandbox/open-rooms", s.handleOpenRooms)
	mux.HandleFunc("POST /sandbox/reset", func(w http.ResponseWriter, r *http.Request) {
		s.Reset()
		writeJSON(w, http.StatusOK, map[string]bool{"success": true})
	})
	mux.HandleFunc("GET /sandbox/calls", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, s.AllCalls())
	})
	mux.HandleFunc("GET /sandbox/refunds", func(w http.ResponseWriter, r *http.Request) {
		list, err := s.refunds(r.Context())
		if err != nil {
			s.internal(w, r, err)
			return
		}
		writeJSON(w, http.StatusOK, list)
	})
	return mux
}

// maxBody bounds request bodies: the largest refund, whose documents
// travel in base64.
const maxBody = gateway.MaxRefundRequest

// wrap counts the call, applies an injected fault, re-seeds when the day has
// changed and runs h.
func (s *Sandbox) wrap(path string, h http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if len(s.key) > 0 && subtle.ConstantTimeCompare([]byte(r.Header.Get(gateway.ServiceKeyHeader)), s.key) != 1 {
			writeJSON(w, http.StatusForbidden, map[string]any{"success": false, "errorMessage": "unknown service key"})
			return
		}
		f, faulted := s.takeFault(path)
		if faulted {
			if f.Delay > 0 {
				t := time.NewTimer(f.Delay)
				select {
				case <-t.C:
				case <-r.Context().Done():
					t.Stop()
					return
				}
			}
			switch {
			case f.Drop:
				s.log.Debug("sandbox: fault: dropping connection", "path", path)
				if hj, ok := w.(http.Hijacker); ok {
					if conn, _, err := hj.Hijack(); err == nil {
						conn.Close()
						return
					}
				}
				panic(http.ErrAbortHandler)
			case f.Malformed:
				status := f.Status
				if status == 0 {
					status = http.StatusOK
				}
				w.Header().Set("Content-Type", "application/json; charset=utf-8")
				w.WriteHeader(status)
				_, _ = w.Write([]byte("<html><body>502 Bad Gateway</body></html>{\"success\":tr"))
				return
			case f.Status != 0:
				writeJSON(w, f.Status, map[string]any{
					"success":             false,
					"hasErrors":           true,
					"errorMessage":        "Сервис временно недоступен (sandbox fault)",
					"responseDescription": "Сервис временно недоступен (sandbox fault)",
				})
				return
			}
		}
		if err := s.refresh(r.Context()); err != nil {
			s.internal(w, r, err)
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, maxBody)
		h(w, r)
	})
}

func (s *Sandbox) handleSetFault(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Path      string `json:"path"`
		DelayMs   int    `json:"delayMs"`
		Status    int    `json:"status"`
		Malformed bool   `json:"malformed"`
		Drop      bool   `json:"drop"`
		Times     int    `json:"times"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<16)).Decode(&in); err != nil || in.Path == "" {
		writeJSON(w, http.StatusBadRequest, map[string]any{"success": false, "errorMessage": "path is required"})
		return
	}
	if in.Status != 0 && (in.Status < 100 || in.Status > 599) || in.Times < 0 || in.DelayMs < 0 {
		writeJSON(w, http.StatusBadRequest, map[string]any{"success": false, "errorMessage": "bad fault"})
		return
	}
	s.SetFault(in.Path, Fault{
		Delay:     time.Duration(in.DelayMs) * time.Millisecond,
		Status:    in.Status,
		Malformed: in.Malformed,
		Drop:      in.Drop,
		Times:     in.Times,
	})
	writeJSON(w, http.StatusOK, map[string]bool{"success": true})
}

// handlePast serves POST /sandbox/past {"phone","count"}: SeedPast for the
// customer with that phone.
func (s *Sandbox) handlePast(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Phone string `json:"phone"`
		Count int    `json:"count"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<12)).Decode(&in); err != nil || in.Count < 1 || in.Count > MaxPast {
		writeJSON(w, http.StatusBadRequest, map[string]any{"success": false, "errorMessage": "phone and count (1..1000) are required"})
		return
	}
	s.seedFor(w, r, in.Phone, func(guid string) error { return s.SeedPast(r.Context(), guid, in.Count) })
}

func (s *Sandbox) handleToday(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Phone string `json:"phone"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<12)).Decode(&in); err != nil || in.Phone == "" {
		writeJSON(w, http.StatusBadRequest, map[string]any{"success": false, "errorMessage": "phone is required"})
		return
	}
	s.seedFor(w, r, in.Phone, func(guid string) error { return s.SeedToday(r.Context(), guid) })
}

func (s *Sandbox) seedFor(w http.ResponseWriter, r *http.Request, phone string, seed func(guid string) error) {
	var guid string
	err := s.refresh(r.Context()) // the demo customers exist
	if err == nil {
		err = s.db.QueryRowContext(r.Context(), `SELECT guid FROM clients WHERE phone = ?`, phone).Scan(&guid)
	}
	if errors.Is(err, sql.ErrNoRows) {
		writeJSON(w, http.StatusNotFound, map[string]any{"success": false, "errorMessage": "no such customer"})
		return
	}
	if err == nil {
		err = seed(guid)
	}
	if err != nil {
		s.internal(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]bool{"success": true})
}

// Start listens on addr and serves the sandbox in the background. It returns
// once the listener is open; the returned server's Addr is the actual
// address (useful with port 0). The server shuts down gracefully when ctx is
// done; callers may also call Shutdown themselves.
func (s *Sandbox) Start(ctx context.Context, addr string) (*http.Server, error) {
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("sandbox: listen %s: %w", addr, err)
	}
	srv := &http.Server{
		Addr:              ln.Addr().String(),
		Handler:           s.Handler(),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       60 * time.Second,
		IdleTimeout:       120 * time.Second,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			s.log.Error("sandbox: serve", "err", err)
		}
	}()
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
	}()
	s.log.Info("sandbox: listening", "addr", srv.Addr)
	return srv, nil
}

// ---- answers ----

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}

// fail answers a business error: HTTP 200, success:false.
func fail(w http.ResponseWriter, msg string) {
	writeJSON(w, http.StatusOK, map[string]any{"success": false, "errorMessage": msg})
}

func badRequest(w http.ResponseWriter, msg string) {
	writeJSON(w, http.StatusBadRequest, map[string]any{"success": false, "errorMessage": msg})
}

func (s *Sandbox) internal(w http.ResponseWriter, r *http.Request, err error) {
	s.log.Error("sandbox: internal error", "path", r.URL.Path, "err", err)
	writeJSON(w, http.StatusInternalServerError, map[string]any{
		"success": false, "hasErrors": true,
		"errorMessage":        "Внутренняя ошибка сервиса",
		"responseDescription": "Внутренняя ошибка сервиса",
	})
}

// decode reads a JSON body into v; on failure it answers 400 and reports false.
// posted serves a call whose body is the JSON request T: a body that is
// not one is refused before h runs.
func posted[T any](h func(w http.ResponseWriter, r *http.Request, in T)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var in T
		if decode(w, r, &in) {
			h(w, r, in)
		}
	}
}

func decode(w http.ResponseWriter, r *http.Request, v any) bool {
	if err := json.NewDecoder(r.Body).Decode(v); err != nil {
		badRequest(w, "Некорректный запрос")
		return false
	}
	return true
}

const (
	msgNotFound     = "Заказ не найден"
	msgNoClient     = "Не указан клиент"
	msgRefundOK     = "Возврат успешно оформлен. Внимание! Деньги на карту вернутся в течение 5-10 дней (максимально возможный срок - 30 дней)."
	msgSession      = "Сессия истекла. Войдите снова."
	msgNeedReason   = "Для возврата в день начала или позже укажите причину и приложите подтверждающие документы"
	msgAlreadyRefnd = "Возврат по заказу уже оформлен"
)

func isTrue(s string) bool {
	s = strings.ToLower(strings.TrimSpace(s))
	return s == "true" || s == "1" || s == "yes"
}
