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
	const op = "get lesson orders"
	if clientID == "" {
		return nil, missing(op, "clientId")
	}
	a, err := doAs[LessonsAnswer](ctx, c, call{op: op, method: http.MethodGet,
		path: "GLK/getTimetableForCurrentClient", query: url.Values{"clientId": {clientID}}}, nil)
	return a.Timetable, err
}

// LessonOrder fetches one lesson booking by its doc_ID.
func (c *Client) LessonOrder(ctx context.Context, clientID, lessonID string) (LessonOrder, error) {
	const op = "get lesson order"
	if clientID == "" {
		return LessonOrder{}, missing(op, "clientId")
	}
	if lessonID == "" {
		return LessonOrder{}, opError(op, ErrNotFound, nil)
	}
	var found LessonOrder
	_, err := doAs(ctx, c, call{op: op, method: http.MethodGet, path: "GLK/getTimetableForCurrentClient",
		query: url.Values{"clientId": {clientID}, "lessonId": {lessonID}, "single": {"true"}},
	}, func(a *LessonsAnswer) error {
		for _, o := range a.Timetable {
			if o.DocID == lessonID {
				found = o
				return nil
			}
		}
		return ErrNotFound
	})
	return found, err
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
		path: "GLK/getTimetable", query: v}, nil)
	return a.Timetable, err
}

// ConfirmLesson confirms a booking (its doc_ID).
func (c *Client) ConfirmLesson(ctx context.Context, clientID, lessonID string) error {
	if clientID == "" {
		return missing("confirm lesson", "clientId")
	}
	return c.do(ctx, call{op: "confirm lesson", method: http.MethodPost, path: "GLK/confirmLesson",
		json: ConfirmLessonRequest{ClientID: clientID, LessonID: lessonID}}, nil, nil)
}

// CancelLesson cancels a booking.
func (c *Client) CancelLesson(ctx context.Context, r CancelLessonRequest) error {
	if r.ClientID == "" {
		return missing("cancel lesson", "clientId")
	}
	return c.do(ctx, call{op: "cancel lesson", method: http.MethodPost, path: "GLK/cancelRegistration",
		json: r, emptyOK: true}, nil, nil)
}

// ChangeLesson moves a booking to another lesson and returns the new
// booking's doc_ID ("" when the provider does not say).
func (c *Client) ChangeLesson(ctx context.Context, r ChangeLessonRequest) (string, error) {
	if r.ClientID == "" {
		return "", missing("change lesson", "clientId")
	}
	a, err := doAs[ChangeLessonAnswer](ctx, c, call{op: "change lesson", method: http.MethodPost,
		path: "GLK/changeLessonPeriod", json: r}, nil)
	return a.NewLessonID, err
}

// ---- pavilion rents ----

// PavilionOrders lists the customer's pavilion rents.
func (c *Client) PavilionOrders(ctx context.Context, clientID string) ([]PavilionOrder, error) {
	const op = "get pavilion orders"
	if clientID == "" {
		return nil, missing(op, "clientId")
	}
	a, err := doAs[PavilionOrdersAnswer](ctx, c, call{op: op, method: http.MethodGet,
		path: "Rent/getPavilionRentTimetableForCurrentClient", query: url.Values{"clientId": {clientID}}}, nil)
	return a.Timetable, err
}

// PavilionOrder fetches one pavilion rent by its rentId (iD_Rent).
func (c *Client) PavilionOrder(ctx context.Context, clientID, rentID string) (PavilionOrder, error) {
	const op = "get pavilion order"
	if clientID == "" {
		return PavilionOrder{}, missing(op, "clientId")
	}
	if rentID == "" {
		return PavilionOrder{}, opError(op, ErrNotFound, nil)
	}
	var found PavilionOrder
	_, err := doAs(ctx, c, call{op: op, method: http.MethodGet, path: "Rent/getPavilionRentTimetableForCurrentClient",
		query: url.Values{"clientId": {clientID}, "rentId": {rentID}, "single": {"true"}},
	}, func(a *PavilionOrdersAnswer) error {
		for _, o := range a.Timetable {
			if o.RentID() == rentID {
				found = o
				return nil
			}
		}
		return ErrNotFound
	})
	return found, err
}

// PavilionSchedule fetches a pavilion's hours on date; ErrNotFound when the
// provider has no day to offer.
func (c *Client) PavilionSchedule(ctx context.Context, pavilionID string, date time.Time) (Schedule, error) {
	return c.schedule(ctx, "get pavilion schedule", "Rent/getPavilionRentTimetable",
		url.Values{"pavilionId": {pavilionID}, "date": {FormatDate(date, c.loc)}})
}

func (c *Client) schedule(ctx context.Context, op, path string, q url.Values) (Schedule, error) {
	a, err := doAs(ctx, c, call{op: op, method: http.MethodGet, path: path, query: q},
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
	if r.ClientID == "" {
		return missing("cancel pavilion rent", "clientId")
	}
	return c.do(ctx, call{op: "cancel pavilion rent", method: http.MethodPost, path: "Rent/cancelPavilionRent",
		json: r, emptyOK: true}, nil, nil)
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
	if r.ClientID == "" {
		return "", missing("change pavilion rent", "clientId")
	}
	a, err := doAs[ChangeRentAnswer](ctx, c, call{op: "change pavilion rent", method: http.MethodPost,
		path: "Rent/changePavilionRentPeriod", json: r}, nil)
	return a.NewRentID, err
}

// ---- celebration-room rents ----

// RoomOrders lists the customer's celebration-room rents.
func (c *Client) RoomOrders(ctx context.Context, clientID string) ([]RoomOrder, error) {
	const op = "get room orders"
	if clientID == "" {
		return nil, missing(op, "clientId")
	}
	a, err := doAs[RoomOrdersAnswer](ctx, c, call{op: op, method: http.MethodGet,
		path: "CelRooms/getCelRoomsTimetableForCurrentClient", query: url.Values{"clientId": {clientID}}}, nil)
	return a.Timetable, err
}

// RoomOrder fetches one celebration-room rent by its rentId.
func (c *Client) RoomOrder(ctx context.Context, clientID, rentID string) (RoomOrder, error) {
	const op = "get room order"
	if clientID == "" {
		return RoomOrder{}, missing(op, "clientId")
	}
	if rentID == "" {
		return RoomOrder{}, opError(op, ErrNotFound, nil)
	}
	var found RoomOrder
	_, err := doAs(ctx, c, call{op: op, method: http.MethodGet, path: "CelRooms/getCelRoomsTimetableForCurrentClient",
		query: url.Values{"clientId": {clientID}, "rentId": {rentID}, "single": {"true"}},
	}, func(a *RoomOrdersAnswer) error {
		for _, o := range a.Timetable {
			if o.RentID() == rentID {
				found = o
				return nil
			}
		}
		return ErrNotFound
	})
	return found, err
}

// RoomSchedule fetches a celebration room's hours on date.
func (c *Client) RoomSchedule(ctx context.Context, celRoomID string, date time.Time) (Schedule, error) {
	return c.schedule(ctx, "get room schedule", "CelRooms/getCelRoomsTimetable",
		url.Values{"celRoomId": {celRoomID}, "date": {FormatDate(date, c.loc)}})
}

// CancelRoomRent cancels a celebration-room rent.
func (c *Client) CancelRoomRent(ctx context.Context, r CancelRentRequest) error {
	if r.ClientID == "" {
		return missing("cancel room rent", "clientId")
	}
	return c.do(ctx, call{op: "cancel room rent", method: http.MethodPost, path: "CelRooms/cancelCelRoomRent",
		json: r, emptyOK: true}, nil, nil)
}

// RefundRoom registers a refund request and returns the provider's message.
func (c *Client) RefundRoom(ctx context.Context, r RoomRefundRequest) (string, error) {
	var docs []File
	r.Documents, docs = withDocuments(r.Documents)
	return c.refund(ctx, "refund room", "CelRooms/registerRefund", r, docs)
}

// ChangeRoomRent moves a rent to other hours and returns the new rent's id.
func (c *Client) ChangeRoomRent(ctx context.Context, r ChangeRoomRequest) (string, error) {
	if r.ClientID == "" {
		return "", missing("change room rent", "clientId")
	}
	a, err := doAs[ChangeRentAnswer](ctx, c, call{op: "change room rent", method: http.MethodPost,
		path: "CelRooms/changeCelRoomRentPeriod", json: r}, nil)
	return a.NewRentID, err
}

// ---- water park ----

// AquaOrders lists the customer's water-park orders as the provider splits them.
func (c *Client) AquaOrders(ctx context.Context, userID string) (active, history []AquaOrder, err error) {
	const op = "get aqua orders"
	if userID == "" {
		return nil, nil, missing(op, "userId")
	}
	a, err := doAs[AquaOrdersAnswer](ctx, c, call{op: op, method: http.MethodGet,
		path: "aqua/getAquaOrders", query: url.Values{"userId": {userID}}}, nil)
	return a.ActiveOrders, a.HistoryOrders, err
}

// AquaOrder fetches one water-park order; ErrNotFound when currentOrder is null.
func (c *Client) AquaOrder(ctx context.Context, userID, orderID string) (AquaOrder, error) {
	const op = "get aqua order"
	if userID == "" {
		return AquaOrder{}, missing(op, "userId")
	}
	if orderID == "" {
		return AquaOrder{}, opError(op, ErrNotFound, nil)
	}
	a, err := doAs(ctx, c, call{op: op, method: http.MethodGet, path: "aqua/getAquaOrders",
		query: url.Values{"userId": {userID}, "orderId": {orderID}, "single": {"true"}},
	}, func(a *AquaOrdersAnswer) error {
		if a.CurrentOrder == nil || a.CurrentOrder.OrderID != orderID {
			return ErrNotFound
		}
		return nil
	})
	if err != nil {
		return AquaOrder{}, err
	}
	return *a.CurrentOrder, nil
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
		path: "aqua/getSessionsAqua", query: url.Values{"date": {FormatDate(date, c.loc)}}}, nil)
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
	const op = "get hotel orders"
	if userID == "" {
		return nil, nil, missing(op, "userId")
	}
	a, err := doAs[HotelOrdersAnswer](ctx, c, call{op: op, method: http.MethodGet,
		path: "hotel/getHotelOrders", query: url.Values{"userId": {userID}}}, nil)
	return a.ActiveOrders, a.HistoryOrders, err
}

// HotelOrder fetches one hotel order; ErrNotFound when currentOrder is null.
func (c *Client) HotelOrder(ctx context.Context, userID, orderID string) (HotelOrder, error) {
	const op = "get hotel order"
	if userID == "" {
		return HotelOrder{}, missing(op, "userId")
	}
	if orderID == "" {
		return HotelOrder{}, opError(op, ErrNotFound, nil)
	}
	a, err := doAs(ctx, c, call{op: op, method: http.MethodGet, path: "hotel/getHotelOrders",
		query: url.Values{"userId": {userID}, "orderId": {orderID}, "single": {"true"}},
	}, func(a *HotelOrdersAnswer) error {
		if a.CurrentOrder == nil || a.CurrentOrder.OrderID != orderID {
			return ErrNotFound
		}
		return nil
	})
	if err != nil {
		return HotelOrder{}, err
	}
	return *a.CurrentOrder, nil
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
		form: url.Values{"dateIn": {FormatISODate(from, c.loc)}, "dateOut": {FormatISODate(to, c.loc)}}}, nil)
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
