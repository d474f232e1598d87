package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/sony/gobreaker/v2"

	"lk/internal/testkit"
)

const (
	testPhone = "79001234567"
	testCode  = "9876"
	testToken = "secret-token-xyz"
)

// setup starts a provider on an httptest server (go-github style) and a
// client of it with no breaker and no backoff pause unless opts say so.
func setup(t *testing.T, opts ...Option) (*Client, *http.ServeMux, *httptest.Server) {
	t.Helper()
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	c, err := NewClient(srv.URL+"/v1", append([]Option{WithBreaker(0, 0)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	c.backoff = func(int) time.Duration { return 0 }
	return c, mux, srv
}

// seen is a request as the provider received it.
type seen struct {
	method, path, auth, ctype string
	query                     url.Values
	body                      []byte
}

// record answers every path with the given body and content type and keeps
// the last request.
func record(t *testing.T, mux *http.ServeMux, status int, ctype, reply string) *seen {
	t.Helper()
	s := &seen{}
	var mu sync.Mutex
	mux.HandleFunc("/v1/", func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		*s = seen{method: r.Method, path: strings.TrimPrefix(r.URL.Path, "/v1/"), auth: r.Header.Get("Authorization"),
			ctype: r.Header.Get("Content-Type"), query: r.URL.Query(), body: b}
		mu.Unlock()
		if ctype != "" {
			w.Header().Set("Content-Type", ctype)
		}
		w.WriteHeader(status)
		io.WriteString(w, reply)
	})
	return s
}

func jsonEqual(t *testing.T, got []byte, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("body %q is not JSON: %v", got, err)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("bad want %q: %v", want, err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("body\n got %s\nwant %s", got, want)
	}
}

var day = time.Date(2026, 11, 21, 0, 0, 0, 0, ResortLocation())

// TestRequestEncoding proves how every call of the provider goes over the wire.
func TestRequestEncoding(t *testing.T) {
	const ok = `{"success":true}`
	type tc struct {
		name   string
		call   func(context.Context, *Client) error
		reply  string
		ctype  string // of the reply; JSON when empty
		method string
		path   string
		query  url.Values
		json   string     // JSON body
		form   url.Values // form body
		bearer bool
	}
	tests := []tc{
		{name: "Login", call: func(ctx context.Context, c *Client) error { return c.Login(ctx, testPhone, true) },
			reply: ok, method: "POST", path: "auth/login2f",
			json: `{"login":"79001234567","typeLogin":1,"typeCode":1,"resend":true}`},
		{name: "Login first", call: func(ctx context.Context, c *Client) error { return c.Login(ctx, testPhone, false) },
			reply: ok, method: "POST", path: "auth/login2f",
			json: `{"login":"79001234567","typeLogin":1,"typeCode":1}`},
		{name: "LoginConfirm", call: func(ctx context.Context, c *Client) error {
			tok, err := c.LoginConfirm(ctx, testPhone, testCode)
			if err == nil && tok != testToken {
				t.Errorf("token %q", tok)
			}
			return err
		}, reply: `{"success":true,"token":"` + testToken + `"}`, method: "POST", path: "auth/loginConfirm",
			json: `{"login":"79001234567","verifyCode":"9876"}`},
		{name: "ClientInfo", call: func(ctx context.Context, c *Client) error {
			p, err := c.ClientInfo(ctx, testToken)
			if err == nil && p.FIO != "Иванов Иван Иванович" {
				t.Errorf("personal info %+v", p)
			}
			return err
		}, reply: `{"hasErrors":false,"clientInfo":{"personalInfo":{"fio":"Иванов Иван Иванович","guid":"g1"}}}`,
			method: "GET", path: "auth/getClientInfo", bearer: true},
		{name: "EditClientInfo", call: func(ctx context.Context, c *Client) error {
			return c.EditClientInfo(ctx, testToken, ProfileUpdate{FirstName: "Иван", LastName: "Иванов", Gender: "MALE",
				Birthday: "01.02.1990", PhoneNumber: testPhone, UserID: "g1"})
		}, reply: ok, method: "PUT", path: "auth/clientEditInfo", bearer: true,
			json: `{"firstName":"Иван","lastName":"Иванов","middleName":"","gender":"MALE","birthday":"01.02.1990","phoneNumber":"79001234567","userId":"g1"}`},
		{name: "Register", call: func(ctx context.Context, c *Client) error {
			return c.Register(ctx, Registration{PhoneNumber: testPhone, FirstName: "Иван", LastName: "Иванов"})
		}, reply: ok, method: "POST", path: "reg/registration",
			json: `{"phoneNumber":"79001234567","firstName":"Иван","lastName":"Иванов","typeCode":1}`},

		{name: "LessonOrders", call: func(ctx context.Context, c *Client) error {
			l, err := c.LessonOrders(ctx, "c1")
			if err == nil && len(l) != 2 {
				t.Errorf("lessons %+v", l)
			}
			return err
		}, reply: `{"success":true,"timetable":[{"doc_ID":"d1"},{"doc_ID":"d2"}]}`,
			method: "GET", path: "GLK/getTimetableForCurrentClient", query: url.Values{"clientId": {"c1"}}},
		{name: "LessonOrder", call: func(ctx context.Context, c *Client) error {
			l, err := c.LessonOrder(ctx, "c1", "d2")
			if err == nil && l.DocID != "d2" {
				t.Errorf("lesson %+v", l)
			}
			return err
		}, reply: `{"success":true,"timetable":[{"doc_ID":"d2","cost":1500}]}`,
			method: "GET", path: "GLK/getTimetableForCurrentClient",
			query: url.Values{"clientId": {"c1"}, "lessonId": {"d2"}, "single": {"true"}}},
		{name: "Timetable", call: func(ctx context.Context, c *Client) error {
			_, err := c.Timetable(ctx, TimetableQuery{TrainerID: "t1", Date: day, Age: "A2", Amount: 2})
			return err
		}, reply: `{"success":true,"timetable":[]}`, method: "GET", path: "GLK/getTimetable",
			query: url.Values{"trainerId": {"t1"}, "date": {"21.11.2026"}, "age": {"A2"}, "amount": {"2"}}},
		{name: "Timetable bare", call: func(ctx context.Context, c *Client) error {
			_, err := c.Timetable(ctx, TimetableQuery{TrainerID: "t1", Date: day})
			return err
		}, reply: `{"success":true,"timetable":[]}`, method: "GET", path: "GLK/getTimetable",
			query: url.Values{"trainerId": {"t1"}, "date": {"21.11.2026"}}},
		{name: "ConfirmLesson", call: func(ctx context.Context, c *Client) error { return c.ConfirmLesson(ctx, "c1", "d1") },
			reply: ok, method: "POST", path: "GLK/confirmLesson", json: `{"clientId":"c1","lessonId":"d1"}`},
		{name: "CancelLesson", call: func(ctx context.Context, c *Client) error {
			return c.CancelLesson(ctx, CancelLessonRequest{ClientID: "c1", LessonID: "d1", Sum: 1500})
		}, reply: "", method: "POST", path: "GLK/cancelRegistration", json: `{"clientId":"c1","lessonId":"d1","sum":1500}`},
		{name: "ChangeLesson", call: func(ctx context.Context, c *Client) error {
			id, err := c.ChangeLesson(ctx, ChangeLessonRequest{ClientID: "c1", LessonID: "d1", NewLessonID: "l9",
				Amount: 1500, NewLessonDate: "22.11.2026 10:00:00", AgeGroupCode: "A2"})
			if err == nil && id != "d9" {
				t.Errorf("new id %q", id)
			}
			return err
		}, reply: `{"success":true,"newLessonId":"d9"}`, method: "POST", path: "GLK/changeLessonPeriod",
			json: `{"clientId":"c1","lessonId":"d1","newLessonId":"l9","amount":1500,"newLessonDate":"22.11.2026 10:00:00","ageGroupCode":"A2"}`},

		{name: "PavilionOrders", call: func(ctx context.Context, c *Client) error {
			_, err := c.PavilionOrders(ctx, "c1")
			return err
		}, reply: `{"success":true,"timetable":[]}`, method: "GET", path: "Rent/getPavilionRentTimetableForCurrentClient",
			query: url.Values{"clientId": {"c1"}}},
		{name: "PavilionOrder", call: func(ctx context.Context, c *Client) error {
			o, err := c.PavilionOrder(ctx, "c1", "r1")
			if err == nil && o.PavilionName != "Беседка" {
				t.Errorf("pavilion %+v", o)
			}
			return err
		}, reply: `{"success":true,"timetable":[{"pavilion_Name":"Беседка","details":[{"iD_Rent":"r1"}]}]}`,
			method: "GET", path: "Rent/getPavilionRentTimetableForCurrentClient",
			query: url.Values{"clientId": {"c1"}, "rentId": {"r1"}, "single": {"true"}}},
		{name: "PavilionSchedule", call: func(ctx context.Context, c *Client) error {
			s, err := c.PavilionSchedule(ctx, "p1", day)
			if err == nil && s.Cost != 1000 {
				t.Errorf("schedule %+v", s)
			}
			return err
		}, reply: `{"success":true,"timetable":[{"cost":1000,"details":[]},{"cost":5}]}`,
			method: "GET", path: "Rent/getPavilionRentTimetable", query: url.Values{"pavilionId": {"p1"}, "date": {"21.11.2026"}}},
		{name: "CancelPavilionRent", call: func(ctx context.Context, c *Client) error {
			return c.CancelPavilionRent(ctx, CancelRentRequest{ClientID: "c1", RentID: "r1", Amount: 3000})
		}, reply: ok, method: "POST", path: "Rent/cancelPavilionRent", json: `{"clientId":"c1","rentId":"r1","amount":3000}`},
		{name: "RefundPavilion", call: func(ctx context.Context, c *Client) error {
			msg, err := c.RefundPavilion(ctx, PavilionRefundRequest{Documents: []File{}, FormRefund: RefundForm{OrderID: "r1"}})
			if err == nil && msg != "Принято" {
				t.Errorf("message %q", msg)
			}
			return err
		}, reply: `{"success":true,"message":"Принято"}`, method: "POST", path: "Rent/registerRefund",
			json: `{"documents":[],"rentItem":{"pavilion_ID":"","pavilion_Name":"","hourBeg":"","hourEnd":"","amount":0,"cost":0,"client_ID":"","details":null,"canTransfer":false,"canCancel":false},
			"formRefund":{"name":"","surname":"","secondName":"","email":"","phone":"","orderId":"r1","comment":""}}`},
		{name: "ChangePavilionRent", call: func(ctx context.Context, c *Client) error {
			id, err := c.ChangePavilionRent(ctx, ChangePavilionRequest{ClientID: "c1", RentID: "r1", PavilionID: "p1",
				NewRentDateBeg: "2026-11-21T10:00:00", NewRentDateEnd: "2026-11-21T12:00:00", Amount: 2000, PavilionName: "Беседка"})
			if err == nil && id != "r2" {
				t.Errorf("new id %q", id)
			}
			return err
		}, reply: `{"success":true,"newRentId":"r2"}`, method: "POST", path: "Rent/changePavilionRentPeriod",
			json: `{"clientId":"c1","rentId":"r1","pavilionId":"p1","newRentDateBeg":"2026-11-21T10:00:00","newRentDateEnd":"2026-11-21T12:00:00","amount":2000,"pavilionName":"Беседка"}`},

		{name: "RoomOrders", call: func(ctx context.Context, c *Client) error {
			_, err := c.RoomOrders(ctx, "c1")
			return err
		}, reply: `{"success":true,"timetable":[]}`, method: "GET", path: "CelRooms/getCelRoomsTimetableForCurrentClient",
			query: url.Values{"clientId": {"c1"}}},
		{name: "RoomOrder", call: func(ctx context.Context, c *Client) error {
			_, err := c.RoomOrder(ctx, "c1", "r1")
			return err
		}, reply: `{"success":true,"timetable":[{"room_Name":"Зал","details":[{"iD_Rent":"r1"}]}]}`,
			method: "GET", path: "CelRooms/getCelRoomsTimetableForCurrentClient",
			query: url.Values{"clientId": {"c1"}, "rentId": {"r1"}, "single": {"true"}}},
		{name: "RoomSchedule", call: func(ctx context.Context, c *Client) error {
			_, err := c.RoomSchedule(ctx, "cr1", day)
			return err
		}, reply: `{"success":true,"timetable":[{"cost":1000}]}`,
			method: "GET", path: "CelRooms/getCelRoomsTimetable", query: url.Values{"celRoomId": {"cr1"}, "date": {"21.11.2026"}}},
		{name: "CancelRoomRent", call: func(ctx context.Context, c *Client) error {
			return c.CancelRoomRent(ctx, CancelRentRequest{ClientID: "c1", RentID: "r1", Amount: 3000})
		}, reply: "", method: "POST", path: "CelRooms/cancelCelRoomRent", json: `{"clientId":"c1","rentId":"r1","amount":3000}`},
		{name: "RefundRoom", call: func(ctx context.Context, c *Client) error {
			_, err := c.RefundRoom(ctx, RoomRefundRequest{})
			return err
		}, reply: ok, method: "POST", path: "CelRooms/registerRefund",
			json: `{"documents":[],"rentItem":{"room_ID":"","room_Name":"","hourBeg":"","hourEnd":"","amount":0,"cost":0,"client_ID":"","details":null,"canTransfer":false,"canCancel":false},
			"formRefund":{"name":"","surname":"","secondName":"","email":"","phone":"","orderId":"","comment":""}}`},
		{name: "ChangeRoomRent", call: func(ctx context.Context, c *Client) error {
			_, err := c.ChangeRoomRent(ctx, ChangeRoomRequest{ClientID: "c1", RentID: "r1", CelRoomID: "cr1",
				NewRentDateBeg: "2026-11-21T10:00:00", NewRentDateEnd: "2026-11-21T12:00:00", Amount: 2000, CelRoomName: "Зал"})
			return err
		}, reply: `{"success":true,"newRentId":"r2"}`, method: "POST", path: "CelRooms/changeCelRoomRentPeriod",
			json: `{"clientId":"c1","rentId":"r1","celRoomId":"cr1","newRentDateBeg":"2026-11-21T10:00:00","newRentDateEnd":"2026-11-21T12:00:00","amount":2000,"celRoomName":"Зал"}`},

		{name: "AquaOrders", call: func(ctx context.Context, c *Client) error {
			a, h, err := c.AquaOrders(ctx, "g1")
			if err == nil && (len(a) != 1 || len(h) != 2) {
				t.Errorf("active %v history %v", a, h)
			}
			return err
		}, reply: `{"success":true,"activeOrders":[{"orderId":"a1"}],"historyOrders":[{"orderId":"a2"},{"orderId":"a3"}]}`,
			method: "GET", path: "aqua/getAquaOrders", query: url.Values{"userId": {"g1"}}},
		{name: "AquaOrder", call: func(ctx context.Context, c *Client) error {
			o, err := c.AquaOrder(ctx, "g1", "a1")
			if err == nil && (o.OrderID != "a1" || len(o.Tickets) != 1) {
				t.Errorf("order %+v", o)
			}
			return err
		}, reply: `{"success":true,"currentOrder":{"orderId":"a1","tickets":[{"id":"t1","status":"paid"}]}}`,
			method: "GET", path: "aqua/getAquaOrders", query: url.Values{"userId": {"g1"}, "orderId": {"a1"}, "single": {"true"}}},
		{name: "RefundAqua", call: func(ctx context.Context, c *Client) error {
			_, err := c.RefundAqua(ctx, AquaRefundRequest{ReturnOrderID: "a1", Products: []RefundProduct{{ProductID: "p1",
				Barcode: "b1", Price: 900, Name: "Взрослый", EventDate: "Дата: 21.11.2026", PositionNumber: "1"}}})
			return err
		}, reply: `{"success":true,"message":"ok"}`, method: "POST", path: "aqua/registerRefund1C",
			json: `{"returnOrderId":"a1","products":[{"productId":"p1","barcode":"b1","price":900,"name":"Взрослый","eventDate":"Дата: 21.11.2026","positionNumber":"1"}]}`},
		{name: "TransferTickets", call: func(ctx context.Context, c *Client) error {
			return c.TransferTickets(ctx, TransferTicketRequest{OrderID: "a1", Date: "22.11.2026", SessionID: "s1"})
		}, reply: ok, method: "POST", path: "aqua/transferTicket", json: `{"orderId":"a1","date":"22.11.2026","sessionId":"s1"}`},
		{name: "AquaSessions", call: func(ctx context.Context, c *Client) error {
			s, err := c.AquaSessions(ctx, day)
			if err == nil && (len(s) != 1 || s[0].EndTime != "16:00") {
				t.Errorf("sessions %+v", s)
			}
			return err
		}, reply: `{"success":true,"result":[{"sessionId":"s1","sessionTime":"10:00","availableCount":5,"name":"Дневной","endTime":"16:00"}]}`,
			method: "GET", path: "aqua/getSessionsAqua", query: url.Values{"date": {"21.11.2026"}}},
		{name: "AquaTicketPDF", call: func(ctx context.Context, c *Client) error {
			b, err := c.AquaTicketPDF(ctx, "a1")
			if err == nil && !bytes.HasPrefix(b, []byte("%PDF-")) {
				t.Errorf("pdf %q", b)
			}
			return err
		}, reply: "%PDF-1.4 ticket", ctype: "application/pdf", method: "GET", path: "aqua/generatePdf",
			query: url.Values{"orderId": {"a1"}}},

		{name: "HotelOrders", call: func(ctx context.Context, c *Client) error {
			_, _, err := c.HotelOrders(ctx, "g1")
			return err
		}, reply: `{"success":true,"activeOrders":[],"historyOrders":[]}`,
			method: "GET", path: "hotel/getHotelOrders", query: url.Values{"userId": {"g1"}}},
		{name: "HotelOrder", call: func(ctx context.Context, c *Client) error {
			o, err := c.HotelOrder(ctx, "g1", "h1")
			if err == nil && o.AmountRooms != 9000 {
				t.Errorf("order %+v", o)
			}
			return err
		}, reply: `{"success":true,"currentOrder":{"orderId":"h1","amountRooms":9000}}`,
			method: "GET", path: "hotel/getHotelOrders", query: url.Values{"userId": {"g1"}, "orderId": {"h1"}, "single": {"true"}}},
		{name: "CancelHotelOrder", call: func(ctx context.Context, c *Client) error { return c.CancelHotelOrder(ctx, "h1") },
			reply: ok, method: "POST", path: "hotel/cancelOrder", form: url.Values{"OrderId": {"h1"}}},
		{name: "RefundHotel", call: func(ctx context.Context, c *Client) error {
			_, err := c.RefundHotel(ctx, HotelRefundRequest{OrderID: "h1", Documents: []File{{FileName: "a", FileExtension: "pdf", File: "QQ=="}}})
			return err
		}, reply: ok, method: "POST", path: "hotel/registerRefund",
			json: `{"documents":[{"file_name":"a","file_extension":"pdf","file":"QQ=="}],"orderId":"h1",
			"formRefund":{"name":"","surname":"","secondName":"","email":"","phone":"","orderId":"","comment":""}}`},
		{name: "HotelDates", call: func(ctx context.Context, c *Client) error {
			d, err := c.HotelDates(ctx, day, day.AddDate(0, 1, 9))
			if err == nil && (len(d) != 1 || d[0].PriceFamily != 7000) {
				t.Errorf("days %+v", d)
			}
			return err
		}, reply: `{"success":true,"dateList":{"days":[{"period":"2026-11-21","vacant":3,"family":1,"price":4500,"priceFamily":7000}]}}`,
			method: "POST", path: "hotel/getDates", form: url.Values{"dateIn": {"2026-11-21"}, "dateOut": {"2026-12-30"}}},
		{name: "PushReservation", call: func(ctx context.Context, c *Client) error {
			_, err := c.PushReservation(ctx, PushReservationRequest{OrderID: "h1", NewDateIn: "2026-11-21T16:00:00", NewDateOut: "2026-11-23T14:00:00"})
			return err
		}, reply: ok, method: "POST", path: "hotel/pushReservation",
			json: `{"orderId":"h1","newDateIn":"2026-11-21T16:00:00","newDateOut":"2026-11-23T14:00:00"}`},
		{name: "HotelVoucherPDF", call: func(ctx context.Context, c *Client) error {
			_, err := c.HotelVoucherPDF(ctx, "h1")
			return err
		}, reply: "%PDF-1.7 voucher", ctype: "application/pdf", method: "GET", path: "hotel/generatePdf",
			query: url.Values{"orderId": {"h1"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, mux, _ := setup(t)
			s := record(t, mux, http.StatusOK, cmpOr(tt.ctype, "application/json"), tt.reply)
			if err := tt.call(t.Context(), c); err != nil {
				t.Fatalf("call: %v", err)
			}
			if s.method != tt.method || s.path != tt.path {
				t.Errorf("request %s %s, want %s %s", s.method, s.path, tt.method, tt.path)
			}
			if want := cmpOr(tt.query, url.Values{}); !reflect.DeepEqual(s.query, want) {
				t.Errorf("query %v, want %v", s.query, want)
			}
			wantAuth := ""
			if tt.bearer {
				wantAuth = "Bearer " + testToken
			}
			if s.auth != wantAuth {
				t.Errorf("Authorization %q, want %q", s.auth, wantAuth)
			}
			switch {
			case tt.json != "":
				if s.ctype != "application/json" {
					t.Errorf("Content-Type %q", s.ctype)
				}
				jsonEqual(t, s.body, tt.json)
			case tt.form != nil:
				if s.ctype != "application/x-www-form-urlencoded" {
					t.Errorf("Content-Type %q", s.ctype)
				}
				got, err := url.ParseQuery(string(s.body))
				if err != nil || !reflect.DeepEqual(got, tt.form) {
					t.Errorf("form %q, want %v", s.body, tt.form)
				}
			default:
				if len(s.body) != 0 || s.ctype != "" {
					t.Errorf("unexpected body %q (%s)", s.body, s.ctype)
				}
			}
		})
	}
}

func cmpOr[T any](v, fallback T) T {
	if reflect.ValueOf(&v).Elem().IsZero() {
		return fallback
	}
	return v
}

// TestErrors proves the typed error of each way a call can fail.
func TestErrors(t *testing.T) {
	login := func(ctx context.Context, c *Client) error { return c.Login(ctx, testPhone, false) }
	confirm := func(ctx context.Context, c *Client) error {
		_, err := c.LoginConfirm(ctx, testPhone, testCode)
		return err
	}
	info := func(ctx context.Context, c *Client) error { _, err := c.ClientInfo(ctx, testToken); return err }
	aquaOrder := func(ctx context.Context, c *Client) error { _, err := c.AquaOrder(ctx, "g1", "a1"); return err }
	lesson := func(ctx context.Context, c *Client) error { _, err := c.LessonOrder(ctx, "c1", "d1"); return err }
	pavilion := func(ctx context.Context, c *Client) error { _, err := c.PavilionSchedule(ctx, "p1", day); return err }
	pdf := func(ctx context.Context, c *Client) error { _, err := c.AquaTicketPDF(ctx, "a1"); return err }

	tests := []struct {
		name    string
		call    func(context.Context, *Client) error
		status  int
		ctype   string
		reply   string
		want    error  // a sentinel, or nil for *ProviderError
		message string // the provider's message when want is nil
		text    string // expected Error(), when set
	}{
		{name: "not JSON", call: login, status: 200, ctype: "text/html", reply: "<html>oops</html>", want: ErrMalformed},
		{name: "empty body", call: login, status: 200, reply: "", want: ErrMalformed},
		{name: "JSON array", call: login, status: 200, reply: "[]", want: ErrMalformed},
		{name: "5xx not JSON", call: login, status: 502, ctype: "text/html", reply: "Bad Gateway", want: ErrUnavailable},
		{name: "500 on loginConfirm is no wrong code", call: confirm, status: 500, reply: `{"success":false,"errorMessage":"Сервис недоступен"}`, want: ErrUnavailable},
		{name: "500 on getClientInfo is no refused token", call: info, status: 500, reply: `{"hasErrors":true,"responseDescription":"Сервис недоступен"}`, want: ErrUnavailable},
		{name: "success false", call: login, status: 200, reply: `{"success":false,"errorMessage":"Номер не найден"}`,
			message: "Номер не найден", text: "gateway: login: provider: Номер не найден"},
		{name: "success false without text", call: login, status: 200, reply: `{"success":false}`, message: ""},
		{name: "wrong code", call: confirm, status: 200, reply: `{"success":false,"errorMessage":"Неверный код"}`, message: "Неверный код"},
		{name: "success without token", call: confirm, status: 200, reply: `{"success":true}`, want: ErrMalformed},
		{name: "hasErrors", call: info, status: 200, reply: `{"hasErrors":true,"responseDescription":"Сессия истекла"}`,
			message: "Сессия истекла", text: "gateway: get client info: provider: Сессия истекла"},
		{name: "no clientInfo", call: info, status: 200, reply: `{"hasErrors":false}`, want: ErrMalformed},
		{name: "401 on bearer call", call: info, status: 401, reply: `{"hasErrors":true,"responseDescription":"x"}`, want: ErrUnauthorized},
		{name: "401 elsewhere is the provider's word", call: login, status: 401, reply: `{"success":false,"errorMessage":"Нет"}`, message: "Нет"},
		{name: "non-2xx JSON read", call: login, status: 400, reply: `{"success":false,"errorMessage":"Неверный номер"}`, message: "Неверный номер"},
		{name: "non-2xx JSON without verdict", call: login, status: 422, reply: `{"title":"Unprocessable"}`, message: ""},
		{name: "bad field type", call: aquaOrder, status: 200, reply: `{"success":true,"currentOrder":{"orderId":5}}`, want: ErrMalformed},
		{name: "currentOrder null", call: aquaOrder, status: 200, reply: `{"success":true,"currentOrder":null}`, want: ErrNotFound},
		{name: "another order", call: aquaOrder, status: 200, reply: `{"success":true,"currentOrder":{"orderId":"zz"}}`, want: ErrNotFound},
		{name: "empty timetable", call: lesson, status: 200, reply: `{"success":true,"timetable":[]}`, want: ErrNotFound},
		{name: "another lesson", call: lesson, status: 200, reply: `{"success":true,"timetable":[{"doc_ID":"d7"}]}`, want: ErrNotFound},
		{name: "no schedule", call: pavilion, status: 200, reply: `{"success":true,"timetable":[]}`, want: ErrNotFound},
		{name: "PDF refused", call: pdf, status: 200, reply: `{"success":false,"errorMessage":"Заказ не оплачен"}`, message: "Заказ не оплачен"},
		{name: "PDF as HTML", call: pdf, status: 200, ctype: "text/html", reply: "<html></html>", want: ErrMalformed},
		{name: "PDF as JSON success", call: pdf, status: 200, reply: `{"success":true}`, want: ErrMalformed},
		{name: "PDF labelled but not one", call: pdf, status: 200, ctype: "application/pdf", reply: "hello", want: ErrMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, mux, _ := setup(t, WithRetries(0))
			record(t, mux, tt.status, cmpOr(tt.ctype, "application/json"), tt.reply)
			err := tt.call(t.Context(), c)
			if err == nil {
				t.Fatal("no error")
			}
			if tt.want != nil {
				if !errors.Is(err, tt.want) {
					t.Fatalf("error %v, want %v", err, tt.want)
				}
			} else {
				pe, ok := errors.AsType[*ProviderError](err)
				if !ok {
					t.Fatalf("error %v (%T), want *ProviderError", err, err)
				}
				if pe.Message != tt.message || Message(err) != tt.message {
					t.Errorf("message %q, want %q", pe.Message, tt.message)
				}
			}
			if tt.text != "" && err.Error() != tt.text {
				t.Errorf("Error() %q, want %q", err, tt.text)
			}
			noSecrets(t, err.Error())
		})
	}
}

func noSecrets(t *testing.T, s string) {
	t.Helper()
	for _, secret := range []string{testPhone, testCode, testToken} {
		if strings.Contains(s, secret) {
			t.Errorf("%q shows a secret", s)
		}
	}
}

func TestSuccessDespiteStatus(t *testing.T) {
	c, mux, _ := setup(t, WithRetries(0))
	record(t, mux, http.StatusInternalServerError, "application/json", `{"success":true}`)
	if err := c.Login(t.Context(), testPhone, false); err != nil {
		t.Fatalf("success:true under HTTP 500: %v", err)
	}
}

func TestTransportFailure(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	base := srv.URL + "/v1"
	srv.Close()
	c, err := NewClient(base, WithRetries(0))
	if err != nil {
		t.Fatal(err)
	}
	err = c.Login(t.Context(), testPhone, false)
	if !errors.Is(err, ErrUnavailable) {
		t.Fatalf("error %v, want ErrUnavailable", err)
	}
	if strings.Contains(err.Error(), "/v1/") || strings.Contains(err.Error(), "login2f") {
		t.Errorf("error %q shows the URL", err)
	}
	if err := c.Ping(t.Context()); !errors.Is(err, ErrUnavailable) {
		t.Errorf("Ping: %v, want ErrUnavailable", err)
	}
}

func TestDeadline(t *testing.T) {
	c, mux, _ := setup(t, WithTimeouts(0, 50*time.Millisecond))
	release := make(chan struct{})
	t.Cleanup(func() { close(release) }) // runs before the server closes
	mux.HandleFunc("/v1/", func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body) // lets the server notice the client leaving
		select {
		case <-r.Context().Done():
		case <-release:
		}
	})
	err := c.ConfirmLesson(t.Context(), "c1", "d1")
	if !errors.Is(err, ErrUnavailable) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("error %v, want ErrUnavailable and DeadlineExceeded", err)
	}
}

func TestCallerCancelIsNotRetried(t *testing.T) {
	c, mux, _ := setup(t)
	var n atomic.Int32
	ctx, cancel := context.WithCancel(t.Context())
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	mux.HandleFunc("/v1/", func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		cancel()
		select {
		case <-r.Context().Done():
		case <-release:
		}
	})
	_, err := c.AquaSessions(ctx, day)
	if !errors.Is(err, ErrUnavailable) || !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v", err)
	}
	if n.Load() != 1 {
		t.Errorf("%d attempts, want 1", n.Load())
	}
}

func TestBodyCap(t *testing.T) {
	c, mux, _ := setup(t)
	c.maxBody = 16
	record(t, mux, 200, "application/pdf", "%PDF-1.4 far more than sixteen bytes")
	if _, err := c.AquaTicketPDF(t.Context(), "a1"); !errors.Is(err, ErrMalformed) {
		t.Fatalf("error %v, want ErrMalformed", err)
	}
}

func TestRetries(t *testing.T) {
	tests := []struct {
		name    string
		call    func(context.Context, *Client) error
		status  int
		reply   string
		drop    bool // close the connection without an answer
		recover int  // answer 200 from this attempt on (0: never)
		want    int  // attempts
		wantErr error
	}{
		{name: "GET 503", call: aquaSessions, status: 503, reply: "busy", want: 3, wantErr: ErrUnavailable},
		{name: "GET 500 with JSON", call: aquaSessions, status: 500, reply: `{"success":false,"errorMessage":"x"}`, want: 3, wantErr: ErrUnavailable},
		{name: "GET dropped", call: aquaSessions, drop: true, want: 3, wantErr: ErrUnavailable},
		{name: "GET recovers", call: aquaSessions, status: 503, reply: "busy", recover: 3, want: 3},
		{name: "GET 404 not retried", call: aquaSessions, status: 404, reply: "nope", want: 1, wantErr: ErrMalformed},
		{name: "GET provider error not retried", call: aquaSessions, status: 200, reply: `{"success":false}`, want: 1},
		{name: "POST 503", call: func(ctx context.Context, c *Client) error { return c.ConfirmLesson(ctx, "c", "l") },
			status: 503, reply: "busy", want: 1, wantErr: ErrUnavailable},
		{name: "POST dropped", call: func(ctx context.Context, c *Client) error { return c.ConfirmLesson(ctx, "c", "l") },
			drop: true, want: 1, wantErr: ErrUnavailable},
		{name: "POST form 503", call: func(ctx context.Context, c *Client) error { return c.CancelHotelOrder(ctx, "h1") },
			status: 503, reply: "busy", want: 1, wantErr: ErrUnavailable},
		{name: "PUT 503", call: func(ctx context.Context, c *Client) error {
			return c.EditClientInfo(ctx, testToken, ProfileUpdate{UserID: "g1"})
		}, status: 503, reply: "busy", want: 1, wantErr: ErrUnavailable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, mux, _ := setup(t) // default: 2 retries
			var n atomic.Int32
			mux.HandleFunc("/v1/", func(w http.ResponseWriter, r *http.Request) {
				i := int(n.Add(1))
				if tt.recover > 0 && i >= tt.recover {
					io.WriteString(w, `{"success":true,"result":[]}`)
					return
				}
				if tt.drop {
					conn, _, err := w.(http.Hijacker).Hijack()
					if err == nil {
						conn.Close()
					}
					return
				}
				w.WriteHeader(tt.status)
				io.WriteString(w, tt.reply)
			})
			err := tt.call(t.Context(), c)
			if got := int(n.Load()); got != tt.want {
				t.Errorf("%d attempts, want %d", got, tt.want)
			}
			switch {
			case tt.wantErr != nil && !errors.Is(err, tt.wantErr):
				t.Errorf("error %v, want %v", err, tt.wantErr)
			case tt.wantErr == nil && tt.recover > 0 && err != nil:
				t.Errorf("error %v, want none", err)
			case tt.wantErr == nil && tt.recover == 0 && Message(err) == "" && !isProvider(err):
				t.Errorf("error %v, want *ProviderError", err)
			}
		})
	}
}

func aquaSessions(ctx context.Context, c *Client) error {
	_, err := c.AquaSessions(ctx, day)
	return err
}

func isProvider(err error) bool { _, ok := errors.AsType[*ProviderError](err); return ok }

func TestBreakerOpens(t *testing.T) {
	reg := prometheus.NewRegistry()
	c, mux, _ := setup(t, WithBreaker(3, time.Hour), WithRetries(0), WithRegisterer(reg))
	var n atomic.Int32
	mux.HandleFunc("/v1/", func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		w.WriteHeader(http.StatusServiceUnavailable)
	})
	for range 3 {
		if err := aquaSessions(t.Context(), c); !errors.Is(err, ErrUnavailable) {
			t.Fatalf("error %v, want ErrUnavailable", err)
		}
	}
	err := aquaSessions(t.Context(), c)
	if !errors.Is(err, ErrUnavailable) || !errors.Is(err, gobreaker.ErrOpenState) {
		t.Fatalf("error %v, want ErrUnavailable from an open breaker", err)
	}
	if n.Load() != 3 {
		t.Errorf("provider called %d times, want 3", n.Load())
	}
	// The check bypasses the breaker: it sees the provider's own 503.
	if err := c.Ping(t.Context()); !errors.Is(err, ErrUnavailable) || errors.Is(err, gobreaker.ErrOpenState) || n.Load() != 4 {
		t.Errorf("Ping: %v after %d calls, want the provider's 503 from a fourth call", err, n.Load())
	}
	if open := gaugeValue(t, reg, "lk_gateway_breakers_open"); open != 1 {
		t.Errorf("lk_gateway_breakers_open %v, want 1", open)
	}
}

// gaugeValue is the value of the gauge name in reg.
func gaugeValue(t *testing.T, reg *prometheus.Registry, name string) float64 {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() == name && len(mf.GetMetric()) == 1 {
			return mf.GetMetric()[0].GetGauge().GetValue()
		}
	}
	t.Fatalf("%s not gathered", name)
	return 0
}

func TestBreakerIgnoresProviderRefusals(t *testing.T) {
	c, mux, _ := setup(t, WithBreaker(2, time.Hour), WithRetries(0))
	var n atomic.Int32
	mux.HandleFunc("/v1/", func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, `{"success":false,"errorMessage":"Нет мест"}`)
	})
	for range 5 {
		if err := c.TransferTickets(t.Context(), TransferTicketRequest{}); Message(err) != "Нет мест" {
			t.Fatalf("error %v", err)
		}
	}
	if n.Load() != 5 {
		t.Errorf("provider called %d times, want 5", n.Load())
	}
}

func TestLogsKeepSecrets(t *testing.T) {
	var buf testkit.Buffer
	log := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	c, mux, _ := setup(t, WithLogger(log), WithRetries(0))
	mux.HandleFunc("/v1/auth/login2f", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, `{"success":true}`) })
	mux.HandleFunc("/v1/auth/loginConfirm", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"success":false,"errorMessage":"Неверный код"}`)
	})
	mux.HandleFunc("/v1/auth/getClientInfo", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(401) })
	_ = c.Login(t.Context(), testPhone, false)
	_, _ = c.LoginConfirm(t.Context(), testPhone, testCode)
	_, _ = c.ClientInfo(t.Context(), testToken)
	_ = c.Register(t.Context(), Registration{PhoneNumber: testPhone})
	out := buf.String()
	noSecrets(t, out)
	if !strings.Contains(out, "+7 900 ***-**-67") {
		t.Errorf("log lacks the masked phone:\n%s", out)
	}
	if !strings.Contains(out, "outcome=provider_error") {
		t.Errorf("log lacks the failure:\n%s", out)
	}
}

func TestMetrics(t *testing.T) {
	reg := prometheus.NewRegistry()
	c, mux, srv := setup(t, WithRegisterer(reg), WithRetries(0))
	record(t, mux, 200, "application/json", `{"success":true,"currentOrder":null}`)
	_ = c.Login(t.Context(), testPhone, false)
	_, _ = c.AquaOrder(t.Context(), "g1", "a1")

	// A second client on the same registry shares the histogram.
	c2, err := NewClient(srv.URL+"/v1", WithRegisterer(reg))
	if err != nil {
		t.Fatalf("second client: %v", err)
	}
	_ = c2.Login(t.Context(), testPhone, false)

	counts := callSamples(t, reg)
	want := map[string]uint64{"login/ok": 2, "get_aqua_order/not_found": 1}
	if !reflect.DeepEqual(counts, want) {
		t.Errorf("samples %v, want %v", counts, want)
	}
}

// callSamples counts the samples of lk_gateway_call_duration_seconds in
// reg by "call/outcome".
func callSamples(t *testing.T, reg *prometheus.Registry) map[string]uint64 {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]uint64{}
	for _, mf := range mfs {
		if mf.GetName() != "lk_gateway_call_duration_seconds" {
			continue
		}
		for _, m := range mf.GetMetric() {
			labels := map[string]string{}
			for _, l := range m.GetLabel() {
				labels[l.GetName()] = l.GetValue()
			}
			counts[labels["call"]+"/"+labels["outcome"]] = m.GetHistogram().GetSampleCount()
		}
	}
	return counts
}

func TestNewClient(t *testing.T) {
	for _, u := range []string{"", "127.0.0.1:8090/v1", "ftp://x/v1", "http:///v1", "http://[::1"} {
		if _, err := NewClient(u); err == nil {
			t.Errorf("NewClient(%q) accepted", u)
		}
	}
	c, err := NewClient("http://127.0.0.1:8090/v1/")
	if err != nil {
		t.Fatal(err)
	}
	p, _ := c.prepare(call{path: "aqua/getAquaOrders", query: url.Values{"userId": {"g 1"}}})
	if p.url != "http://127.0.0.1:8090/v1/aqua/getAquaOrders?userId=g+1" {
		t.Errorf("url %s", p.url)
	}
}

func TestEmptyIDs(t *testing.T) {
	c, mux, _ := setup(t)
	var n atomic.Int32
	mux.HandleFunc("/v1/", func(w http.ResponseWriter, r *http.Request) { n.Add(1) })
	if _, _, err := c.AquaOrders(t.Context(), ""); err == nil {
		t.Error("AquaOrders with no user id accepted")
	}
	if _, err := c.LessonOrder(t.Context(), "c1", ""); !errors.Is(err, ErrNotFound) {
		t.Errorf("LessonOrder with no id: %v", err)
	}
	if _, err := c.ClientInfo(t.Context(), ""); !errors.Is(err, ErrUnauthorized) {
		t.Errorf("ClientInfo with no token: %v", err)
	}
	if n.Load() != 0 {
		t.Errorf("provider called %d times", n.Load())
	}
}

// TestBreakerPerPath: one path failing opens its own breaker only.
func TestBreakerPerPath(t *testing.T) {
	// Nothing kept: each of aqua's calls reaches the provider.
	c, mux, _ := setup(t, WithBreaker(3, time.Hour), WithRetries(0), WithSharedTTL(0))
	var hotel, aqua atomic.Int32
	mux.HandleFunc("/v1/hotel/getHotelOrders", func(w http.ResponseWriter, r *http.Request) {
		hotel.Add(1)
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close()
		}
	})
	mux.HandleFunc("/v1/aqua/getSessionsAqua", func(w http.ResponseWriter, r *http.Request) {
		aqua.Add(1)
		io.WriteString(w, `{"success":true,"result":[]}`)
	})
	for range 5 {
		if _, _, err := c.HotelOrders(t.Context(), "g1"); !errors.Is(err, ErrUnavailable) {
			t.Fatalf("hotel: %v, want ErrUnavailable", err)
		}
	}
	if _, _, err := c.HotelOrders(t.Context(), "g1"); !errors.Is(err, gobreaker.ErrOpenState) {
		t.Errorf("hotel after 5 failures: %v, want an open breaker", err)
	}
	if hotel.Load() > 6 { // 3 failures, each at most twice (Go's transport retries a dropped idempotent request once)
		t.Errorf("hotel called %d times through an open breaker", hotel.Load())
	}
	for range 5 {
		if err := aquaSessions(t.Context(), c); err != nil {
			t.Fatalf("another path while hotel's breaker is open: %v", err)
		}
	}
	if aqua.Load() != 5 {
		t.Errorf("aqua called %d times, want 5", aqua.Load())
	}
}

// TestDeadlineCoversRetries: a GET retried on a slow provider still ends by
// its one deadline, not one per try.
func TestDeadlineCoversRetries(t *testing.T) {
	const deadline = 200 * time.Millisecond
	c, mux, _ := setup(t, WithTimeouts(0, deadline)) // 2 retries
	var n atomic.Int32
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	mux.HandleFunc("/v1/", func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		select {
		case <-r.Context().Done():
		case <-release:
		}
	})
	start := time.Now()
	err := aquaSessions(t.Context(), c)
	took := time.Since(start)
	if !errors.Is(err, ErrUnavailable) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("error %v, want ErrUnavailable and DeadlineExceeded", err)
	}
	if n.Load() != 1 {
		t.Errorf("%d attempts after the deadline passed, want 1", n.Load())
	}
	if took >= 2*deadline+time.Second { // generous: only "not one deadline per try"
		t.Errorf("took %v with a %v deadline", took, deadline)
	}
}

// TestDeadlineLeftForRetries: fast failures are retried within the deadline.
func TestDeadlineLeftForRetries(t *testing.T) {
	c, mux, _ := setup(t, WithTimeouts(0, 5*time.Second))
	var n atomic.Int32
	mux.HandleFunc("/v1/", func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		w.WriteHeader(http.StatusServiceUnavailable)
	})
	if err := aquaSessions(t.Context(), c); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("error %v", err)
	}
	if n.Load() != 3 {
		t.Errorf("%d attempts, want 3", n.Load())
	}
}
