package handlers

import (
	"context"
	"time"

	"lk/gateway"
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

type aquaProvider interface {
	AquaOrders(ctx context.Context, userID string) (active, history []gateway.AquaOrder, err error)
	AquaOrder(ctx context.Context, userID, orderID string) (gateway.AquaOrder, error)
	AquaTicketPDF(ctx context.Context, orderID string) ([]byte, error)
	RefundAqua(ctx context.Context, r gateway.AquaRefundRequest) (string, error)
	TransferTickets(ctx context.Context, r gateway.TransferTicketRequest) error
	AquaSessions(ctx context.Context, date time.Time) ([]gateway.AquaSession, error)
}

type hotelProvider interface {
	HotelOrders(ctx context.Context, userID string) (active, history []gateway.HotelOrder, err error)
	HotelOrder(ctx context.Context, userID, orderID string) (gateway.HotelOrder, error)
	HotelVoucherPDF(ctx context.Context, orderID string) ([]byte, error)
	CancelHotelOrder(ctx context.Context, orderID string) error
	RefundHotel(ctx context.Context, r gateway.HotelRefundRequest) (string, error)
	HotelDates(ctx context.Context, from, to time.Time) ([]gateway.HotelDay, error)
	PushReservation(ctx context.Context, r gateway.PushReservationRequest) (string, error)
}

type lessonProvider interface {
	LessonOrders(ctx context.Context, clientID string) ([]gateway.LessonOrder, error)
	LessonOrder(ctx context.Context, clientID, lessonID string) (gateway.LessonOrder, error)
	ConfirmLesson(ctx context.Context, clientID, lessonID string) error
	CancelLesson(ctx context.Context, r gateway.CancelLessonRequest) error
	Timetable(ctx context.Context, q gateway.TimetableQuery) ([]gateway.Lesson, error)
	ChangeLesson(ctx context.Context, r gateway.ChangeLessonRequest) (string, error)
}

type rentProvider interface {
	PavilionOrders(ctx context.Context, clientID string) ([]gateway.PavilionOrder, error)
	PavilionOrder(ctx context.Context, clientID, rentID string) (gateway.PavilionOrder, error)
	CancelPavilionRent(ctx context.Context, r gateway.CancelRentRequest) error
	RefundPavilion(ctx context.Context, r gateway.PavilionRefundRequest) (string, error)
	PavilionSchedule(ctx context.Context, pavilionID string, date time.Time) (gateway.Schedule, error)
	ChangePavilionRent(ctx context.Context, r gateway.ChangePavilionRequest) (string, error)
	RoomOrders(ctx context.Context, clientID string) ([]gateway.RoomOrder, error)
	RoomOrder(ctx context.Context, clientID, rentID string) (gateway.RoomOrder, error)
	CancelRoomRent(ctx context.Context, r gateway.CancelRentRequest) error
	RefundRoom(ctx context.Context, r gateway.RoomRefundRequest) (string, error)
	RoomSchedule(ctx context.Context, celRoomID string, date time.Time) (gateway.Schedule, error)
	ChangeRoomRent(ctx context.Context, r gateway.ChangeRoomRequest) (string, error)
}
