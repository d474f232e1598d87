package gateway

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// Pure rules on orders. Nothing here reads the clock: callers pass
// now, read in the resort's zone (the configured one, e.g. time.Now().In(loc)).
// "Today", the current hour and a date's weekday are taken in the zone of the
// times passed: now for today, the window's own ends for a window, the
// customer's day for a day. So one zone, the caller's, decides every date.

// today is the calendar day of t in t's own zone.
func today(t time.Time) time.Time { return Day(t, t.Location()) }

// ---- statuses ----

// StatusLabel is an order's status.
func StatusLabel(canceled, paid bool) string {
	switch {
	case canceled:
		return "Отменен"
	case paid:
		return "Оплачен"
	default:
		return "Не оплачен"
	}
}

// TicketStatusSuffix is the note after a water-park ticket.
func TicketStatusSuffix(status string) string {
	switch status {
	case TicketRefunded:
		return "(оформлен возврат)"
	case TicketWaiting:
		return "(ожидает оплаты)"
	default:
		return ""
	}
}

// TicketCount is how many tickets an order holds as its page lists them:
// those with a refund are counted apart, "2, и 1 с оформленным возвратом".
func TicketCount(tickets []Ticket) string {
	refunded := 0
	for _, t := range tickets {
		if t.Status == TicketRefunded {
			refunded++
		}
	}
	n := strconv.Itoa(len(tickets) - refunded)
	if refunded == 0 {
		return n
	}
	return n + ", и " + strconv.Itoa(refunded) + " с оформленным возвратом"
}

// LetsIn tells whether a ticket opens the gate, so that its code is shown:
// paid, with no refund, of an order that is not cancelled.
func LetsIn(t Ticket, canceled bool) bool { return t.Status == TicketPaid && !canceled }

// CanShowDocument tells whether the ticket or voucher button is shown: never
// for a canceled order, and for the water park not while a ticket awaits
// payment. Pass nil tickets for a hotel order.
func CanShowDocument(canceled bool, tickets []Ticket) bool {
	if canceled {
		return false
	}
	return !slices.ContainsFunc(tickets, func(t Ticket) bool { return t.Status == TicketWaiting })
}

// ---- order kinds ----

// Kind is an order's kind as it appears in URLs (/orders/{kind}/{id}).
type Kind string

// Order kinds.
const (
	KindLesson   Kind = "glk"
	KindPavilion Kind = "pavilion"
	KindAqua     Kind = "aqua"
	KindHotel    Kind = "hotel"
	KindRoom     Kind = "celRoom"
)

// ParseKind reads a kind from a URL; case does not matter ("GLK", "glk").
func ParseKind(s string) (Kind, bool) {
	for _, k := range [...]Kind{KindLesson, KindPavilion, KindAqua, KindHotel, KindRoom} {
		if strings.EqualFold(s, string(k)) {
			return k, true
		}
	}
	return "", false
}

// ---- active and history ----

// OrderRef is what the order list needs of an order of any kind.
type OrderRef struct {
	Kind     Kind
	ID       string // doc_ID, rentId or orderId: the id in the order's URL
	Name     string // the provider's name of the lesson, pavilion or room; "" for aqua and hotel
	Start    time.Time
	End      time.Time // zero when the order has no end of its own (lessons, water park)
	Amount   float64
	Canceled bool
}

// Ref summarises a lesson booking. An unreadable date leaves Start zero, which
// sorts the order to the end of the history.
func (o LessonOrder) Ref(loc *time.Location) OrderRef {
	start, _ := ParseDateTime(o.DateBeg, loc)
	return OrderRef{Kind: KindLesson, ID: o.DocID, Name: o.ExerciseSort, Start: start, Amount: o.Cost}
}

// Ref summarises a pavilion rent.
func (o PavilionOrder) Ref(loc *time.Location) OrderRef {
	start, _ := ParseDateTime(o.HourBeg, loc)
	end, _ := ParseDateTime(o.HourEnd, loc)
	return OrderRef{Kind: KindPavilion, ID: o.RentID(), Name: o.PavilionName, Start: start, End: end, Amount: o.Amount}
}

// Ref summarises a celebration-room rent.
func (o RoomOrder) Ref(loc *time.Location) OrderRef {
	start, _ := ParseDateTime(o.HourBeg, loc)
	end, _ := ParseDateTime(o.HourEnd, loc)
	return OrderRef{Kind: KindRoom, ID: o.RentID(), Name: o.RoomName, Start: start, End: end, Amount: o.Amount}
}

// Ref summarises a water-park order.
func (o AquaOrder) Ref(loc *time.Location) OrderRef {
	start, _ := ParseDateTime(o.DateBeg, loc)
	return OrderRef{Kind: KindAqua, ID: o.OrderID, Start: start, Amount: o.Amount, Canceled: o.Canceled}
}

// Ref summarises a hotel order.
func (o HotelOrder) Ref(loc *time.Location) OrderRef {
	start, _ := ParseDateTime(o.HourBeg, loc)
	end, _ := ParseDateTime(o.HourEnd, loc)
	return OrderRef{Kind: KindHotel, ID: o.OrderID, Start: start, End: end, Amount: o.Amount, Canceled: o.Canceled}
}

// SplitActiveHistory splits orders into active (start ascending) and history
// (start descending).
//
// An order is active when it is not canceled and it has not ended before
// today: its end (or its start, when it has no end) falls on today or later
// in the resort's calendar. So a lesson earlier today is still active (the
// customer may be looking for it), and so is a hotel stay in progress.
func SplitActiveHistory(refs []OrderRef, now time.Time) (active, history []OrderRef) {
	today := today(now)
	for _, r := range refs {
		last := r.Start
		if r.End.After(last) {
			last = r.End
		}
		if !r.Canceled && !last.IsZero() && !last.Before(today) {
			active = append(active, r)
		} else {
			history = append(history, r)
		}
	}
	byStart := func(a, b OrderRef) int {
		return cmp.Or(a.Start.Compare(b.Start), cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.ID, b.ID))
	}
	slices.SortStableFunc(active, byStart)
	slices.SortStableFunc(history, func(a, b OrderRef) int { return byStart(b, a) })
	return active, history
}

// ---- refunds ----

// RefundKind is how a refund is requested.
type RefundKind int

// Refund kinds.
const (
	// RefundDirect: before the start date, no reason or documents needed.
	RefundDirect RefundKind = iota + 1
	// RefundModeration: on or after the start date a reason and documents
	// are required.
	RefundModeration
)

// RefundMode says how an order starting at start is refunded at now:
// direct while the start date is still ahead, moderation when
// it is today or past. An unknown (zero) start means moderation.
func RefundMode(start, now time.Time) RefundKind {
	if !start.IsZero() && Day(start, now.Location()).After(today(now)) {
		return RefundDirect
	}
	return RefundModeration
}

// ---- transfer windows ----

// TransferWindow is the range of dates a lesson, pavilion, room or hotel
// booking can move to: today to the same day next month, both included.
func TransferWindow(now time.Time) (from, to time.Time) {
	from = today(now)
	return from, AddMonths(from, 1)
}

// AddMonths is day moved n months on, kept in its month: a month after
// 31.01 is 28.02 (29.02 in a leap year), never 03.03 as time.AddDate makes
// it. A day that exists in the target month is kept as it is.
func AddMonths(day time.Time, n int) time.Time {
	y, m, d := day.Date()
	first := time.Date(y, m+time.Month(n), 1, day.Hour(), day.Minute(), day.Second(), day.Nanosecond(), day.Location())
	last := first.AddDate(0, 1, -1).Day()
	return first.AddDate(0, 0, min(d, last)-1)
}

// AquaTransferWindow is the range for water-park tickets: today to 30 days
// ahead, both included.
func AquaTransferWindow(now time.Time) (from, to time.Time) {
	from = today(now)
	return from, from.AddDate(0, 0, 30)
}

// InWindow tells whether t's calendar date lies within from..to, both
// included, in from's zone.
func InWindow(t, from, to time.Time) bool {
	loc := from.Location()
	d := Day(t, loc)
	return !d.Before(Day(from, loc)) && !d.After(Day(to, loc))
}

// IsWeekend tells whether t falls on a Saturday or Sunday in t's zone (a
// resort's day, read in the resort's zone).
func IsWeekend(t time.Time) bool {
	switch t.Weekday() {
	case time.Saturday, time.Sunday:
		return true
	}
	return false
}

// WindowError is a day outside a transfer window; its text names the window.
type WindowError struct{ From, To time.Time }

func (e *WindowError) Error() string {
	return "Выберите дату с " + FormatDate(e.From, e.From.Location()) + " по " + FormatDate(e.To, e.To.Location()) + "."
}

// CheckWindow is InWindow as an error for the customer.
func CheckWindow(day, from, to time.Time) error {
	if !InWindow(day, from, to) {
		return &WindowError{From: today(from), To: Day(to, from.Location())}
	}
	return nil
}

// CheckAquaDate checks a move of water-park tickets for original to
// candidate at now: within the water-park window, and a weekday ticket only
// to a weekday, a weekend ticket only to a weekend day (the intended
// rule, which the original enforced badly).
func CheckAquaDate(original, candidate, now time.Time) error {
	from, to := AquaTransferWindow(now)
	if err := CheckWindow(candidate, from, to); err != nil {
		return err
	}
	switch weekend := IsWeekend(original); {
	case weekend && !IsWeekend(candidate):
		return ErrWeekendOnly
	case !weekend && IsWeekend(candidate):
		return ErrWeekdayOnly
	}
	return nil
}

// ---- water-park sessions ----

// IsVIP tells whether a session or ticket name is a VIP one: it contains
// "VIP" in any case, or its Russian spelling "ВИП"; Cyrillic look-alike
// letters typed by mistake ("VIР" with a Cyrillic Р) count too.
func IsVIP(name string) bool {
	up := strings.Map(func(r rune) rune {
		switch r = unicode.ToUpper(r); r {
		case 'Р': // Cyrillic Er
			return 'P'
		case 'І', 'Ӏ': // Ukrainian I, palochka
			return 'I'
		}
		return r
	}, name)
	return strings.Contains(up, "VIP") || strings.Contains(up, "ВИП")
}

// TicketsVIP tells whether an order's tickets are VIP ones (any of them).
func TicketsVIP(tickets []Ticket) bool {
	return slices.ContainsFunc(tickets, func(t Ticket) bool { return IsVIP(t.Title) })
}

// MovableTickets are the tickets a transfer moves: all but the refunded.
func MovableTickets(tickets []Ticket) []Ticket {
	var out []Ticket
	for _, t := range tickets {
		if t.Status != TicketRefunded {
			out = append(out, t)
		}
	}
	return out
}

// CheckSession checks a move of tickets to session on date at now:
// VIP tickets only to VIP sessions and others only to others; not
// to a past day; today only to sessions whose end hour is later than the
// current hour; and only when the session has a place for every ticket.
func CheckSession(s AquaSession, ticketsVIP bool, date, now time.Time, ticketCount int) error {
	switch {
	case ticketCount < 1:
		return ErrNoTickets
	case ticketsVIP && !IsVIP(s.Name):
		return ErrSessionVIP
	case !ticketsVIP && IsVIP(s.Name):
		return ErrSessionRegular
	}
	day, today := Day(date, now.Location()), today(now)
	switch {
	case day.Before(today):
		return ErrSessionOver
	case day.Equal(today):
		if end, ok := sessionEndHour(s.EndTime); !ok || end <= now.Hour() {
			return ErrSessionOver
		}
	}
	if s.AvailableCount < ticketCount {
		return ErrSessionFull
	}
	return nil
}

// ErrSameSession is a move to the session the tickets are for already.
var ErrSameSession = &RuleError{"Билеты уже оформлены на этот сеанс."}

// SameSession tells whether s on date is the session order's tickets are
// for: the same day and start time, of the same class (VIP or not).
func SameSession(order AquaOrder, s AquaSession, date time.Time) bool {
	start, err := ParseDateTime(order.DateBeg, date.Location())
	if err != nil || !today(start).Equal(today(date)) {
		return false
	}
	return start.Format("15:04") == strings.TrimSpace(s.SessionTime) && IsVIP(s.Name) == TicketsVIP(order.Tickets)
}

// sessionEndHour reads "16:00"; a session ending at midnight ("00:00" or
// "24:00") ends at hour 24.
func sessionEndHour(s string) (int, bool) {
	h, _, _ := strings.Cut(strings.TrimSpace(s), ":")
	n, err := strconv.Atoi(h)
	if err != nil || n < 0 || n > 24 {
		return 0, false
	}
	if n == 0 {
		n = 24
	}
	return n, true
}

// ---- rule errors ----

// RuleError is a customer's choice that breaks a rule of a move. Its text
// is the one the customer sees.
type RuleError struct{ msg string }

func (e *RuleError) Error() string { return e.msg }

// Rule errors; compare with errors.Is.
var (
	ErrBusyHours      = &RuleError{"Невозможно выбрать период с неактивными часами."}
	ErrPeriodReversed = &RuleError{"Время окончания не может быть раньше времени начала."}
	ErrPeriodEmpty    = &RuleError{"Время окончания должно быть позже времени начала."}
	ErrRangeReversed  = &RuleError{"Дата выезда не может быть раньше даты заезда."}
	ErrRangeEmpty     = &RuleError{"Дата выезда должна быть позже даты заезда."}
	ErrDayUnavailable = &RuleError{"На выбранные даты нет свободных номеров."}
	ErrRangePrice     = &RuleError{"Стоимость выбранных дат не совпадает со стоимостью заказа."}
	ErrWeekdayOnly    = &RuleError{"Билеты буднего дня можно перенести только на будний день."}
	ErrWeekendOnly    = &RuleError{"Билеты выходного дня можно перенести только на выходной день."}
	ErrNoTickets      = &RuleError{"В заказе нет билетов для переноса."}
	ErrSessionVIP     = &RuleError{"VIP-билеты можно перенести только на VIP-сеанс."}
	ErrSessionRegular = &RuleError{"Обычные билеты нельзя перенести на VIP-сеанс."}
	ErrSessionOver    = &RuleError{"Этот сеанс уже закончился."}
	ErrSessionFull    = &RuleError{"На этом сеансе не хватает мест для всех билетов."}
)

// PeriodAmountError is a slot period whose price differs from the order's
// amount. Hours is how many hours the amount pays for.
type PeriodAmountError struct{ Hours float64 }

func (e *PeriodAmountError) Error() string {
	return "Такой период невозможен, необходимо выбрать от и до, вам доступно: " + FormatHours(e.Hours) + " ч."
}

// FormatHours writes a number of hours for customers: 3 as "3", 2.5 as "2,5".
func FormatHours(h float64) string {
	h = math.Round(h*100) / 100
	return strings.ReplaceAll(strconv.FormatFloat(h, 'f', -1, 64), ".", ",")
}

func moneyEqual(a, b float64) bool { return math.Abs(a-b) < 0.005 }

// ---- time-slot moves (pavilion, celebration room) ----

// CheckSlotPeriod checks a move of a rent to the hours from..to of schedule s.
// from and to are the starts of the first and the last hour
// chosen, both included, so from == to is one hour. Every hour must be listed
// and free, and the hours times s.Cost must equal amount, the order's total.
func CheckSlotPeriod(s Schedule, from, to time.Time, amount float64) error {
	if to.Before(from) {
		return ErrPeriodReversed
	}
	free := make(map[int64]bool, len(s.Details))
	for _, h := range s.Details {
		if t, err := ParseISO(h.Hour, nil); err == nil {
			free[t.Unix()] = h.Status == 0
		}
	}
	hours := int(to.Sub(from)/time.Hour) + 1
	if hours > len(s.Details) {
		return ErrBusyHours
	}
	for h := from; !h.After(to); h = h.Add(time.Hour) {
		if !free[h.Unix()] {
			return ErrBusyHours
		}
	}
	if s.Cost <= 0 {
		return &PeriodAmountError{}
	}
	if !moneyEqual(float64(hours)*s.Cost, amount) {
		return &PeriodAmountError{Hours: amount / s.Cost}
	}
	return nil
}

// CheckSlotMove checks a move as the form posts it: from is the start of
// the first hour and end the time the last
// hour ends, so 10:00..12:00 is the two hours 10 and 11. An end before the
// start, or equal to it, is refused before the hours are looked at.
func CheckSlotMove(s Schedule, from, end time.Time, amount float64) error {
	switch {
	case end.Before(from):
		return ErrPeriodReversed
	case end.Equal(from):
		return ErrPeriodEmpty
	case end.Sub(from)%time.Hour != 0:
		return ErrBusyHours // the last hour would not be a whole listed hour
	}
	return CheckSlotPeriod(s, from, end.Add(-time.Hour), amount)
}

// SlotEnd is when the hour starting at last ends: the newRentDateEnd of a
// move whose last chosen hour is last.
func SlotEnd(last time.Time) time.Time { return last.Add(time.Hour) }

// ---- hotel ----

// HotelDayAvailable tells whether a night has the order's rooms free.
func HotelDayAvailable(day HotelDay, rooms, familyRooms int) bool {
	return day.Vacant >= rooms && day.Family >= familyRooms
}

// HotelRooms is how many ordinary and family rooms an order holds; an order
// has at least one room even if the lists are missing.
func HotelRooms(o HotelOrder) (rooms, family int) {
	rooms, family = len(o.Rooms), len(o.FamilyRooms)
	if rooms+family == 0 {
		rooms = 1
	}
	return rooms, family
}

// HotelNightPrice is what a night costs for the order's rooms.
func HotelNightPrice(day HotelDay, rooms, family int) float64 {
	return day.Price*float64(rooms) + day.PriceFamily*float64(family)
}

// HotelDayKey is a night's period as yyyy-mm-dd ("2026-11-21T00:00:00" is
// read as its date).
func HotelDayKey(d HotelDay) string {
	p := strings.TrimSpace(d.Period)
	if len(p) > len(LayoutISODate) {
		p = p[:len(LayoutISODate)]
	}
	return p
}

// CheckHotelRange checks a move of order to check-in start and check-out end:
// end after start; each night from start up to (not including)
// end listed in days and available; and the nights' price (price × rooms +
// priceFamily × family rooms) equal to the order's room amount.
func CheckHotelRange(days []HotelDay, start, end time.Time, order HotelOrder) error {
	loc := start.Location()
	s, e := Day(start, loc), Day(end, loc)
	switch {
	case e.Before(s):
		return ErrRangeReversed
	case e.Equal(s):
		return ErrRangeEmpty
	}
	byDate := make(map[string]HotelDay, len(days))
	for _, d := range days {
		byDate[HotelDayKey(d)] = d
	}
	rooms, family := HotelRooms(order)
	var total float64
	for d := s; d.Before(e); d = d.AddDate(0, 0, 1) {
		day, ok := byDate[FormatISODate(d, loc)]
		if !ok || !HotelDayAvailable(day, rooms, family) {
			return ErrDayUnavailable
		}
		total += HotelNightPrice(day, rooms, family)
	}
	if !moneyEqual(total, order.AmountRooms) {
		return ErrRangePrice
	}
	return nil
}

// ---- lessons ----

// Rule errors of a lesson transfer.
var (
	ErrOtherSport = &RuleError{"Перенос возможен только на занятие того же вида спорта."}
	ErrSameLesson = &RuleError{"Вы уже записаны на это занятие."}
)

// CheckLesson tells whether a booking can move to lesson l: the
// same kind of sport, and not the lesson at the booking's own date and time.
func CheckLesson(current LessonOrder, l Lesson) error {
	if !strings.EqualFold(strings.TrimSpace(l.KindOfSport), strings.TrimSpace(current.KindOfSport)) {
		return ErrOtherSport
	}
	cur, curErr := ParseDateTime(current.DateBeg, nil)
	if t, err := ParseDateTime(l.DateBeg, nil); err == nil && curErr == nil {
		if t.Equal(cur) {
			return ErrSameLesson
		}
	} else if strings.TrimSpace(l.DateBeg) == strings.TrimSpace(current.DateBeg) {
		return ErrSameLesson
	}
	return nil
}

// TransferLessons picks the lessons a booking can move to (CheckLesson),
// sorted by date.
func TransferLessons(current LessonOrder, offered []Lesson) []Lesson {
	var out []Lesson
	for _, l := range offered {
		if CheckLesson(current, l) == nil {
			out = append(out, l)
		}
	}
	at := func(l Lesson) time.Time {
		t, err := ParseDateTime(l.DateBeg, nil)
		if err != nil {
			return time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC) // unreadable last
		}
		return t
	}
	slices.SortStableFunc(out, func(a, b Lesson) int { return at(a).Compare(at(b)) })
	return out
}

// ---- logs ----

// MaskPhone hides a phone for logs: "79001234500" becomes
// "+7 900 ***-**-00". Anything that is not a Russian mobile number keeps
// only its last two digits.
func MaskPhone(phone string) string {
	d := strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, phone)
	if len(d) == 11 && (d[0] == '7' || d[0] == '8') {
		d = d[1:]
	}
	switch {
	case len(d) == 10:
		return "+7 " + d[:3] + " ***-**-" + d[8:]
	case len(d) >= 4:
		return "***" + d[len(d)-2:]
	case d == "":
		return ""
	default:
		return "***"
	}
}

// GateCode is what the ticket's QR code holds, as the gate's scanner reads
// it: the barcode, or when the provider gave none, the ticket's number, its
// id, or the order's id. The ticket PDF and the order page draw the same.
func (t Ticket) GateCode(orderID string) string {
	for _, s := range []string{t.Barcode, t.TicketNumber, t.ID, orderID} {
		if strings.TrimSpace(s) != "" {
			return s
		}
	}
	return ""
}
