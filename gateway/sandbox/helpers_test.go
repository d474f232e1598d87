package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"lk/gateway"
	"lk/internal/testkit"
)

// LastCode is the last code "sent" to a phone (any notation), from the
// outbox; it stays there after use.
func (s *Sandbox) LastCode(phoneDigits string) (code string, ok bool) {
	c, _, found := s.lastCode(context.Background(), phoneDigits)
	return c, found
}

// Refunds lists every refund request received, oldest first.
func (s *Sandbox) Refunds() []StoredRefund {
	list, err := s.refunds(context.Background())
	if err != nil {
		s.log.Error("sandbox: list refunds", "err", err)
	}
	return list
}

var msk = time.FixedZone("MSK", 3*60*60)

// A Wednesday morning in Moscow: the next weekday is Thursday 12th, the
// next weekend day Saturday 14th.
func newClock() *testkit.Clock { return testkit.NewClock(time.Date(2026, 3, 11, 10, 0, 0, 0, msk)) }

type env struct {
	t     *testing.T
	sb    *Sandbox
	srv   *httptest.Server
	clock *testkit.Clock
}

func quietLogger() *slog.Logger { return slog.New(slog.DiscardHandler) }

func newEnv(t *testing.T) *env { t.Helper(); return newEnvAt(t, newClock()) }

// newEnvAt is the sandbox on clock c.
func newEnvAt(t *testing.T, c *testkit.Clock) *env {
	t.Helper()
	sb, err := New(Config{Now: c.Now, Logger: quietLogger()})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(sb.Handler())
	t.Cleanup(func() {
		srv.Close()
		sb.Close()
	})
	return &env{t: t, sb: sb, srv: srv, clock: c}
}

func (e *env) day(n int) time.Time {
	y, m, d := e.clock.Now().In(msk).Date()
	return time.Date(y, m, d+n, 0, 0, 0, 0, msk)
}

// do sends a request and decodes a JSON answer into out (when not nil).
func (e *env) do(method, path string, body io.Reader, ctype, token string, out any) int {
	e.t.Helper()
	req, err := http.NewRequest(method, e.srv.URL+path, body)
	if err != nil {
		e.t.Fatal(err)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := e.srv.Client().Do(req)
	if err != nil {
		e.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			e.t.Fatalf("%s %s: status %d, body not JSON: %v: %s", method, path, resp.StatusCode, err, raw)
		}
	}
	return resp.StatusCode
}

func (e *env) get(path string, q url.Values, out any) int {
	e.t.Helper()
	if q != nil {
		path += "?" + q.Encode()
	}
	return e.do(http.MethodGet, path, nil, "", "", out)
}

func (e *env) post(path string, in, out any) int {
	e.t.Helper()
	b, err := json.Marshal(in)
	if err != nil {
		e.t.Fatal(err)
	}
	return e.do(http.MethodPost, path, bytes.NewReader(b), "application/json", "", out)
}

func (e *env) postForm(path string, form url.Values, out any) int {
	e.t.Helper()
	return e.do(http.MethodPost, path, strings.NewReader(form.Encode()), "application/x-www-form-urlencoded", "", out)
}

// mustOK fails unless a is a success.
func mustOK(t *testing.T, what string, a gateway.Answer) {
	t.Helper()
	if !a.Success {
		t.Fatalf("%s: success false: %q", what, a.ErrorMessage)
	}
}

// mustFail fails unless a is a refusal (with a message).
func mustFail(t *testing.T, what string, a gateway.Answer) {
	t.Helper()
	if a.Success || a.ErrorMessage == "" {
		t.Fatalf("%s: want a refusal with a message, got %+v", what, a)
	}
}

// signIn logs a phone in through login2f, the outbox and loginConfirm.
func (e *env) signIn(phone string) string {
	e.t.Helper()
	var a gateway.Answer
	e.post("/v1/auth/login2f", gateway.LoginRequest{Login: phone, TypeLogin: 1, TypeCode: 1}, &a)
	mustOK(e.t, "login2f", a)
	var sms struct{ Phone, Code, SentAt string }
	if st := e.get("/sandbox/sms/"+phone, nil, &sms); st != http.StatusOK {
		e.t.Fatalf("outbox: status %d", st)
	}
	var c gateway.LoginConfirmAnswer
	e.post("/v1/auth/loginConfirm", gateway.LoginConfirmRequest{Login: phone, VerifyCode: sms.Code}, &c)
	mustOK(e.t, "loginConfirm", c.Answer)
	return c.Token
}

func (e *env) lessons(client string) []gateway.LessonOrder {
	e.t.Helper()
	var a gateway.LessonsAnswer
	e.get("/v1/GLK/getTimetableForCurrentClient", url.Values{"clientId": {client}}, &a)
	mustOK(e.t, "lessons", a.Answer)
	return a.Timetable
}

func (e *env) lesson(client, id string) gateway.LessonsAnswer {
	e.t.Helper()
	var a gateway.LessonsAnswer
	e.get("/v1/GLK/getTimetableForCurrentClient", url.Values{"clientId": {client}, "lessonId": {id}, "single": {"true"}}, &a)
	return a
}

func (e *env) aquaOrder(client, id string) gateway.AquaOrdersAnswer {
	e.t.Helper()
	var a gateway.AquaOrdersAnswer
	e.get("/v1/aqua/getAquaOrders", url.Values{"userId": {client}, "orderId": {id}, "single": {"true"}}, &a)
	return a
}

func (e *env) hotelOrder(client, id string) gateway.HotelOrdersAnswer {
	e.t.Helper()
	var a gateway.HotelOrdersAnswer
	e.get("/v1/hotel/getHotelOrders", url.Values{"userId": {client}, "orderId": {id}, "single": {"true"}}, &a)
	return a
}

// rentPaths are the calls of one rent kind.
type rentPaths struct {
	kind, orders, schedule, cancel, refund, change, facilityParam string
}

var pavilionPaths = rentPaths{kindPavilion, "Rent/getPavilionRentTimetableForCurrentClient", "Rent/getPavilionRentTimetable",
	"Rent/cancelPavilionRent", "Rent/registerRefund", "Rent/changePavilionRentPeriod", "pavilionId"}
var roomPaths = rentPaths{kindRoom, "CelRooms/getCelRoomsTimetableForCurrentClient", "CelRooms/getCelRoomsTimetable",
	"CelRooms/cancelCelRoomRent", "CelRooms/registerRefund", "CelRooms/changeCelRoomRentPeriod", "celRoomId"}

// rentOrder is the common part of PavilionOrder and RoomOrder.
type rentOrder struct {
	PavilionID  string               `json:"pavilion_ID"`
	RoomID      string               `json:"room_ID"`
	HourBeg     string               `json:"hourBeg"`
	HourEnd     string               `json:"hourEnd"`
	Amount      float64              `json:"amount"`
	Cost        float64              `json:"cost"`
	Details     []gateway.RentDetail `json:"details"`
	CanTransfer bool                 `json:"canTransfer"`
	CanCancel   bool                 `json:"canCancel"`
}

type rentOrdersAnswer struct {
	gateway.Answer
	Timetable []rentOrder `json:"timetable"`
}

func (e *env) rents(p rentPaths, client, id string) rentOrdersAnswer {
	e.t.Helper()
	q := url.Values{"clientId": {client}}
	if id != "" {
		q.Set("rentId", id)
		q.Set("single", "true")
	}
	var a rentOrdersAnswer
	e.get("/v1/"+p.orders, q, &a)
	return a
}

func (e *env) schedule(p rentPaths, facility string, day time.Time) gateway.Schedule {
	e.t.Helper()
	var a gateway.ScheduleAnswer
	e.get("/v1/"+p.schedule, url.Values{p.facilityParam: {facility}, "date": {day.Format(gateway.LayoutDate)}}, &a)
	mustOK(e.t, "schedule", a.Answer)
	if len(a.Timetable) != 1 {
		e.t.Fatalf("schedule of %s on %s: %d elements", facility, day.Format(gateway.LayoutDate), len(a.Timetable))
	}
	return a.Timetable[0]
}
