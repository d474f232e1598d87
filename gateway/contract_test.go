package gateway_test

// Contract tests: openapi.yaml is the contract of the provider's gateway v1.
// The client's requests and the sandbox's answers are both checked against
// it, call by call, through a validating http.RoundTripper.
//
//	go test -race ./gateway/ -run Contract

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"lk/gateway"
	"lk/gateway/sandbox"
	"lk/gateway/sandbox/sandboxtest"
)

const contractFile = "openapi.yaml"

// ---- the contract and its two validators ----

// contract is the loaded document and a router over its paths.
type contract struct {
	doc    *openapi3.T
	router routers.Router
}

var pdfDecoderOnce sync.Once

// loadContract loads openapi.yaml. With strict, every object schema that
// lists its properties also gets additionalProperties: false, so a field the
// contract does not name (a misspelling, a wrong case) fails the test: the
// document itself stays tolerant of extra fields for the real gateway, but
// our client and sandbox must use exactly the names it lists.
func loadContract(t testing.TB, strict bool) *contract {
	t.Helper()
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromFile(contractFile)
	if err != nil {
		t.Fatalf("load %s: %v", contractFile, err)
	}
	if strict {
		tighten(doc)
	}
	if err := doc.Validate(loader.Context); err != nil {
		t.Fatalf("%s does not validate: %v", contractFile, err)
	}
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		t.Fatalf("router: %v", err)
	}
	pdfDecoderOnce.Do(func() {
		// A PDF answer is checked for its signature, not parsed.
		openapi3filter.RegisterBodyDecoder("application/pdf",
			func(r io.Reader, _ http.Header, _ *openapi3.SchemaRef, _ openapi3filter.EncodingFn) (any, error) {
				head := make([]byte, 5)
				if _, err := io.ReadFull(r, head); err != nil || string(head) != "%PDF-" {
					return nil, errors.New("body is not a PDF (no %PDF- signature)")
				}
				return "%PDF-", nil
			})
	})
	return &contract{doc: doc, router: router}
}

// tighten sets additionalProperties: false on every object schema with
// properties (components and inline schemas alike).
func tighten(doc *openapi3.T) {
	seen := map[*openapi3.Schema]bool{}
	var walk func(*openapi3.SchemaRef)
	walk = func(ref *openapi3.SchemaRef) {
		if ref == nil || ref.Value == nil || seen[ref.Value] {
			return
		}
		s := ref.Value
		seen[s] = true
		if s.Type.Is(openapi3.TypeObject) && len(s.Properties) > 0 && s.AdditionalProperties.Has == nil && s.AdditionalProperties.Schema == nil {
			no := false
			s.AdditionalProperties.Has = &no
		}
		for _, p := range s.Properties {
			walk(p)
		}
		walk(s.Items)
		for _, l := range []openapi3.SchemaRefs{s.AllOf, s.AnyOf, s.OneOf} {
			for _, x := range l {
				walk(x)
			}
		}
		walk(s.Then)
		walk(s.Else)
	}
	for _, s := range doc.Components.Schemas {
		walk(s)
	}
	for _, r := range doc.Components.Responses {
		for _, mt := range r.Value.Content {
			walk(mt.Schema)
		}
	}
	for _, item := range doc.Paths.Map() {
		for _, op := range item.Operations() {
			if op.RequestBody != nil && op.RequestBody.Value != nil {
				for _, mt := range op.RequestBody.Value.Content {
					walk(mt.Schema)
				}
			}
			for _, r := range op.Responses.Map() {
				if r.Value != nil {
					for _, mt := range r.Value.Content {
						walk(mt.Schema)
					}
				}
			}
		}
	}
}

// keyAndBearerAuth accepts a request with a non-empty service key, and a
// non-empty bearer token where the call asks for one; the sandbox decides
// whether they are good.
func keyAndBearerAuth(_ context.Context, in *openapi3filter.AuthenticationInput) error {
	s, h := in.SecurityScheme, in.RequestValidationInput.Request.Header
	switch {
	case s != nil && s.Type == "apiKey" && s.In == "header":
		if strings.TrimSpace(h.Get(s.Name)) == "" {
			return fmt.Errorf("no service key in %s", s.Name)
		}
	case s != nil && s.Type == "http" && strings.EqualFold(s.Scheme, "bearer"):
		token, ok := strings.CutPrefix(h.Get("Authorization"), "Bearer ")
		if !ok || strings.TrimSpace(token) == "" {
			return errors.New("no bearer token in Authorization")
		}
	default:
		return fmt.Errorf("unexpected security scheme %q", in.SecuritySchemeName)
	}
	return nil
}

func (c *contract) options() *openapi3filter.Options {
	return &openapi3filter.Options{AuthenticationFunc: keyAndBearerAuth, MultiError: true, IncludeResponseStatus: true}
}

// ValidateRequest checks a request (method, path, query, headers, body)
// against the contract. It returns the validation input to pass to
// ValidateResponse and the operation's id. req's body is left readable.
func (c *contract) ValidateRequest(ctx context.Context, req *http.Request) (*openapi3filter.RequestValidationInput, string, error) {
	var body []byte
	if req.Body != nil && req.Body != http.NoBody {
		b, err := io.ReadAll(req.Body)
		if err != nil {
			return nil, "", fmt.Errorf("read request body: %w", err)
		}
		req.Body.Close()
		body = b
		req.Body = io.NopCloser(bytes.NewReader(body))
	}
	// The validator reads its own copy of the request.
	vreq := req.Clone(ctx)
	if body != nil {
		vreq.Body = io.NopCloser(bytes.NewReader(body))
	}
	route, params, err := c.router.FindRoute(vreq)
	if err != nil {
		return nil, "", fmt.Errorf("%s %s: no such call in the contract: %w", req.Method, req.URL.Path, err)
	}
	in := &openapi3filter.RequestValidationInput{Request: vreq, PathParams: params, Route: route, Options: c.options()}
	op := route.Operation.OperationID
	if err := openapi3filter.ValidateRequest(ctx, in); err != nil {
		return in, op, fmt.Errorf("request of %s (%s %s) breaks the contract: %w", op, req.Method, req.URL.Path, err)
	}
	return in, op, nil
}

// ValidateResponse checks an answer (status, content type, body) against the
// contract of the request validated into in.
func (c *contract) ValidateResponse(ctx context.Context, in *openapi3filter.RequestValidationInput, status int, header http.Header, body []byte) error {
	out := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: in, Status: status, Header: header, Options: c.options(),
	}
	out.SetBodyBytes(body)
	if err := openapi3filter.ValidateResponse(ctx, out); err != nil {
		op := in.Route.Operation.OperationID
		return fmt.Errorf("answer of %s (HTTP %d) breaks the contract: %w\nbody: %s", op, status, err, clip(body))
	}
	return nil
}

// ValidateCall validates a request given by its parts, then an answer to it;
// answer may be nil to check the request alone. The request carries a
// service key unless header names the key's header itself.
func (c *contract) ValidateCall(method, target string, header http.Header, body []byte, answer *httptest.ResponseRecorder) error {
	ctx := context.Background()
	req := httptest.NewRequest(method, target, bytes.NewReader(body))
	req.Header.Set(gateway.ServiceKeyHeader, "contract-key")
	for k, v := range header {
		req.Header[k] = v
	}
	in, _, err := c.ValidateRequest(ctx, req)
	if err != nil || answer == nil {
		return err
	}
	return c.ValidateResponse(ctx, in, answer.Code, answer.Header(), answer.Body.Bytes())
}

func clip(b []byte) string {
	const n = 600
	if bytes.HasPrefix(b, []byte("%PDF-")) {
		return fmt.Sprintf("<PDF, %d bytes>", len(b))
	}
	if len(b) > n {
		return string(b[:n]) + "…"
	}
	return string(b)
}

// ---- the validating transport ----

// checkingTransport validates every request sent through it and every answer
// that comes back, and counts the operations seen.
type checkingTransport struct {
	t    testing.TB
	c    *contract
	next http.RoundTripper

	mu   sync.Mutex
	seen map[string]int
}

func (ct *checkingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	in, op, err := ct.c.ValidateRequest(ctx, req)
	if err != nil {
		ct.t.Errorf("client: %v", err)
	}
	if op != "" {
		ct.mu.Lock()
		ct.seen[op]++
		ct.mu.Unlock()
	}
	resp, err := ct.next.RoundTrip(req)
	if err != nil || in == nil {
		return resp, err
	}
	body, rerr := io.ReadAll(resp.Body)
	resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(body))
	if rerr != nil {
		return resp, nil // the client will see the short body
	}
	if err := ct.c.ValidateResponse(ctx, in, resp.StatusCode, resp.Header, body); err != nil {
		ct.t.Errorf("sandbox: %v", err)
	}
	return resp, nil
}

func (ct *checkingTransport) count(op string) int {
	ct.mu.Lock()
	defer ct.mu.Unlock()
	return ct.seen[op]
}

// ---- tests ----

// TestContractDocument: the document is valid OpenAPI 3.1 (examples
// included), names every call of the provider once, and its operation ids are the
// client's method names.
func TestContractDocument(t *testing.T) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromFile(contractFile)
	if err != nil {
		t.Fatal(err)
	}
	if err := doc.Validate(loader.Context); err != nil {
		t.Fatalf("invalid: %v", err)
	}
	if !doc.IsOpenAPI31OrLater() {
		t.Errorf("openapi %s, want 3.1", doc.OpenAPI)
	}
	if key := doc.Components.SecuritySchemes["serviceKey"]; key == nil || key.Value.Type != "apiKey" || key.Value.In != "header" || key.Value.Name != gateway.ServiceKeyHeader {
		t.Errorf("security scheme serviceKey %+v, want the header %s", key, gateway.ServiceKeyHeader)
	}
	if r := doc.Components.Responses["TooManyRequests"]; r == nil || r.Value.Headers["Retry-After"] == nil {
		t.Error("the 429 answer names no Retry-After")
	}
	if len(doc.Servers) != 1 || doc.Servers[0].URL != "/v1" {
		t.Errorf("servers %v, want one: /v1", doc.Servers)
	}
	var got []string
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			got = append(got, method+" "+strings.TrimPrefix(path, "/"))
			if op.OperationID == "" {
				t.Errorf("%s %s: no operationId", method, path)
			} else if _, ok := clientMethods[op.OperationID]; !ok {
				t.Errorf("%s %s: operationId %q is no method of gateway.Client", method, path, op.OperationID)
			}
			if op.Responses.Default() == nil {
				t.Errorf("%s %s: no default (error) answer", method, path)
			}
			var key, bearer bool
			if op.Security != nil && len(*op.Security) == 1 {
				_, key = (*op.Security)[0]["serviceKey"]
				_, bearer = (*op.Security)[0]["bearer"]
			}
			wantBearer := path == "/auth/getClientInfo" || path == "/auth/clientEditInfo"
			if !key || bearer != wantBearer {
				t.Errorf("%s %s: security %v, want the service key and a bearer token %v", method, path, op.Security, wantBearer)
			}
			if op.Responses.Status(http.StatusForbidden) == nil || op.Responses.Status(http.StatusTooManyRequests) == nil {
				t.Errorf("%s %s: no 403 (service refused) or 429 (too many calls) answer", method, path)
			}
		}
	}
	sort.Strings(got)
	want := slices.Clone(spec7)
	sort.Strings(want)
	if !slices.Equal(got, want) {
		t.Errorf("paths differ from the provider's calls:\n got %q\nwant %q", got, want)
	}
	for _, p := range []string{"/hotel/cancelOrder", "/hotel/getDates"} {
		rb := doc.Paths.Value(p).Post.RequestBody.Value
		if rb.Content.Get("application/x-www-form-urlencoded") == nil || rb.Content.Get("application/json") != nil {
			t.Errorf("%s: the body must be form data only", p)
		}
	}
}

// spec7 is the provider's table of calls.
var spec7 = []string{
	"POST auth/login2f", "POST auth/loginConfirm", "GET auth/getClientInfo", "PUT auth/clientEditInfo",
	"POST reg/registration",
	"GET GLK/getTimetableForCurrentClient", "GET GLK/getTimetable", "POST GLK/confirmLesson",
	"POST GLK/cancelRegistration", "POST GLK/changeLessonPeriod",
	"GET Rent/getPavilionRentTimetableForCurrentClient", "GET Rent/getPavilionRentTimetable",
	"POST Rent/cancelPavilionRent", "POST Rent/registerRefund", "POST Rent/changePavilionRentPeriod",
	"GET CelRooms/getCelRoomsTimetableForCurrentClient", "GET CelRooms/getCelRoomsTimetable",
	"POST CelRooms/cancelCelRoomRent", "POST CelRooms/registerRefund", "POST CelRooms/changeCelRoomRentPeriod",
	"GET aqua/getAquaOrders", "POST aqua/registerRefund1C", "POST aqua/transferTicket",
	"GET aqua/getSessionsAqua", "GET aqua/generatePdf",
	"GET hotel/getHotelOrders", "POST hotel/cancelOrder", "POST hotel/registerRefund",
	"POST hotel/getDates", "POST hotel/pushReservation", "GET hotel/generatePdf",
}

// clientMethods are the methods of gateway.Client named by operationIds
// (single-order fetches share the list call's operation).
var clientMethods = map[string]bool{
	"Login": true, "LoginConfirm": true, "ClientInfo": true, "EditClientInfo": true, "Register": true,
	"LessonOrders": true, "Timetable": true, "ConfirmLesson": true, "CancelLesson": true, "ChangeLesson": true,
	"PavilionOrders": true, "PavilionSchedule": true, "CancelPavilionRent": true, "RefundPavilion": true, "ChangePavilionRent": true,
	"RoomOrders": true, "RoomSchedule": true, "CancelRoomRent": true, "RefundRoom": true, "ChangeRoomRent": true,
	"AquaOrders": true, "RefundAqua": true, "TransferTickets": true, "AquaSessions": true, "AquaTicketPDF": true,
	"HotelOrders": true, "CancelHotelOrder": true, "RefundHotel": true, "HotelDates": true, "PushReservation": true, "HotelVoucherPDF": true,
}

// The client type must keep the methods the contract names.
var _ = []any{
	(*gateway.Client).Login, (*gateway.Client).LoginConfirm, (*gateway.Client).ClientInfo, (*gateway.Client).EditClientInfo,
	(*gateway.Client).Register, (*gateway.Client).LessonOrders, (*gateway.Client).LessonOrder, (*gateway.Client).Timetable,
	(*gateway.Client).ConfirmLesson, (*gateway.Client).CancelLesson, (*gateway.Client).ChangeLesson,
	(*gateway.Client).PavilionOrders, (*gateway.Client).PavilionOrder, (*gateway.Client).PavilionSchedule,
	(*gateway.Client).CancelPavilionRent, (*gateway.Client).RefundPavilion, (*gateway.Client).ChangePavilionRent,
	(*gateway.Client).RoomOrders, (*gateway.Client).RoomOrder, (*gateway.Client).RoomSchedule,
	(*gateway.Client).CancelRoomRent, (*gateway.Client).RefundRoom, (*gateway.Client).ChangeRoomRent,
	(*gateway.Client).AquaOrders, (*gateway.Client).AquaOrder, (*gateway.Client).RefundAqua, (*gateway.Client).TransferTickets,
	(*gateway.Client).AquaSessions, (*gateway.Client).AquaTicketPDF,
	(*gateway.Client).HotelOrders, (*gateway.Client).HotelOrder, (*gateway.Client).CancelHotelOrder, (*gateway.Client).RefundHotel,
	(*gateway.Client).HotelDates, (*gateway.Client).PushReservation, (*gateway.Client).HotelVoucherPDF,
}

// TestContractValidators: the validators have teeth. Each case breaks the
// contract in one way that a careless client or gateway might.
func TestContractValidators(t *testing.T) {
	c := loadContract(t, true)
	jsonH := http.Header{"Content-Type": {"application/json"}}
	formH := http.Header{"Content-Type": {"application/x-www-form-urlencoded"}}
	bearer := http.Header{"Authorization": {"Bearer abc"}}
	answer := func(status int, ctype, body string) *httptest.ResponseRecorder {
		w := httptest.NewRecorder()
		w.Header().Set("Content-Type", ctype)
		w.WriteHeader(status)
		w.WriteString(body)
		return w
	}
	const okAnswer = `{"success":true}`
	const ticket = `{"id":"T-1","ticketNumber":"1","title":"Взрослый","price":1500,"isChild":false,"status":"%s","session":"Дневной","productUID":"p","barcode":"b","eventDate":"06.02.2026 10:00:00"}`
	const order = `{"orderId":"A-1","dateBeg":"06.02.2026 10:00:00","regDate":"01.02.2026 10:00:00","amount":1500,"paymentAmount":0,"canceled":false,"paid":true,"canTransfer":true,"canCancel":true,"tickets":[` + ticket + `]}`

	good := []struct {
		name           string
		method, target string
		header         http.Header
		body           string
		answer         *httptest.ResponseRecorder
	}{
		{"login", "POST", "/v1/auth/login2f", jsonH, `{"login":"79000000000","typeLogin":1,"typeCode":1}`, answer(200, "application/json", okAnswer)},
		{"business failure", "POST", "/v1/auth/login2f", jsonH, `{"login":"79000000000","typeLogin":1,"typeCode":1,"resend":true}`,
			answer(200, "application/json; charset=utf-8", `{"success":false,"errorMessage":"Слишком много попыток"}`)},
		{"client info", "GET", "/v1/auth/getClientInfo", bearer, "",
			answer(200, "application/json", `{"hasErrors":false,"clientInfo":{"personalInfo":{"fio":"Иванов Иван","email":"","tel":"79000000000","birthdate":"","guid":"g","gender":""}}}`)},
		{"client info refused", "GET", "/v1/auth/getClientInfo", bearer, "",
			answer(200, "application/json", `{"hasErrors":true,"responseDescription":"Сессия истекла"}`)},
		{"aqua order", "GET", "/v1/aqua/getAquaOrders?userId=g&orderId=A-1&single=true", nil, "",
			answer(200, "application/json", `{"success":true,"currentOrder":`+fmt.Sprintf(order, "waitingForPaymant")+`}`)},
		{"null arrays", "GET", "/v1/GLK/getTimetableForCurrentClient?clientId=g", nil, "",
			answer(200, "application/json", `{"success":true,"timetable":null}`)},
		{"cancel by form", "POST", "/v1/hotel/cancelOrder", formH, "OrderId=H-1", answer(200, "application/json", okAnswer)},
		{"empty success", "POST", "/v1/hotel/cancelOrder", formH, "OrderId=H-1", answer(204, "", "")},
		{"server error", "GET", "/v1/aqua/getSessionsAqua?date=06.02.2026", nil, "",
			answer(503, "application/json", `{"success":false,"errorMessage":"Сервис недоступен"}`)},
		{"pdf", "GET", "/v1/aqua/generatePdf?orderId=A-1", nil, "", answer(200, "application/pdf", "%PDF-1.3\n…")},
		{"charset", "GET", "/v1/aqua/getSessionsAqua?date=06.02.2026", nil, "",
			answer(200, "application/json; charset=utf-8", `{"success":true,"result":[{"sessionId":"S","sessionTime":"10:00","availableCount":1,"name":"Дневной","endTime":"16:00"}]}`)},
		{"pdf refused", "GET", "/v1/aqua/generatePdf?orderId=A-1", nil, "", answer(200, "application/json", `{"success":false,"errorMessage":"Заказ не найден"}`)},
	}
	for _, tc := range good {
		if err := c.ValidateCall(tc.method, tc.target, tc.header, []byte(tc.body), tc.answer); err != nil {
			t.Errorf("%s: want valid, got %v", tc.name, err)
		}
	}

	bad := []struct {
		name           string
		method, target string
		header         http.Header
		body           string
		answer         *httptest.ResponseRecorder
	}{
		{"typeLogin 2", "POST", "/v1/auth/login2f", jsonH, `{"login":"79000000000","typeLogin":2,"typeCode":1}`, nil},
		{"phone with plus", "POST", "/v1/auth/login2f", jsonH, `{"login":"+79000000000","typeLogin":1,"typeCode":1}`, nil},
		{"code of 5 digits", "POST", "/v1/auth/loginConfirm", jsonH, `{"login":"79000000000","verifyCode":"12345"}`, nil},
		{"misspelt field", "POST", "/v1/GLK/confirmLesson", jsonH, `{"clientId":"g","lessonID":"L-1"}`, nil},
		{"no bearer", "GET", "/v1/auth/getClientInfo", nil, "", nil},
		{"no service key", "GET", "/v1/aqua/getSessionsAqua?date=06.02.2026", http.Header{gateway.ServiceKeyHeader: {""}}, "", nil},
		{"a bearer token but no service key", "GET", "/v1/auth/getClientInfo", http.Header{"Authorization": {"Bearer abc"}, gateway.ServiceKeyHeader: {""}}, "", nil},
		{"wrong method", "GET", "/v1/auth/login2f", nil, "", nil},
		{"unknown path", "GET", "/v1/aqua/getOrders?userId=g", nil, "", nil},
		{"missing clientId", "GET", "/v1/GLK/getTimetableForCurrentClient", nil, "", nil},
		{"single not boolean", "GET", "/v1/aqua/getAquaOrders?userId=g&single=yes", nil, "", nil},
		{"ISO date for sessions", "GET", "/v1/aqua/getSessionsAqua?date=2026-02-06", nil, "", nil},
		{"JSON for a form call", "POST", "/v1/hotel/cancelOrder", jsonH, `{"OrderId":"H-1"}`, nil},
		{"lower-case OrderId", "POST", "/v1/hotel/cancelOrder", formH, "orderId=H-1", nil},
		{"transfer date ISO", "POST", "/v1/aqua/transferTicket", jsonH, `{"orderId":"A-1","date":"2026-02-06","sessionId":"S"}`, nil},
		{"refund event date bare", "POST", "/v1/aqua/registerRefund1C", jsonH,
			`{"returnOrderId":"A-1","products":[{"productId":"p","barcode":"b","price":1,"name":"n","eventDate":"06.02.2026","positionNumber":"1"}]}`, nil},
		{"status spelt right", "GET", "/v1/aqua/getAquaOrders?userId=g&orderId=A-1&single=true", nil, "",
			answer(200, "application/json", `{"success":true,"currentOrder":`+fmt.Sprintf(order, "waitingForPayment")+`}`)},
		{"success without timetable", "GET", "/v1/GLK/getTimetableForCurrentClient?clientId=g", nil, "",
			answer(200, "application/json", `{"success":true}`)},
		{"success without token", "POST", "/v1/auth/loginConfirm", jsonH, `{"login":"79000000000","verifyCode":"1234"}`,
			answer(200, "application/json", `{"success":true}`)},
		{"ISO dateBeg", "GET", "/v1/aqua/getAquaOrders?userId=g", nil, "",
			answer(200, "application/json", `{"success":true,"activeOrders":[`+strings.Replace(fmt.Sprintf(order, "paid"), `"dateBeg":"06.02.2026 10:00:00"`, `"dateBeg":"2026-02-06T10:00:00"`, 1)+`]}`)},
		{"extra field in answer", "POST", "/v1/auth/login2f", jsonH, `{"login":"79000000000","typeLogin":1,"typeCode":1}`,
			answer(200, "application/json", `{"success":true,"Success":true}`)},
		{"rent id spelt iD_rent", "GET", "/v1/Rent/getPavilionRentTimetableForCurrentClient?clientId=g", nil, "",
			answer(200, "application/json", `{"success":true,"timetable":[{"pavilion_ID":"P","pavilion_Name":"n","hourBeg":"07.02.2026 12:00:00","hourEnd":"07.02.2026 13:00:00","amount":1,"cost":1,"client_ID":"g","details":[{"iD_rent":"R","cost":1,"hour":"2026-02-07T12:00:00","status":1,"regDate":"01.02.2026 10:00:00"}],"canTransfer":true,"canCancel":true}]}`)},
		{"HTML error page", "GET", "/v1/aqua/getSessionsAqua?date=06.02.2026", nil, "", answer(502, "text/html", "<html>Bad Gateway</html>")},
		{"PDF that is not one", "GET", "/v1/hotel/generatePdf?orderId=H-1", nil, "", answer(200, "application/pdf", "<html></html>")},
		{"charset, wrong shape", "GET", "/v1/aqua/getSessionsAqua?date=06.02.2026", nil, "",
			answer(200, "application/json; charset=utf-8", `{"success":true,"result":[{"sessionId":"S","sessionTime":"10:00:00","availableCount":1,"name":"Дневной","endTime":"16:00"}]}`)},
		{"error without success", "GET", "/v1/aqua/getSessionsAqua?date=06.02.2026", nil, "", answer(500, "application/json", `{"errorMessage":"x"}`)},
	}
	for _, tc := range bad {
		if err := c.ValidateCall(tc.method, tc.target, tc.header, []byte(tc.body), tc.answer); err == nil {
			t.Errorf("%s: the contract let it pass", tc.name)
		}
	}
}

// demoPhone is the sandbox's demo customer.
const demoPhone = "79000000000"

// TestContractSandbox drives every call of the contract through the gateway
// client against the sandbox, as the demo customer, validating each request
// and answer on the wire.
// The sandbox's answers have the documented shape, with its clock a minute
// before and a minute after midnight at the resort, so the calls of "today"
// are asked on both sides of it.
func TestContractSandbox(t *testing.T) {
	msk := gateway.ResortLocation()
	for _, now := range []time.Time{time.Date(2026, 11, 23, 23, 59, 0, 0, msk), time.Date(2026, 11, 24, 0, 1, 0, 0, msk)} {
		t.Run(now.Format("15:04"), func(t *testing.T) { contractSandbox(t, now) })
	}
}

func contractSandbox(t *testing.T, now time.Time) {
	c := loadContract(t, true)
	s, err := sandbox.New(sandbox.Config{Now: func() time.Time { return now }, ServiceKey: "contract-key"})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)

	ct := &checkingTransport{t: t, c: c, next: http.DefaultTransport, seen: map[string]int{}}
	cl, err := gateway.NewClient(srv.URL+"/v1",
		gateway.WithServiceKey("contract-key"),
		gateway.WithHTTPClient(&http.Client{Transport: ct}),
		gateway.WithRetries(0),
		gateway.WithBreaker(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	loc := gateway.ResortLocation()
	today := gateway.Day(now, loc)

	// must fails the test on an error that is not the provider saying no:
	// a refusal is a valid answer too, and its shape was checked on the wire.
	must := func(what string, err error) bool {
		t.Helper()
		if err == nil {
			return true
		}
		if pe, ok := errors.AsType[*gateway.ProviderError](err); ok {
			t.Logf("%s: refused: %s", what, pe.Message)
			return false
		}
		t.Errorf("%s: %v", what, err)
		return false
	}

	// ---- sign-in and profile ----
	if err := cl.Login(ctx, demoPhone, false); err != nil {
		t.Fatalf("login: %v", err)
	}
	code, ok := sandboxtest.LastCode(s, demoPhone)
	if !ok {
		t.Fatal("no SMS code in the sandbox's outbox")
	}
	if _, err := cl.LoginConfirm(ctx, demoPhone, wrongCode(code)); err == nil {
		t.Error("a wrong code was accepted")
	}
	token, err := cl.LoginConfirm(ctx, demoPhone, code)
	if err != nil {
		t.Fatalf("confirm login: %v", err)
	}
	me, err := cl.ClientInfo(ctx, token)
	if err != nil {
		t.Fatalf("client info: %v", err)
	}
	if _, err := cl.ClientInfo(ctx, token+"x"); err == nil {
		t.Error("a bad token was accepted")
	}
	guid := me.GUID
	upd := profileUpdate(me)
	must("edit client info", cl.EditClientInfo(ctx, token, upd))
	must("register", cl.Register(ctx, gateway.Registration{PhoneNumber: "79001112233", FirstName: "Пётр", LastName: "Петров"}))
	must("register again", cl.Register(ctx, gateway.Registration{PhoneNumber: "79001112233", FirstName: "Пётр", LastName: "Петров"}))
	form := gateway.RefundForm{
		Name: upd.FirstName, Surname: upd.LastName, SecondName: upd.MiddleName,
		Email: me.Email, Phone: me.Tel, Comment: "Болезнь ребёнка",
	}
	docs := []gateway.File{{FileName: "справка.pdf", FileExtension: "pdf", File: "JVBERi0xLjQK"}}

	// ---- ski lessons ----
	lessons, err := cl.LessonOrders(ctx, guid)
	must("lesson orders", err)
	if len(lessons) == 0 {
		t.Error("the demo customer has no lesson bookings")
	}
	if l, ok := pick(lessons, func(o gateway.LessonOrder) bool { return o.CanConfirm }); ok {
		must("confirm lesson", cl.ConfirmLesson(ctx, guid, l.DocID))
	} else {
		t.Error("no lesson booking that can be confirmed")
	}
	if len(lessons) > 0 {
		_, err := cl.LessonOrder(ctx, guid, lessons[0].DocID)
		must("lesson order", err)
	}
	if l, ok := pick(lessons, func(o gateway.LessonOrder) bool { return o.CanTransfer }); ok {
		moved := false
		start, _ := gateway.ParseDateTime(l.DateBeg, loc)
		for d := 0; d <= 30 && !moved; d++ {
			day := today.AddDate(0, 0, d)
			tt, err := cl.Timetable(ctx, gateway.TimetableQuery{TrainerID: l.TrainerID, Date: day, Age: l.AgeGroupHigh, Amount: 1})
			if !must("timetable", err) {
				break
			}
			for _, n := range tt {
				when, _ := gateway.ParseDateTime(n.DateBeg, loc)
				if n.KindOfSport != l.KindOfSport || when.Equal(start) || n.FreePlaces < 1 || !when.After(now) {
					continue
				}
				newID, err := cl.ChangeLesson(ctx, gateway.ChangeLessonRequest{
					ClientID: guid, LessonID: l.DocID, NewLessonID: n.LessonID, Amount: l.Cost,
					NewLessonDate: n.DateBeg, AgeGroupCode: l.AgeGroupHigh, ChildrenID: l.ChildID,
				})
				if must("change lesson", err) {
					if newID == "" {
						t.Log("change lesson: success without newLessonId")
					} else {
						_, err := cl.LessonOrder(ctx, guid, newID)
						must("moved lesson", err)
					}
				}
				moved = true
				break
			}
		}
		if !moved {
			t.Error("no lesson to move a booking to in 31 days")
		}
	} else {
		t.Error("no lesson booking that can be moved")
	}
	if lessons, err = cl.LessonOrders(ctx, guid); must("lesson orders", err) {
		if l, ok := pick(lessons, func(o gateway.LessonOrder) bool { return o.CanCancel }); ok {
			must("cancel lesson", cl.CancelLesson(ctx, gateway.CancelLessonRequest{ClientID: guid, LessonID: l.DocID, Sum: l.Cost}))
		} else {
			t.Error("no lesson booking that can be canceled")
		}
	}

	// ---- pavilions and celebration rooms ----
	rentContract(t, must, rentCalls[gateway.PavilionOrder]{
		kind: "pavilion",
		list: func() ([]gateway.PavilionOrder, error) { return cl.PavilionOrders(ctx, guid) },
		get:  func(id string) (gateway.PavilionOrder, error) { return cl.PavilionOrder(ctx, guid, id) },
		view: func(o gateway.PavilionOrder) rentView {
			return rentView{o.RentID(), o.PavilionID, o.HourBeg, o.Amount, o.Cost, o.CanTransfer, o.CanCancel}
		},
		schedule: func(id string, day time.Time) (gateway.Schedule, error) { return cl.PavilionSchedule(ctx, id, day) },
		move: func(o gateway.PavilionOrder, beg, end string) (string, error) {
			return cl.ChangePavilionRent(ctx, gateway.ChangePavilionRequest{ClientID: guid, RentID: o.RentID(), PavilionID: o.PavilionID,
				NewRentDateBeg: beg, NewRentDateEnd: end, Amount: o.Amount, PavilionName: o.PavilionName})
		},
		cancel: func(o gateway.PavilionOrder) error {
			return cl.CancelPavilionRent(ctx, gateway.CancelRentRequest{ClientID: guid, RentID: o.RentID(), Amount: o.Amount})
		},
		refund: func(o gateway.PavilionOrder, docs []gateway.File, f gateway.RefundForm) error {
			_, err := cl.RefundPavilion(ctx, gateway.PavilionRefundRequest{Documents: docs, RentItem: o, FormRefund: f})
			return err
		},
	}, today, loc, form, docs)
	rentContract(t, must, rentCalls[gateway.RoomOrder]{
		kind: "celebration-room",
		list: func() ([]gateway.RoomOrder, error) { return cl.RoomOrders(ctx, guid) },
		get:  func(id string) (gateway.RoomOrder, error) { return cl.RoomOrder(ctx, guid, id) },
		view: func(o gateway.RoomOrder) rentView {
			return rentView{o.RentID(), o.RoomID, o.HourBeg, o.Amount, o.Cost, o.CanTransfer, o.CanCancel}
		},
		schedule: func(id string, day time.Time) (gateway.Schedule, error) { return cl.RoomSchedule(ctx, id, day) },
		move: func(o gateway.RoomOrder, beg, end string) (string, error) {
			return cl.ChangeRoomRent(ctx, gateway.ChangeRoomRequest{ClientID: guid, RentID: o.RentID(), CelRoomID: o.RoomID,
				NewRentDateBeg: beg, NewRentDateEnd: end, Amount: o.Amount, CelRoomName: o.RoomName})
		},
		cancel: func(o gateway.RoomOrder) error {
			return cl.CancelRoomRent(ctx, gateway.CancelRentRequest{ClientID: guid, RentID: o.RentID(), Amount: o.Amount})
		},
		refund: func(o gateway.RoomOrder, docs []gateway.File, f gateway.RefundForm) error {
			_, err := cl.RefundRoom(ctx, gateway.RoomRefundRequest{Documents: docs, RentItem: o, FormRefund: f})
			return err
		},
	}, today, loc, form, docs)

	// ---- water park ----
	aquaActive, aquaHistory, err := cl.AquaOrders(ctx, guid)
	must("aqua orders", err)
	aqua := append(slices.Clone(aquaActive), aquaHistory...)
	if len(aqua) == 0 {
		t.Error("the demo customer has no water-park orders")
	}
	if len(aqua) > 0 {
		_, err := cl.AquaOrder(ctx, guid, aqua[0].OrderID)
		must("aqua order", err)
	}
	if _, err := cl.AquaOrder(ctx, guid, "no-such-order"); err == nil {
		t.Error("a missing water-park order was found")
	}
	printable := func(o gateway.AquaOrder) bool {
		return !o.Canceled && o.Paid && !slices.ContainsFunc(o.Tickets, func(t gateway.Ticket) bool { return t.Status == gateway.TicketWaiting })
	}
	if o, ok := pick(aqua, printable); ok {
		b, err := cl.AquaTicketPDF(ctx, o.OrderID)
		if must("aqua ticket pdf", err) && !bytes.HasPrefix(b, []byte("%PDF-")) {
			t.Error("aqua ticket: not a PDF")
		}
	} else {
		t.Error("no water-park order with a printable ticket")
	}
	if _, err := cl.AquaTicketPDF(ctx, "no-such-order"); err == nil {
		t.Error("a PDF of a missing order")
	}
	if o, ok := pick(aqua, func(o gateway.AquaOrder) bool { return o.CanTransfer && !o.Canceled }); ok {
		transferred := false
		visit, _ := gateway.ParseDateTime(o.DateBeg, loc)
		vip := slices.ContainsFunc(o.Tickets, func(t gateway.Ticket) bool {
			return strings.Contains(t.Session, "VIP") || strings.Contains(t.Title, "VIP")
		})
		for d := 1; d <= 30 && !transferred; d++ {
			day := today.AddDate(0, 0, d)
			if isWeekend(day) != isWeekend(visit) || day.Equal(gateway.Day(visit, loc)) {
				continue
			}
			sessions, err := cl.AquaSessions(ctx, day)
			if !must("aqua sessions", err) {
				break
			}
			for _, ss := range sessions {
				if strings.Contains(ss.Name, "VIP") == vip && ss.AvailableCount >= len(o.Tickets) {
					must("transfer tickets", cl.TransferTickets(ctx, gateway.TransferTicketRequest{
						OrderID: o.OrderID, Date: gateway.FormatDate(day, loc), SessionID: ss.SessionID,
					}))
					transferred = true
					break
				}
			}
		}
		if !transferred {
			t.Error("no water-park session to move tickets to")
		}
	} else {
		t.Error("no water-park order that can be moved")
	}
	if aquaActive, aquaHistory, err = cl.AquaOrders(ctx, guid); must("aqua orders", err) {
		refunded := 0
		for _, o := range append(slices.Clone(aquaActive), aquaHistory...) {
			if o.Canceled || refunded == 2 {
				continue
			}
			var products []gateway.RefundProduct
			for i, tk := range o.Tickets {
				if tk.Status != gateway.TicketPaid {
					continue
				}
				ev, err := gateway.ParseDateTime(cmpOr(tk.EventDate, o.DateBeg), loc)
				if err != nil {
					t.Errorf("ticket %s: eventDate %q: %v", tk.ID, tk.EventDate, err)
				}
				products = append(products, gateway.RefundProduct{
					ProductID: tk.ProductUID, Barcode: tk.Barcode, Price: tk.Price, Name: tk.Title,
					EventDate: "Дата: " + gateway.FormatDate(ev, loc), PositionNumber: strconv.Itoa(i + 1),
				})
			}
			if len(products) == 0 {
				continue
			}
			r := gateway.AquaRefundRequest{ReturnOrderID: o.OrderID, Products: products[:1]}
			if !startsAfter(o.DateBeg, today, loc) { // on or after the visit: moderation
				f := form
				f.OrderID = o.OrderID
				r.Documents, r.FormRefund = docs, &f
			}
			_, err := cl.RefundAqua(ctx, r)
			must("refund aqua", err)
			refunded++
		}
		if refunded == 0 {
			t.Error("no water-park ticket that can be returned")
		}
	}

	// ---- hotel ----
	hotelActive, hotelHistory, err := cl.HotelOrders(ctx, guid)
	must("hotel orders", err)
	hotel := append(slices.Clone(hotelActive), hotelHistory...)
	if len(hotel) == 0 {
		t.Error("the demo customer has no hotel orders")
	}
	if len(hotel) > 0 {
		_, err := cl.HotelOrder(ctx, guid, hotel[0].OrderID)
		must("hotel order", err)
	}
	if o, ok := pick(hotel, func(o gateway.HotelOrder) bool { return !o.Canceled && o.Paid }); ok {
		b, err := cl.HotelVoucherPDF(ctx, o.OrderID)
		if must("hotel voucher pdf", err) && !bytes.HasPrefix(b, []byte("%PDF-")) {
			t.Error("hotel voucher: not a PDF")
		}
	} else {
		t.Error("no paid hotel order for a voucher")
	}
	from := time.Date(today.Year(), today.Month(), 1, 0, 0, 0, 0, loc)
	days, err := cl.HotelDates(ctx, from, from.AddDate(0, 2, -1))
	must("hotel dates", err)
	if len(days) == 0 {
		t.Error("no hotel availability")
	}
	if o, ok := pick(hotel, func(o gateway.HotelOrder) bool { return o.CanTransfer && !o.Canceled }); ok {
		in, _ := gateway.ParseDateTime(o.HourBeg, loc)
		out, _ := gateway.ParseDateTime(o.HourEnd, loc)
		nights := max(int(gateway.Day(out, loc).Sub(gateway.Day(in, loc)).Hours()/24+0.5), 1)
		if start, ok := hotelWindow(days, today, nights, len(o.Rooms), len(o.FamilyRooms), gateway.Day(in, loc), loc); ok {
			_, err := cl.PushReservation(ctx, gateway.PushReservationRequest{
				OrderID:    o.OrderID,
				NewDateIn:  gateway.FormatISO(start.Add(16*time.Hour), loc),
				NewDateOut: gateway.FormatISO(start.AddDate(0, 0, nights).Add(14*time.Hour), loc),
			})
			must("push reservation", err)
		} else {
			t.Error("no free hotel dates to move a booking to")
		}
	} else {
		t.Error("no hotel order that can be moved")
	}
	if hotelActive, _, err = cl.HotelOrders(ctx, guid); must("hotel orders", err) {
		var cancelable []gateway.HotelOrder
		for _, o := range hotelActive {
			if o.CanCancel && !o.Canceled {
				cancelable = append(cancelable, o)
			}
		}
		if len(cancelable) > 0 {
			o := cancelable[0]
			f := form
			f.OrderID = o.OrderID
			r := gateway.HotelRefundRequest{OrderID: o.OrderID, FormRefund: f}
			if !startsAfter(o.HourBeg, today, loc) {
				r.Documents = docs
			}
			_, err := cl.RefundHotel(ctx, r)
			must("refund hotel", err)
		}
		if len(cancelable) > 1 {
			must("cancel hotel order", cl.CancelHotelOrder(ctx, cancelable[1].OrderID))
		} else {
			t.Logf("only %d hotel orders can be canceled", len(cancelable))
			if len(hotel) > 0 {
				must("cancel hotel order", cl.CancelHotelOrder(ctx, hotel[len(hotel)-1].OrderID))
			}
		}
	}

	// ---- the provider failing: a non-2xx JSON error answer ----
	s.SetFault("aqua/getSessionsAqua", sandbox.Fault{Status: http.StatusServiceUnavailable, Times: 1})
	if _, err := cl.AquaSessions(ctx, today); err == nil {
		t.Error("a 503 from the provider was taken for success")
	}

	// ---- coverage ----
	var missing []string
	for _, item := range c.doc.Paths.Map() {
		for _, op := range item.Operations() {
			if ct.count(op.OperationID) == 0 {
				missing = append(missing, op.OperationID)
			}
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("calls of the contract never exercised: %v", missing)
	}
	total := 0
	for _, n := range ct.seen {
		total += n
	}
	t.Logf("%d requests and answers validated, %d of %d calls covered", total, len(ct.seen), c.doc.Paths.Len())
}

// ---- helpers of the end-to-end test ----

func pick[T any](list []T, f func(T) bool) (T, bool) {
	if i := slices.IndexFunc(list, f); i >= 0 {
		return list[i], true
	}
	var zero T
	return zero, false
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func wrongCode(code string) string {
	if code == "0000" {
		return "1111"
	}
	return "0000"
}

func isWeekend(t time.Time) bool { return t.Weekday() == time.Saturday || t.Weekday() == time.Sunday }

// startsAfter tells whether a provider date-time falls after today.
func startsAfter(s string, today time.Time, loc *time.Location) bool {
	t, err := gateway.ParseDateTime(s, loc)
	return err == nil && !gateway.Day(t, loc).Before(today.AddDate(0, 0, 1))
}

// activeRents lists the indexes of rents that start after today and may be canceled.

// rentView is what the contract reads of a rent, of either kind.
type rentView struct {
	id, facility, beg      string
	amount, cost           float64
	canTransfer, canCancel bool
}

// rentCalls are the client's calls for one kind of rent, bound to the demo
// customer.
type rentCalls[O any] struct {
	kind     string
	list     func() ([]O, error)
	get      func(id string) (O, error)
	view     func(O) rentView
	schedule func(facility string, day time.Time) (gateway.Schedule, error)
	move     func(o O, beg, end string) (newID string, err error)
	cancel   func(O) error
	refund   func(o O, docs []gateway.File, f gateway.RefundForm) error
}

// rentContract lists the rents of one kind and reads one; moves one that
// can be moved to free hours and reads it under its new id; cancels a rent
// that has not started and refunds another, if there is one; and refunds a
// past one, if there is one, with a reason and documents.
func rentContract[O any](t *testing.T, must func(string, error) bool, rc rentCalls[O], today time.Time, loc *time.Location, form gateway.RefundForm, docs []gateway.File) {
	t.Helper()
	list, err := rc.list()
	must(rc.kind+" orders", err)
	if len(list) == 0 {
		t.Errorf("the demo customer has no %s rents", rc.kind)
	} else {
		_, err := rc.get(rc.view(list[0]).id)
		must(rc.kind+" order", err)
	}
	if o, ok := pick(list, func(o O) bool { return rc.view(o).canTransfer }); ok {
		v := rc.view(o)
		beg, end, ok := freeSlot(t, loc, today, int(v.amount/max(v.cost, 1)), func(day time.Time) (gateway.Schedule, error) {
			return rc.schedule(v.facility, day)
		})
		if ok {
			newID, err := rc.move(o, gateway.FormatISO(beg, loc), gateway.FormatISO(end, loc))
			if must("change "+rc.kind+" rent", err) {
				if newID == "" {
					t.Errorf("change %s rent: success without newRentId", rc.kind)
				} else {
					_, err := rc.get(newID)
					must("moved "+rc.kind+" rent", err)
				}
			}
		}
	} else {
		t.Errorf("no %s rent that can be moved", rc.kind)
	}
	if list, err = rc.list(); !must(rc.kind+" orders", err) {
		return
	}
	var active []O
	for _, o := range list {
		if v := rc.view(o); v.canCancel && startsAfter(v.beg, today, loc) {
			active = append(active, o)
		}
	}
	if len(active) > 0 {
		must("cancel "+rc.kind+" rent", rc.cancel(active[0]))
	} else {
		t.Errorf("no %s rent that can be canceled", rc.kind)
	}
	if len(active) > 1 {
		f := form
		f.OrderID = rc.view(active[1]).id
		must("refund "+rc.kind, rc.refund(active[1], nil, f))
	}
	if o, ok := pick(list, func(o O) bool { return !startsAfter(rc.view(o).beg, today, loc) }); ok {
		f := form
		f.OrderID = rc.view(o).id
		must("refund past "+rc.kind+" rent", rc.refund(o, docs, f))
	}
}

// profileUpdate builds the profile form from the profile, as the edit page does.
func profileUpdate(p gateway.PersonalInfo) gateway.ProfileUpdate {
	f := strings.Fields(p.FIO)
	for len(f) < 3 {
		f = append(f, "")
	}
	u := gateway.ProfileUpdate{
		LastName: cmpOr(f[0], "Иванов"), FirstName: cmpOr(f[1], "Иван"), MiddleName: strings.Join(f[2:], " "),
		Gender: cmpOr(p.Gender, "MALE"), Birthday: "01.01.1990", PhoneNumber: p.Tel, UserID: p.GUID,
	}
	if b, err := gateway.ParseBirthdate(p.Birthdate, nil); err == nil && p.Birthdate != "" {
		u.Birthday = gateway.FormatDate(b, nil)
	}
	u.MiddleName = strings.TrimSpace(u.MiddleName)
	return u
}

// freeSlot finds hours consecutive free hours on a day from tomorrow on.
func freeSlot(t *testing.T, loc *time.Location, today time.Time, hours int, day func(time.Time) (gateway.Schedule, error)) (beg, end time.Time, ok bool) {
	t.Helper()
	hours = max(hours, 1)
	for d := 1; d <= 30; d++ {
		sch, err := day(today.AddDate(0, 0, d))
		if err != nil {
			if !errors.Is(err, gateway.ErrNotFound) {
				t.Errorf("schedule: %v", err)
				return
			}
			continue
		}
		for _, h := range sch.Details {
			first, err := gateway.ParseISO(h.Hour, loc)
			if err != nil {
				t.Errorf("schedule hour %q: %v", h.Hour, err)
				return
			}
			last := first.Add(time.Duration(hours-1) * time.Hour)
			if gateway.CheckSlotPeriod(sch, first, last, float64(hours)*sch.Cost) == nil {
				return first, last.Add(time.Hour), true
			}
		}
	}
	t.Errorf("no %d free consecutive hours in 30 days", hours)
	return
}

// hotelWindow finds a start day from tomorrow on with nights available nights.
func hotelWindow(days []gateway.HotelDay, today time.Time, nights, rooms, family int, not time.Time, loc *time.Location) (time.Time, bool) {
	free := map[string]bool{}
	for _, d := range days {
		free[d.Period] = d.Vacant >= rooms && d.Family >= family
	}
	for s := 1; s <= 45; s++ {
		start := today.AddDate(0, 0, s)
		if start.Equal(not) {
			continue
		}
		okAll := true
		for n := range nights {
			if !free[gateway.FormatISODate(start.AddDate(0, 0, n), loc)] {
				okAll = false
				break
			}
		}
		if okAll {
			return start, true
		}
	}
	return time.Time{}, false
}
