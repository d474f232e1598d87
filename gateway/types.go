package gateway

// Wire types of the provider's API gateway v1. JSON names are
// the provider's own, spelling included ("waitingForPaymant", "iD_Rent").
// Dates stay strings on the wire; parse them with the functions in dates.go.

// Date and time layouts the provider uses (Go reference-time notation).
const (
	LayoutDateTime = "02.01.2006 15:04:05" // dateBeg, regDate, hourBeg, hourEnd, newLessonDate
	LayoutDate     = "02.01.2006"          // aqua sessions query, transferTicket date, profile birthday
	LayoutBirth    = "02_01_2006"          // personalInfo.birthdate
	LayoutISO      = "2006-01-02T15:04:05" // timetable hours, rent moves, pushReservation
	LayoutISODate  = "2006-01-02"          // hotel getDates dateIn/dateOut, day period
)

// Answer is the envelope most calls answer with.
type Answer struct {
	Success      bool   `json:"success"`
	ErrorMessage string `json:"errorMessage,omitempty"`
	Message      string `json:"message,omitempty"`
	// HasErrors is getClientInfo's way of failing a call; read here so that
	// an answer decoded in one pass can tell it did not fail
	// (decodedSuccess). Sent by no call of ours.
	HasErrors bool `json:"hasErrors,omitempty"`
}

// ---- auth and registration ----

// LoginRequest is the body of auth/login2f.
type LoginRequest struct {
	Login     string `json:"login"`     // phone digits, 79001234567
	TypeLogin int    `json:"typeLogin"` // always 1
	TypeCode  int    `json:"typeCode"`  // always 1
	Resend    bool   `json:"resend,omitempty"`
}

// LoginConfirmRequest is the body of auth/loginConfirm.
type LoginConfirmRequest struct {
	Login      string `json:"login"`
	VerifyCode string `json:"verifyCode"`
}

// LoginConfirmAnswer is the answer of auth/loginConfirm.
type LoginConfirmAnswer struct {
	Answer
	Token string `json:"token,omitempty"`
}

// PersonalInfo is the customer's data as the provider keeps it.
type PersonalInfo struct {
	FIO       string `json:"fio"`       // "Фамилия Имя Отчество", space-separated
	Email     string `json:"email"`     //
	Tel       string `json:"tel"`       // digits, 79001234567
	Birthdate string `json:"birthdate"` // dd_mm_yyyy, may be empty
	GUID      string `json:"guid"`      //
	Gender    string `json:"gender"`    // MALE or FEMALE, may be empty
}

// ClientInfo wraps PersonalInfo in the profile answer.
type ClientInfo struct {
	PersonalInfo PersonalInfo `json:"personalInfo"`
}

// ClientInfoAnswer is the answer of auth/getClientInfo.
type ClientInfoAnswer struct {
	HasErrors           bool        `json:"hasErrors"`
	ResponseDescription string      `json:"responseDescription,omitempty"`
	ClientInfo          *ClientInfo `json:"clientInfo,omitempty"`
}

// ProfileUpdate is the body of auth/clientEditInfo.
type ProfileUpdate struct {
	FirstName   string `json:"firstName"`
	LastName    string `json:"lastName"`
	MiddleName  string `json:"middleName"`
	Gender      string `json:"gender"`   // MALE or FEMALE
	Birthday    string `json:"birthday"` // dd.mm.yyyy
	PhoneNumber string `json:"phoneNumber"`
	UserID      string `json:"userId"` // the client's guid
}

// Registration is the body of reg/registration.
type Registration struct {
	PhoneNumber string `json:"phoneNumber"`
	FirstName   string `json:"firstName"`
	LastName    string `json:"lastName"`
	TypeCode    int    `json:"typeCode"` // always 1
}

// ---- ski lessons (GLK) ----

// LessonOrder is a customer's booking of a group ski lesson.
type LessonOrder struct {
	DocID        string  `json:"doc_ID"`
	ClientID     string  `json:"client_ID"`
	TrainerID    string  `json:"trainer_ID"`
	TrainerName  string  `json:"trainer_Name"`
	ExerciseSort string  `json:"exerciseSort"` // the lesson, e.g. "Групповое занятие, начинающие"
	KindOfSport  string  `json:"kindOfSport"`  // "Горные лыжи", "Сноуборд"
	DateBeg      string  `json:"dateBeg"`      // dd.mm.yyyy hh:mm:ss
	RegDate      string  `json:"regDate"`      // dd.mm.yyyy hh:mm:ss
	Cost         float64 `json:"cost"`
	AgeGroupHigh string  `json:"ageGroup_High"` // age group code, sent back as ageGroupCode on transfer
	ChildID      string  `json:"child_ID,omitempty"`
	CanConfirm   bool    `json:"canConfirm"`
	CanTransfer  bool    `json:"canTransfer"`
	CanCancel    bool    `json:"canCancel"`
}

// Lesson is a lesson of an instructor's timetable that a booking can move to.
type Lesson struct {
	LessonID     string  `json:"lesson_ID"`
	TrainerID    string  `json:"trainer_ID"`
	TrainerName  string  `json:"trainer_Name"`
	ExerciseSort string  `json:"exerciseSort"`
	KindOfSport  string  `json:"kindOfSport"`
	DateBeg      string  `json:"dateBeg"` // dd.mm.yyyy hh:mm:ss
	AgeGroupHigh string  `json:"ageGroup_High"`
	FreePlaces   int     `json:"freePlaces"`
	Cost         float64 `json:"cost"`
}

// Timetabled is the answer of the calls that give a list under
// "timetable".
type Timetabled[T any] struct {
	Answer
	Timetable []T `json:"timetable"`
}

// LessonsAnswer is the answer of GLK/getTimetableForCurrentClient.
type LessonsAnswer = Timetabled[LessonOrder]

// TimetableAnswer is the answer of GLK/getTimetable.
type TimetableAnswer = Timetabled[Lesson]

// ConfirmLessonRequest is the body of GLK/confirmLesson.
type ConfirmLessonRequest struct {
	ClientID string `json:"clientId"`
	LessonID string `json:"lessonId"` // the booking's doc_ID
}

// CancelLessonRequest is the body of GLK/cancelRegistration.
type CancelLessonRequest struct {
	ClientID string  `json:"clientId"`
	LessonID string  `json:"lessonId"`
	Sum      float64 `json:"sum"`
}

// ChangeLessonRequest is the body of GLK/changeLessonPeriod.
type ChangeLessonRequest struct {
	ClientID      string  `json:"clientId"`
	LessonID      string  `json:"lessonId"`      // the booking's doc_ID
	NewLessonID   string  `json:"newLessonId"`   // Lesson.LessonID
	Amount        float64 `json:"amount"`        //
	NewLessonDate string  `json:"newLessonDate"` // dd.mm.yyyy hh:mm:ss
	AgeGroupCode  string  `json:"ageGroupCode"`
	ChildrenID    string  `json:"childrenId,omitempty"`
}

// ChangeLessonAnswer is the answer of GLK/changeLessonPeriod. NewLessonID
// names the new booking (doc_ID) so the page can go to it.
type ChangeLessonAnswer struct {
	Answer
	NewLessonID string `json:"newLessonId,omitempty"`
}

// ---- pavilion and celebration-room rents ----

// RentDetail is one booked hour of a rent.
type RentDetail struct {
	RentID  string  `json:"iD_Rent"`
	Cost    float64 `json:"cost"`
	Hour    string  `json:"hour"`   // ISO date-time of the hour's start
	Status  int     `json:"status"` //
	RegDate string  `json:"regDate"`
}

// PavilionOrder is a customer's rent of a pavilion.
type PavilionOrder struct {
	PavilionID   string       `json:"pavilion_ID"`
	PavilionName string       `json:"pavilion_Name"`
	HourBeg      string       `json:"hourBeg"` // dd.mm.yyyy hh:mm:ss
	HourEnd      string       `json:"hourEnd"` // dd.mm.yyyy hh:mm:ss
	Amount       float64      `json:"amount"`  // total of the rent
	Cost         float64      `json:"cost"`    // price of one hour
	ClientID     string       `json:"client_ID"`
	Details      []RentDetail `json:"details"`
	CanTransfer  bool         `json:"canTransfer"`
	CanCancel    bool         `json:"canCancel"`
}

// RentID is the id of the rent: the iD_Rent its hours share.
func (o PavilionOrder) RentID() string { return rentID(o.Details) }

// RoomOrder is a customer's rent of a celebration room.
type RoomOrder struct {
	RoomID      string       `json:"room_ID"`
	RoomName    string       `json:"room_Name"`
	HourBeg     string       `json:"hourBeg"`
	HourEnd     string       `json:"hourEnd"`
	Amount      float64      `json:"amount"`
	Cost        float64      `json:"cost"`
	ClientID    string       `json:"client_ID"`
	Details     []RentDetail `json:"details"`
	CanTransfer bool         `json:"canTransfer"`
	CanCancel   bool         `json:"canCancel"`
}

// RentID is the id of the rent: the iD_Rent its hours share.
func (o RoomOrder) RentID() string { return rentID(o.Details) }

func rentID(d []RentDetail) string {
	if len(d) == 0 {
		return ""
	}
	return d[0].RentID
}

// PavilionOrdersAnswer is the answer of Rent/getPavilionRentTimetableForCurrentClient.
type PavilionOrdersAnswer = Timetabled[PavilionOrder]

// RoomOrdersAnswer is the answer of CelRooms/getCelRoomsTimetableForCurrentClient.
type RoomOrdersAnswer = Timetabled[RoomOrder]

// TimetableHour is one hour of a pavilion's or room's day.
type TimetableHour struct {
	Hour     string `json:"hour"`   // ISO date-time
	Status   int    `json:"status"` // 0 free, 1 busy
	Selected bool   `json:"selected"`
}

// Schedule is a pavilion's or room's day: its hours and hourly price.
type Schedule struct {
	HourEnd string          `json:"hourEnd"` // ISO date-time the day's last hour ends
	Cost    float64         `json:"cost"`    // price of one hour
	Details []TimetableHour `json:"details"`
}

// ScheduleAnswer is the answer of Rent/getPavilionRentTimetable and
// CelRooms/getCelRoomsTimetable; the first element is the day asked for.
type ScheduleAnswer = Timetabled[Schedule]

// CancelRentRequest is the body of Rent/cancelPavilionRent and CelRooms/cancelCelRoomRent.
type CancelRentRequest struct {
	ClientID string  `json:"clientId"`
	RentID   string  `json:"rentId"`
	Amount   float64 `json:"amount"`
}

// ChangePavilionRequest is the body of Rent/changePavilionRentPeriod.
type ChangePavilionRequest struct {
	ClientID       string  `json:"clientId"`
	RentID         string  `json:"rentId"`
	PavilionID     string  `json:"pavilionId"`
	NewRentDateBeg string  `json:"newRentDateBeg"` // ISO date-time, first hour
	NewRentDateEnd string  `json:"newRentDateEnd"` // ISO date-time, end of the last hour
	Amount         float64 `json:"amount"`
	PavilionName   string  `json:"pavilionName"`
}

// ChangeRoomRequest is the body of CelRooms/changeCelRoomRentPeriod.
type ChangeRoomRequest struct {
	ClientID       string  `json:"clientId"`
	RentID         string  `json:"rentId"`
	CelRoomID      string  `json:"celRoomId"`
	NewRentDateBeg string  `json:"newRentDateBeg"`
	NewRentDateEnd string  `json:"newRentDateEnd"`
	Amount         float64 `json:"amount"`
	CelRoomName    string  `json:"celRoomName"`
}

// ChangeRentAnswer is the answer of the two rent moves.
type ChangeRentAnswer struct {
	Answer
	NewRentID string `json:"newRentId,omitempty"`
}

// ---- refunds ----

// File is an uploaded supporting document. The client sends Data, when set,
// as the base64 "file", encoded while the body is sent (documents.go);
// File is the base64 text as it comes over the wire (the sandbox reads it).
type File struct {
	FileName      string `json:"file_name"`
	FileExtension string `json:"file_extension"` // without the dot
	File          string `json:"file"`           // base64 content
	Data          []byte `json:"-"`              // raw content, sent as "file"
}

// RefundForm is the customer's refund request.
type RefundForm struct {
	Name       string `json:"name"`
	Surname    string `json:"surname"`
	SecondName string `json:"secondName"`
	Email      string `json:"email"`
	Phone      string `json:"phone"`
	OrderID    string `json:"orderId"`
	Comment    string `json:"comment"` // the reason
}

// PavilionRefundRequest is the body of Rent/registerRefund.
type PavilionRefundRequest struct {
	Documents  []File        `json:"documents"`
	RentItem   PavilionOrder `json:"rentItem"`
	FormRefund RefundForm    `json:"formRefund"`
}

// RoomRefundRequest is the body of CelRooms/registerRefund.
type RoomRefundRequest struct {
	Documents  []File     `json:"documents"`
	RentItem   RoomOrder  `json:"rentItem"`
	FormRefund RefundForm `json:"formRefund"`
}

// RefundProduct is one water-park ticket returned.
type RefundProduct struct {
	ProductID      string  `json:"productId"` // the ticket's productUID
	Barcode        string  `json:"barcode"`
	Price          float64 `json:"price"`
	Name           string  `json:"name"`      // ticket title
	EventDate      string  `json:"eventDate"` // label "Дата: dd.mm.yyyy"
	PositionNumber string  `json:"positionNumber"`
}

// AquaRefundRequest is the body of aqua/registerRefund1C.
type AquaRefundRequest struct {
	ReturnOrderID string          `json:"returnOrderId"`
	Products      []RefundProduct `json:"products"`
	Documents     []File          `json:"documents,omitempty"`
	FormRefund    *RefundForm     `json:"formRefund,omitempty"`
}

// HotelRefundRequest is the body of hotel/registerRefund.
type HotelRefundRequest struct {
	Documents  []File     `json:"documents"`
	OrderID    string     `json:"orderId"`
	FormRefund RefundForm `json:"formRefund"`
}

// ---- water park ----

// Ticket statuses.
const (
	TicketPaid     = "paid"
	TicketWaiting  = "waitingForPaymant" // sic, the provider's spelling
	TicketRefunded = "refunded"
)

// Ticket is one water-park ticket of an order.
type Ticket struct {
	ID           string  `json:"id"`
	TicketNumber string  `json:"ticketNumber"`
	Title        string  `json:"title"` // "Взрослый, весь день", "VIP взрослый"
	Price        float64 `json:"price"`
	IsChild      bool    `json:"isChild"`
	Status       string  `json:"status"`  // TicketPaid, TicketWaiting, TicketRefunded
	Session      string  `json:"session"` // the session's name, e.g. "Дневной 10:00–16:00"
	ProductUID   string  `json:"productUID"`
	Barcode      string  `json:"barcode"`
	EventDate    string  `json:"eventDate"` // dd.mm.yyyy hh:mm:ss
}

// AquaOrder is a water-park order.
type AquaOrder struct {
	OrderID       string   `json:"orderId"`
	DateBeg       string   `json:"dateBeg"` // visit date, dd.mm.yyyy hh:mm:ss
	RegDate       string   `json:"regDate"`
	Amount        float64  `json:"amount"`        // total
	PaymentAmount float64  `json:"paymentAmount"` // still due for unpaid tickets
	Canceled      bool     `json:"canceled"`
	Paid          bool     `json:"paid"`
	CanTransfer   bool     `json:"canTransfer"`
	CanCancel     bool     `json:"canCancel"`
	Tickets       []Ticket `json:"tickets"`
}

// SplitOrders is the answer of the calls that list a customer's orders
// split by the provider into active and history, or give currentOrder when
// asked for one order (single=true).
type SplitOrders[O any] struct {
	Answer
	ActiveOrders  []O `json:"activeOrders,omitempty"`
	HistoryOrders []O `json:"historyOrders,omitempty"`
	CurrentOrder  *O  `json:"currentOrder,omitempty"`
}

// AquaOrdersAnswer is the answer of aqua/getAquaOrders.
type AquaOrdersAnswer = SplitOrders[AquaOrder]

// AquaSession is a water-park session of a day.
type AquaSession struct {
	SessionID      string `json:"sessionId"`
	SessionTime    string `json:"sessionTime"` // "10:00"
	AvailableCount int    `json:"availableCount"`
	Name           string `json:"name"`    // "VIP вечерний"
	EndTime        string `json:"endTime"` // "16:00"
}

// AquaSessionsAnswer is the answer of aqua/getSessionsAqua.
type AquaSessionsAnswer struct {
	Answer
	Result []AquaSession `json:"result"`
}

// TransferTicketRequest is the body of aqua/transferTicket.
type TransferTicketRequest struct {
	OrderID   string `json:"orderId"`
	Date      string `json:"date"` // dd.mm.yyyy
	SessionID string `json:"sessionId"`
}

// ---- hotel ----

// Guest is a guest of a hotel room.
type Guest struct {
	Family     string `json:"family"`
	Name       string `json:"name"`
	SecondName string `json:"secondName"`
}

// Room is a booked hotel room with its guests.
type Room struct {
	Number    string  `json:"number"`
	Title     string  `json:"title"`
	Guests    []Guest `json:"guests"`
	Childrens []Guest `json:"childrens"` // sic
}

// HotelOrder is a hotel booking.
type HotelOrder struct {
	OrderID          string  `json:"orderId"`
	HourBeg          string  `json:"hourBeg"` // check-in, dd.mm.yyyy hh:mm:ss
	HourEnd          string  `json:"hourEnd"` // check-out
	RegDate          string  `json:"regDate"`
	Amount           float64 `json:"amount"`          // total
	AmountRooms      float64 `json:"amountRooms"`     // rooms
	AmountAddPlaces  float64 `json:"amountAddPlaces"` // extra places
	AmountChildren   float64 `json:"amountChildren"`  // children
	AmountAdult      float64 `json:"amountAdult"`
	TotalGuestsCount int     `json:"totalGuestsCount"`
	Canceled         bool    `json:"canceled"`
	Paid             bool    `json:"paid"`
	CanTransfer      bool    `json:"canTransfer"`
	CanCancel        bool    `json:"canCancel"`
	Rooms            []Room  `json:"rooms"`
	FamilyRooms      []Room  `json:"familyRooms"`
}

// HotelOrdersAnswer is the answer of hotel/getHotelOrders.
type HotelOrdersAnswer = SplitOrders[HotelOrder]

// HotelDay is the hotel's availability on one night.
type HotelDay struct {
	Period      string  `json:"period"` // yyyy-mm-dd
	Vacant      int     `json:"vacant"` // vacant ordinary rooms
	Family      int     `json:"family"` // vacant family rooms
	Price       float64 `json:"price"`
	PriceFamily float64 `json:"priceFamily"`
}

// HotelDatesAnswer is the answer of hotel/getDates.
type HotelDatesAnswer struct {
	Answer
	DateList struct {
		Days []HotelDay `json:"days"`
	} `json:"dateList"`
}

// PushReservationRequest is the body of hotel/pushReservation.
type PushReservationRequest struct {
	OrderID    string `json:"orderId"`
	NewDateIn  string `json:"newDateIn"`  // ISO date-time, check-in 16:00
	NewDateOut string `json:"newDateOut"` // ISO date-time, check-out 14:00
}
