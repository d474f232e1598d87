package gateway

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// One method per call of the provider. Errors: ErrUnavailable, ErrMalformed,
// ErrNotFound, ErrUnauthorized (wrapped) or *ProviderError.
//
// Single-order fetches check that the order that came back is the one asked
// for (by its id) and answer ErrNotFound otherwise, so a page never shows
// another order under this one's URL. Ownership is the caller's part: pass the
// session's own client id, never one from the request. The PDF calls take
// only an order id, so fetch the order with the session's id first.

// doAs runs cl and decodes its answer into a fresh T; check may inspect it.
func doAs[T any](ctx context.Context, c *Client, cl call, check func(*T) error) (T, error) {
	var out T
	var after func() error
	if check != nil {
		after = func() error { return check(&out) }
	}
	err := c.do(ctx, cl, &out, after)
	return out, err
}

// missing refuses a call whose key argument is empty: an empty clientId
// might make the provider answer, or act, for everybody. Reads and writes
// alike refuse it before anything is sent.
func missing(op, name string) error {
	return fmt.Errorf("gateway: %s: %s is empty", op, name)
}

// orders names where a customer's orders of one kind are read: the path and
// the query key that says whose they are ("clientId" or "userId").
type orders struct{ path, owner string }

// list reads every order of ownerID.
func list[A any](ctx context.Context, c *Client, op string, o orders, ownerID string) (A, error) {
	if ownerID == "" {
		var a A
		return a, missing(op, o.owner)
	}
	return doAs[A](ctx, c, call{op: op, method: http.MethodGet, path: o.path,
		query: url.Values{o.owner: {ownerID}}}, nil)
}

// one reads the single order whose id (under key in the query) is id; pick
// finds it in the answer and says false when the answer holds another one.
func one[A, O any](ctx context.Context, c *Client, op string, o orders, ownerID, key, id string, pick func(*A) (O, bool)) (O, error) {
	var found O
	if ownerID == "" {
		return found, missing(op, o.owner)
	}
	if id == "" {
		return found, opError(op, ErrNotFound, nil)
	}
	_, err := doAs(ctx, c, call{op: op, method: http.MethodGet, path: o.path,
		query: url.Values{o.owner: {ownerID}, key: {id}, "single": {"true"}},
	}, func(a *A) error {
		var ok bool
		if found, ok = pick(a); !ok {
			return ErrNotFound
		}
		return nil
	})
	if err != nil {
		var zero O
		return zero, err
	}
	return found, nil
}

// byID picks the order whose id is id out of a list.
func byID[O any](list []O, id string, idOf func(O) string) (O, bool) {
	for _, o := range list {
		if idOf(o) == id {
			return o, true
		}
	}
	var zero O
	return zero, false
}

// current picks the provider's currentOrder when it is the one asked for.
func current[O any](o *O, id string, idOf func(O) string) (O, bool) {
	if o == nil || idOf(*o) != id {
		var zero O
		return zero, false
	}
	return *o, true
}

// forClient runs a write on behalf of clientID, refused before anything is
// sent when it is empty; its answer is not read.
func (c *Client) forClient(ctx context.Context, clientID string, cl call) error {
	if clientID == "" {
		return missing(cl.op, "clientId")
	}
	return c.do(ctx, cl, nil, nil)
}

// asClient is forClient for a write whose answer is decoded into A.
func asClient[A any](ctx context.Context, c *Client, clientID string, cl call) (A, error) {
	if clientID == "" {
		var a A
		return a, missing(cl.op, "clientId")
	}
	return doAs[A](ctx, c, cl, nil)
}

var (
	lessonOrders   = orders{"GLK/getTimetableForCurrentClient", "clientId"}
	pavilionOrders = orders{"Rent/getPavilionRentTimetableForCurrentClient", "clientId"}
	roomOrders     = orders{"CelRooms/getCelRoomsTimetableForCurrentClient", "clientId"}
	aquaOrders     = orders{"aqua/getAquaOrders", "userId"}
	hotelOrders    = orders{"hotel/getHotelOrders", "userId"}
)

// ---- auth and registration ----

// Login asks the provider to send an SMS code to phone (digits, 79001234567);
// resend asks for a new one.
func (c *Client) Login(ctx context.Context, phone string, resend bool) error {
	const op = "login"
	return c.do(ctx, call{op: op, method: http.MethodPost, path: "auth/login2f",
		json:  LoginRequest{Login: phone, TypeLogin: 1, TypeCode: 1, Resend: resend},
		attrs: []slog.Attr{slog.String("phone", MaskPhone(phone))},
	}, nil, nil)
}

// LoginConfirm exchanges the SMS code for the provider's token. A wrong code
// is a *ProviderError.
func (c *Client) LoginConfirm(ctx context.Context, phone, code string) (string, error) {
	const op = "confirm login"
	a, err := doAs(ctx, c, call{op: op, method: http.MethodPost, path: "auth/loginConfirm",
		json:  LoginConfirmRequest{Login: phone, VerifyCode: code},
		attrs: []slog.Attr{slog.String("phone", MaskPhone(phone))},
	}, func(a *LoginConfirmAnswer) error {
		if a.Token == "" {
			return fmt.Errorf("%w: success without a token", ErrMalformed)
		}
		return nil
	})
	return a.Token, err
}

// ClientInfo fetches the customer's personal data with the session's token.
// hasErrors is a *ProviderError carrying responseDescription.
func (c *Client) ClientInfo(ctx context.Context, token string) (PersonalInfo, error) {
	const op = "get client info"
	if token == "" {
		return PersonalInfo{}, opError(op, ErrUnauthorized, nil)
	}
	a, err := doAs(ctx, c, call{op: op, method: http.MethodGet, path: "auth/getClientInfo", token: token},
		func(a *ClientInfoAnswer) error {
			if a.ClientInfo == nil {
				return fmt.Errorf("%w: no clientInfo", ErrMalformed)
			}
			return nil
		})
	if err != nil {
		return PersonalInfo{}, err
	}
	return a.ClientInfo.PersonalInfo, nil
}

// EditClientInfo saves the customer's personal data.
func (c *Client) EditClientInfo(ctx context.Context, token string, p ProfileUpdate) error {
	const op = "edit client info"
	if token == "" {
		return opError(op, ErrUnauthorized, nil)
	}
	if p.UserID == "" {
		return missing(op, "userId")
	}
	return c.do(ctx, call{op: op, method: http.MethodPut, path: "auth/clientEditInfo", token: token, json: p,
		attrs: []slog.Attr{slog.String("phone", MaskPhone(p.PhoneNumber))}}, nil, nil)
}

// Register signs a customer up; the provider then sends an SMS code.
func (c *Client) Register(ctx context.Context, r Registration) error {
	r.TypeCode = 1
	return c.do(ctx, call{op: "register", method: http.MethodPost, path: "reg/registration", json: r,
		attrs: []slog.Attr{slog.String("phone", MaskPhone(r.PhoneNumber))}}, nil, nil)
}

// ---- ski lessons (GLK) ----

// LessonOrders lists the customer's lesson bookings.
func (c *Client) LessonOrders(ctx context.Context, clientID string) ([]LessonOrder, error) {
	a, err := list[LessonsAnswer](ctx, c, "get lesson orders", lessonOrders, clientID)
	return a.Timetable, err
}

// LessonOrder fetches one lesson booking by its doc_ID.
func (c *Client) LessonOrder(ctx context.Context, clientID, lessonID string) (LessonOrder, error) {
	return one(ctx, c, "get lesson order", lessonOrders, clientID, "lessonId", lessonID,
		func(a *LessonsAnswer) (LessonOrder, bool) {
			return byID(a.Timetable, lessonID, func(o LessonOrder) string { return o.DocID })
		})
}

// TimetableQuery selects an instructor's lessons on a day.
type TimetableQuery struct {
	TrainerID string
	Date      time.Time
	Age       string // age group code, optional
	Amount    int    // places wanted, optional
}

// Timetable lists an instructor's lessons a booking can move to.
func (c *Client) Timetable(ctx context.Context, q TimetableQuery) ([]Lesson, error) {
	v := url.Values{"trainerId": {q.TrainerID}, "date": {FormatDate(q.Date, c.loc)}}
	if q.Age != "" {
		v.Set("age", q.Age)
	}
	if q.Amount > 0 {
		v.Set("amount", strconv.Itoa(q.Amount))
	}
	a, err := doAs[TimetableAnswer](ctx, c, call{op: "get timetable", method: http.MethodGet,
		path: "GLK/getTimetable", query: v, common: true}, nil)
	return a.Timetable, err
}

// ConfirmLesson confirms a booking (its doc_ID).
func (c *Client) ConfirmLesson(ctx context.Context, clientID, lessonID string) error {
	return c.forClient(ctx, clientID, call{op: "confirm lesson", method: http.MethodPost, path: "GLK/confirmLesson",
		json: ConfirmLessonRequest{ClientID: clientID, LessonID: lessonID}})
}

// CancelLesson cancels a booking.
func (c *Client) CancelLesson(ctx context.Context, r CancelLessonRequest) error {
	return c.forClient(ctx, r.ClientID, call{op: "cancel lesson", method: http.MethodPost, path: "GLK/cancelRegistration",
		json: r, emptyOK: true})
}

// ChangeLesson moves a booking to another lesson and returns the new
// booking's doc_ID ("" when the provider does not say).
func (c *Client) ChangeLesson(ctx context.Context, r ChangeLessonRequest) (string, error) {
	a, err := asClient[ChangeLessonAnswer](ctx, c, r.ClientID, call{op: "change lesson", method: http.MethodPost,
		path: "GLK/changeLessonPeriod", json: r})
	return a.NewLessonID, err
}

// ---- pavilion rents ----

// PavilionOrders lists the customer's pavilion rents.
func (c *Client) PavilionOrders(ctx context.Context, clientID string) ([]PavilionOrder, error) {
	a, err := list[PavilionOrdersAnswer](ctx, c, "get pavilion orders", pavilionOrders, clientID)
	return a.Timetable, err
}

// PavilionOrder fetches one pavilion rent by its rentId (iD_Rent).
func (c *Client) PavilionOrder(ctx context.Context, clientID, rentID string) (PavilionOrder, error) {
	return one(ctx, c, "get pavilion order", pavilionOrders, clientID, "rentId", rentID,
		func(a *PavilionOrdersAnswer) (PavilionOrder, bool) {
			return byID(a.Timetable, rentID, PavilionOrder.RentID)
		})
}

// PavilionSchedule fetches a pavilion's hours on date; ErrNotFound when the
// provider has no day to offer.
func (c *Client) PavilionSchedule(ctx context.Context, pavilionID string, date time.Time) (Schedule, error) {
	return c.schedule(ctx, "get pavilion schedule", "Rent/getPavilionRentTimetable",
		url.Values{"pavilionId": {pavilionID}, "date": {FormatDate(date, c.loc)}})
}

func (c *Client) schedule(ctx context.Context, op, path string, q url.Values) (Schedule, error) {
	a, err := doAs(ctx, c, call{op: op, method: http.MethodGet, path: path, query: q, common: true},
		func(a *ScheduleAnswer) error {
			if len(a.Timetable) == 0 {
				return ErrNotFound
			}
			return nil
		})
	if err != nil {
		return Schedule{}, err
	}
	return a.Timetable[0], nil
}

// CancelPavilionRent cancels a pavilion rent.
func (c *Client) CancelPavilionRent(ctx context.Context, r CancelRentRequest) error {
	return c.forClient(ctx, r.ClientID, call{op: "cancel pavilion rent", method: http.MethodPost, path: "Rent/cancelPavilionRent",
		json: r, emptyOK: true})
}

// RefundPavilion registers a refund request and returns the provider's
// message ("" when it gives none).
func (c *Client) RefundPavilion(ctx context.Context, r PavilionRefundRequest) (string, error) {
	var docs []File
	r.Documents, docs = withDocuments(r.Documents)
	return c.refund(ctx, "refund pavilion", "Rent/registerRefund", r, docs)
}

// refund sends body, whose documents are withDocuments' placeholder, with
// docs streamed in its place.
func (c *Client) refund(ctx context.Context, op, path string, body any, docs []File) (string, error) {
	a, err := doAs[Answer](ctx, c, call{op: op, method: http.MethodPost, path: path, json: body, files: docs, emptyOK: true}, nil)
	return a.Message, err
}

// ChangePavilionRent moves a rent to other hours and returns the new rent's id.
func (c *Client) ChangePavilionRent(ctx context.Context, r ChangePavilionRequest) (string, error) {
	a, err := asClient[ChangeRentAnswer](ctx, c, r.ClientID, call{op: "change pavilion rent", method: http.MethodPost,
		path: "Rent/changePavilionRentPeriod", json: r})
	return a.NewRentID, err
}

// ---- celebration-room rents ----

// RoomOrders lists the customer's celebration-room rents.
func (c *Client) RoomOrders(ctx context.Context, clientID string) ([]RoomOrder, error) {
	a, err := list[RoomOrdersAnswer](ctx, c, "get room orders", roomOrders, clientID)
	return a.Timetable, err
}

// RoomOrder fetches one celebration-room rent by its rentId.
func (c *Client) RoomOrder(ctx context.Context, clientID, rentID string) (RoomOrder, error) {
	return one(ctx, c, "get room order", roomOrders, clientID, "rentId", rentID,
		func(a *RoomOrdersAnswer) (RoomOrder, bool) { return byID(a.Timetable, rentID, RoomOrder.RentID) })
}

// RoomSchedule fetches a celebration room's hours on date.
func (c *Client) RoomSchedule(ctx context.Context, celRoomID string, date time.Time) (Schedule, error) {
	return c.schedule(ctx, "get room schedule", "CelRooms/getCelRoomsTimetable",
		url.Values{"celRoomId": {celRoomID}, "date": {FormatDate(date, c.loc)}})
}

// CancelRoomRent cancels a celebration-room rent.
func (c *Client) CancelRoomRent(ctx context.Context, r CancelRentRequest) error {
	return c.forClient(ctx, r.ClientID, call{op: "cancel room rent", method: http.MethodPost, path: "CelRooms/cancelCelRoomRent",
		json: r, emptyOK: true})
}

// RefundRoom registers a refund request and returns the provider's message.
func (c *Client) RefundRoom(ctx context.Context, r RoomRefundRequest) (string, error) {
	var docs []File
	r.Documents, docs = withDocuments(r.Documents)
	return c.refund(ctx, "refund room", "CelRooms/registerRefund", r, docs)
}

// ChangeRoomRent moves a rent to other hours and returns the new rent's id.
func (c *Client) ChangeRoomRent(ctx context.Context, r ChangeRoomRequest) (string, error) {
	a, err := asClient[ChangeRentAnswer](ctx, c, r.ClientID, call{op: "change room rent", method: http.MethodPost,
		path: "CelRooms/changeCelRoomRentPeriod", json: r})
	return a.NewRentID, err
}

// ---- water park ----

// AquaOrders lists the customer's water-park orders as the provider splits them.
func (c *Client) AquaOrders(ctx context.Context, userID string) (active, history []AquaOrder, err error) {
	a, err := list[AquaOrdersAnswer](ctx, c, "get aqua orders", aquaOrders, userID)
	return a.ActiveOrders, a.HistoryOrders, err
}

// AquaOrder fetches one water-park order; ErrNotFound when currentOrder is null.
func (c *Client) AquaOrder(ctx context.Context, userID, orderID string) (AquaOrder, error) {
	return one(ctx, c, "get aqua order", aquaOrders, userID, "orderId", orderID,
		func(a *AquaOrdersAnswer) (AquaOrder, bool) {
			return current(a.CurrentOrder, orderID, func(o AquaOrder) string { return o.OrderID })
		})
}

// RefundAqua registers a refund of tickets and returns the provider's message.
func (c *Client) RefundAqua(ctx context.Context, r AquaRefundRequest) (string, error) {
	var docs []File
	r.Documents, docs = withDocuments(r.Documents) // [] is omitted
	return c.refund(ctx, "refund aqua", "aqua/registerRefund1C", r, docs)
}

// TransferTickets moves an order's tickets to another date and session.
func (c *Client) TransferTickets(ctx context.Context, r TransferTicketRequest) error {
	return c.do(ctx, call{op: "transfer tickets", method: http.MethodPost, path: "aqua/transferTicket", json: r}, nil, nil)
}

// AquaSessions lists the water park's sessions on date.
func (c *Client) AquaSessions(ctx context.Context, date time.Time) ([]AquaSession, error) {
	a, err := doAs[AquaSessionsAnswer](ctx, c, call{op: "get aqua sessions", method: http.MethodGet,
		path: "aqua/getSessionsAqua", query: url.Values{"date": {FormatDate(date, c.loc)}}, common: true}, nil)
	return a.Result, err
}

// AquaTicketPDF fetches the order's tickets as a PDF.
func (c *Client) AquaTicketPDF(ctx context.Context, orderID string) ([]byte, error) {
	return c.pdf(ctx, "get aqua ticket pdf", "aqua/generatePdf", orderID)
}

func (c *Client) pdf(ctx context.Context, op, path, orderID string) ([]byte, error) {
	if orderID == "" {
		return nil, opError(op, ErrNotFound, nil)
	}
	var b []byte
	err := c.do(ctx, call{op: op, method: http.MethodGet, path: path, pdf: true,
		query: url.Values{"orderId": {orderID}}}, &b, nil)
	if err != nil {
		return nil, err
	}
	return b, nil
}

// ---- hotel ----

// HotelOrders lists the customer's hotel orders as the provider splits them.
func (c *Client) HotelOrders(ctx context.Context, userID string) (active, history []HotelOrder, err error) {
	a, err := list[HotelOrdersAnswer](ctx, c, "get hotel orders", hotelOrders, userID)
	return a.ActiveOrders, a.HistoryOrders, err
}

// HotelOrder fetches one hotel order; ErrNotFound when currentOrder is null.
func (c *Client) HotelOrder(ctx context.Context, userID, orderID string) (HotelOrder, error) {
	return one(ctx, c, "get hotel order", hotelOrders, userID, "orderId", orderID,
		func(a *HotelOrdersAnswer) (HotelOrder, bool) {
			return current(a.CurrentOrder, orderID, func(o HotelOrder) string { return o.OrderID })
		})
}

// CancelHotelOrder cancels a hotel order (a form post).
func (c *Client) CancelHotelOrder(ctx context.Context, orderID string) error {
	return c.do(ctx, call{op: "cancel hotel order", method: http.MethodPost, path: "hotel/cancelOrder",
		form: url.Values{"OrderId": {orderID}}, emptyOK: true}, nil, nil)
}

// RefundHotel registers a refund request and returns the provider's message.
func (c *Client) RefundHotel(ctx context.Context, r HotelRefundRequest) (string, error) {
	var docs []File
	r.Documents, docs = withDocuments(r.Documents)
	return c.refund(ctx, "refund hotel", "hotel/registerRefund", r, docs)
}

// HotelDates fetches the hotel's availability for the nights from..to (a
// form post with yyyy-mm-dd dates).
func (c *Client) HotelDates(ctx context.Context, from, to time.Time) ([]HotelDay, error) {
	a, err := doAs[HotelDatesAnswer](ctx, c, call{op: "get hotel dates", method: http.MethodPost, path: "hotel/getDates",
		form: url.Values{"dateIn": {FormatISODate(from, c.loc)}, "dateOut": {FormatISODate(to, c.loc)}}, common: true}, nil)
	return a.DateList.Days, err
}

// PushReservation moves a hotel order to new dates and returns the
// provider's message, if it gave one (shown on success).
func (c *Client) PushReservation(ctx context.Context, r PushReservationRequest) (string, error) {
	a, err := doAs[Answer](ctx, c, call{op: "push reservation", method: http.MethodPost, path: "hotel/pushReservation", json: r}, nil)
	return a.Message, err
}

// HotelVoucherPDF fetches the order's voucher as a PDF.
func (c *Client) HotelVoucherPDF(ctx context.Context, orderID string) ([]byte, error) {
	return c.pdf(ctx, "get hotel voucher pdf", "hotel/generatePdf", orderID)
}
