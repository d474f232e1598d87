package gateway

import (
	"errors"
	"reflect"
	"testing"
	"time"
)

// at is a resort wall-clock time.
func at(y int, m time.Month, d, h, min int) time.Time {
	return time.Date(y, m, d, h, min, 0, 0, ResortLocation())
}

func TestStatusLabel(t *testing.T) {
	tests := []struct {
		canceled, paid bool
		want           string
	}{
		{true, true, "Отменен"},
		{true, false, "Отменен"},
		{false, true, "Оплачен"},
		{false, false, "Не оплачен"},
	}
	for _, tt := range tests {
		if got := StatusLabel(tt.canceled, tt.paid); got != tt.want {
			t.Errorf("StatusLabel(%v, %v) = %q, want %q", tt.canceled, tt.paid, got, tt.want)
		}
	}
}

// checkEach checks f on every input of tests against its wanted output.
func checkEach[I, O comparable](t *testing.T, name string, f func(I) O, tests map[I]O) {
	t.Helper()
	for in, want := range tests {
		if got := f(in); got != want {
			t.Errorf("%s(%#v) = %#v, want %#v", name, in, got, want)
		}
	}
}

func TestTicketStatusSuffix(t *testing.T) {
	tests := map[string]string{
		TicketRefunded: "(оформлен возврат)",
		TicketWaiting:  "(ожидает оплаты)",
		TicketPaid:     "",
		"":             "",
		"unknown":      "",
	}
	checkEach(t, "TicketStatusSuffix", TicketStatusSuffix, tests)
}

func TestCanShowDocument(t *testing.T) {
	paid, waiting := Ticket{Status: TicketPaid}, Ticket{Status: TicketWaiting}
	tests := []struct {
		name     string
		canceled bool
		tickets  []Ticket
		want     bool
	}{
		{"hotel", false, nil, true},
		{"hotel canceled", true, nil, false},
		{"all paid", false, []Ticket{paid, paid}, true},
		{"one waiting", false, []Ticket{paid, waiting}, false},
		{"canceled", true, []Ticket{paid}, false},
	}
	for _, tt := range tests {
		if got := CanShowDocument(tt.canceled, tt.tickets); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestParseKind(t *testing.T) {
	tests := []struct {
		in   string
		want Kind
		ok   bool
	}{
		{"glk", KindLesson, true},
		{"GLK", KindLesson, true},
		{"pavilion", KindPavilion, true},
		{"aqua", KindAqua, true},
		{"hotel", KindHotel, true},
		{"celRoom", KindRoom, true},
		{"", "", false},
		{"room", "", false},
		{"glk ", "", false},
	}
	for _, tt := range tests {
		got, ok := ParseKind(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("ParseKind(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestRefs(t *testing.T) {
	tests := []struct {
		name string
		ref  OrderRef
		want OrderRef
	}{
		{"lesson", LessonOrder{DocID: "d1", ExerciseSort: "Группа", DateBeg: "21.11.2026 10:00:00", Cost: 1500}.Ref(nil),
			OrderRef{Kind: KindLesson, ID: "d1", Name: "Группа", Start: at(2026, 11, 21, 10, 0), Amount: 1500}},
		{"pavilion", PavilionOrder{PavilionName: "Беседка", HourBeg: "21.11.2026 10:00:00", HourEnd: "21.11.2026 12:00:00",
			Amount: 2000, Details: []RentDetail{{RentID: "r1"}}}.Ref(nil),
			OrderRef{Kind: KindPavilion, ID: "r1", Name: "Беседка", Start: at(2026, 11, 21, 10, 0), End: at(2026, 11, 21, 12, 0), Amount: 2000}},
		{"room", RoomOrder{RoomName: "Зал", HourBeg: "21.11.2026 10:00:00", Details: []RentDetail{{RentID: "r2"}}}.Ref(nil),
			OrderRef{Kind: KindRoom, ID: "r2", Name: "Зал", Start: at(2026, 11, 21, 10, 0)}},
		{"aqua", AquaOrder{OrderID: "a1", DateBeg: "21.11.2026 00:00:00", Amount: 900, Canceled: true}.Ref(nil),
			OrderRef{Kind: KindAqua, ID: "a1", Start: at(2026, 11, 21, 0, 0), Amount: 900, Canceled: true}},
		{"hotel", HotelOrder{OrderID: "h1", HourBeg: "21.11.2026 16:00:00", HourEnd: "23.11.2026 14:00:00"}.Ref(nil),
			OrderRef{Kind: KindHotel, ID: "h1", Start: at(2026, 11, 21, 16, 0), End: at(2026, 11, 23, 14, 0)}},
		{"unreadable date", LessonOrder{DocID: "d2", DateBeg: "завтра"}.Ref(nil), OrderRef{Kind: KindLesson, ID: "d2"}},
	}
	for _, tt := range tests {
		if !reflect.DeepEqual(tt.ref, tt.want) {
			t.Errorf("%s: %+v, want %+v", tt.name, tt.ref, tt.want)
		}
	}
}

func TestSplitActiveHistory(t *testing.T) {
	now := at(2026, 11, 21, 15, 0)
	ref := func(id string, start, end time.Time) OrderRef {
		return OrderRef{Kind: KindAqua, ID: id, Start: start, End: end}
	}
	refs := []OrderRef{
		ref("tomorrow", at(2026, 11, 22, 10, 0), time.Time{}),
		ref("this morning", at(2026, 11, 21, 9, 0), time.Time{}),
		ref("yesterday", at(2026, 11, 20, 10, 0), time.Time{}),
		ref("stay in progress", at(2026, 11, 19, 16, 0), at(2026, 11, 23, 14, 0)),
		ref("last year", at(2025, 11, 21, 10, 0), time.Time{}),
		{Kind: KindAqua, ID: "canceled", Start: at(2026, 12, 1, 0, 0), Canceled: true},
		ref("no date", time.Time{}, time.Time{}),
		ref("next week", at(2026, 11, 28, 10, 0), time.Time{}),
	}
	active, history := SplitActiveHistory(refs, now)
	ids := func(rs []OrderRef) []string {
		var out []string
		for _, r := range rs {
			out = append(out, r.ID)
		}
		return out
	}
	if got, want := ids(active), []string{"stay in progress", "this morning", "tomorrow", "next week"}; !reflect.DeepEqual(got, want) {
		t.Errorf("active %q, want %q", got, want)
	}
	if got, want := ids(history), []string{"canceled", "yesterday", "last year", "no date"}; !reflect.DeepEqual(got, want) {
		t.Errorf("history %q, want %q", got, want)
	}
	// Today is the day in now's zone, the configured one: 22:30 UTC on the
	// 20th is already the 21st in Moscow, still the 20th in New York.
	x := []OrderRef{ref("x", at(2026, 11, 20, 23, 0), time.Time{})}
	instant := time.Date(2026, 11, 20, 22, 30, 0, 0, time.UTC)
	if active, _ = SplitActiveHistory(x, instant.In(ResortLocation())); len(active) != 0 {
		t.Errorf("Moscow: an order of yesterday is active")
	}
	if active, _ = SplitActiveHistory(x, instant.In(zone(t, "America/New_York"))); len(active) != 1 {
		t.Errorf("New York: an order of today is not active")
	}
}

func zone(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

func TestRefundMode(t *testing.T) {
	now := at(2026, 11, 21, 15, 0)
	tests := []struct {
		name  string
		start time.Time
		want  RefundKind
	}{
		{"tomorrow", at(2026, 11, 22, 0, 0), RefundDirect},
		{"next month", at(2026, 12, 21, 10, 0), RefundDirect},
		{"later today", at(2026, 11, 21, 23, 0), RefundModeration},
		{"earlier today", at(2026, 11, 21, 0, 0), RefundModeration},
		{"yesterday", at(2026, 11, 20, 23, 59), RefundModeration},
		{"unknown", time.Time{}, RefundModeration},
		// 21:30 UTC on the 21st is 00:30 on the 22nd at the resort: tomorrow.
		{"tomorrow by resort clock", time.Date(2026, 11, 21, 21, 30, 0, 0, time.UTC), RefundDirect},
	}
	for _, tt := range tests {
		if got := RefundMode(tt.start, now); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
	// In New York both are the 21st (07:00 and 16:30): the start is today.
	if got := RefundMode(time.Date(2026, 11, 21, 21, 30, 0, 0, time.UTC), now.In(zone(t, "America/New_York"))); got != RefundModeration {
		t.Errorf("New York: %v, want moderation", got)
	}
}

func TestTransferWindows(t *testing.T) {
	now := at(2026, 1, 31, 18, 0)
	from, to := TransferWindow(now)
	if !from.Equal(at(2026, 1, 31, 0, 0)) || !to.Equal(at(2026, 2, 28, 0, 0)) { // a month ahead of 31.01 is 28.02
		t.Errorf("TransferWindow = %v..%v", from, to)
	}
	now = at(2026, 11, 21, 18, 0)
	from, to = TransferWindow(now)
	if !from.Equal(at(2026, 11, 21, 0, 0)) || !to.Equal(at(2026, 12, 21, 0, 0)) {
		t.Errorf("TransferWindow = %v..%v", from, to)
	}
	afrom, ato := AquaTransferWindow(now)
	if !afrom.Equal(from) || !ato.Equal(at(2026, 12, 21, 0, 0)) {
		t.Errorf("AquaTransferWindow = %v..%v", afrom, ato)
	}
	tests := []struct {
		t    time.Time
		want bool
	}{
		{at(2026, 11, 20, 23, 59), false},
		{at(2026, 11, 21, 0, 0), true},
		{at(2026, 11, 21, 23, 59), true},
		{at(2026, 12, 21, 23, 59), true},
		{at(2026, 12, 22, 0, 0), false},
	}
	for _, tt := range tests {
		if got := InWindow(tt.t, from, to); got != tt.want {
			t.Errorf("InWindow(%v) = %v, want %v", tt.t, got, tt.want)
		}
	}
	// 17:30 in Moscow on the 21st is 00:30 on the 22nd in Vladivostok: a
	// resort there opens its window on the 22nd.
	vvo := zone(t, "Asia/Vladivostok")
	from, to = TransferWindow(now.Add(-30 * time.Minute).In(vvo))
	if want := time.Date(2026, 11, 22, 0, 0, 0, 0, vvo); !from.Equal(want) || !to.Equal(want.AddDate(0, 1, 0)) {
		t.Errorf("Vladivostok: TransferWindow = %v..%v", from, to)
	}
	if !InWindow(at(2026, 11, 21, 18, 0), from, to) { // 01:00 on the 22nd there
		t.Errorf("Vladivostok: 18:00 Moscow on the 21st is outside")
	}
	if InWindow(at(2026, 11, 21, 16, 0), from, to) { // 23:00 on the 21st there
		t.Errorf("Vladivostok: 16:00 Moscow on the 21st is inside")
	}
}

func TestIsWeekend(t *testing.T) {
	tests := []struct {
		t    time.Time
		want bool
	}{
		{at(2026, 11, 20, 12, 0), false}, // Friday
		{at(2026, 11, 21, 12, 0), true},  // Saturday
		{at(2026, 11, 22, 23, 0), true},  // Sunday
		{at(2026, 11, 23, 0, 0), false},  // Monday
		// Friday 22:00 UTC is Saturday 01:00 in Moscow; read in UTC, Friday.
		{time.Date(2026, 11, 20, 22, 0, 0, 0, time.UTC).In(ResortLocation()), true},
		{time.Date(2026, 11, 20, 22, 0, 0, 0, time.UTC), false},
	}
	for _, tt := range tests {
		if got := IsWeekend(tt.t); got != tt.want {
			t.Errorf("IsWeekend(%v) = %v, want %v", tt.t, got, tt.want)
		}
	}
}

func TestCheckAquaDateAllows(t *testing.T) {
	now := at(2026, 11, 18, 12, 0) // Wednesday
	weekday, weekend := at(2026, 11, 19, 0, 0), at(2026, 11, 21, 0, 0)
	tests := []struct {
		name                string
		original, candidate time.Time
		want                bool
	}{
		{"weekday to weekday", weekday, at(2026, 11, 20, 0, 0), true},
		{"weekday to today", weekday, now, true},
		{"weekday to weekend", weekday, at(2026, 11, 22, 0, 0), false},
		{"weekend to weekend", weekend, at(2026, 11, 28, 0, 0), true},
		{"weekend to weekday", weekend, at(2026, 11, 23, 0, 0), false},
		{"30 days ahead", weekday, at(2026, 12, 18, 0, 0), true}, // Friday
		{"31 days ahead", weekday, at(2026, 12, 21, 0, 0), false},
		{"yesterday", weekday, at(2026, 11, 17, 0, 0), false},
	}
	for _, tt := range tests {
		if got := CheckAquaDate(tt.original, tt.candidate, now) == nil; got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestIsVIP(t *testing.T) {
	tests := map[string]bool{
		"VIP вечерний":        true,
		"vip":                 true,
		"Вечерний Vip-сеанс":  true,
		"ВИП дневной":         true,
		"вип":                 true,
		"VIР (Cyrillic Er)":   true,
		"Дневной":             false,
		"":                    false,
		"Взрослый, весь день": false,
		"V I P":               false,
	}
	checkEach(t, "IsVIP", IsVIP, tests)
	if !TicketsVIP([]Ticket{{Title: "Детский"}, {Title: "VIP взрослый"}}) || TicketsVIP([]Ticket{{Title: "Детский"}}) || TicketsVIP(nil) {
		t.Error("TicketsVIP")
	}
}

// CheckSession at 15:40 on 21.11.2026: nil where the tickets fit the
// session, else the rule that refuses them.
func TestCheckSessionSaysWhichRule(t *testing.T) {
	now := at(2026, 11, 21, 15, 40)
	today, tomorrow, yesterday := at(2026, 11, 21, 0, 0), at(2026, 11, 22, 0, 0), at(2026, 11, 20, 0, 0)
	day := AquaSession{Name: "Дневной", EndTime: "16:00", AvailableCount: 5}
	vip := AquaSession{Name: "VIP вечерний", EndTime: "22:00", AvailableCount: 2}
	tests := []struct {
		name    string
		s       AquaSession
		vip     bool
		date    time.Time
		tickets int
		want    error
	}{
		{"ordinary tomorrow", day, false, tomorrow, 3, nil},
		{"VIP ticket, ordinary session", day, true, tomorrow, 1, ErrSessionVIP},
		{"ordinary ticket, VIP session", vip, false, tomorrow, 1, ErrSessionRegular},
		{"VIP with VIP", vip, true, tomorrow, 2, nil},
		{"too few places", vip, true, tomorrow, 3, ErrSessionFull},
		{"exactly enough places", day, false, tomorrow, 5, nil},
		{"no tickets", day, false, tomorrow, 0, ErrNoTickets},
		{"today, ends later hour", day, false, today, 1, nil}, // 16 > 15
		{"today, ends this hour", AquaSession{Name: "Утренний", EndTime: "15:00", AvailableCount: 9}, false, today, 1, ErrSessionOver},
		{"today, ended", AquaSession{Name: "Утренний", EndTime: "13:00", AvailableCount: 9}, false, today, 1, ErrSessionOver},
		{"today, ends at midnight", AquaSession{Name: "Ночной", EndTime: "00:00", AvailableCount: 9}, false, today, 1, nil},
		{"today, unreadable end", AquaSession{Name: "Дневной", EndTime: "", AvailableCount: 9}, false, today, 1, ErrSessionOver},
		{"yesterday", day, false, yesterday, 1, ErrSessionOver},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := CheckSession(tt.s, tt.vip, tt.date, now, tt.tickets); !errors.Is(got, tt.want) {
				t.Errorf("%v, want %v", got, tt.want)
			}
		})
	}
}

func TestHotelDayAvailable(t *testing.T) {
	d := HotelDay{Vacant: 2, Family: 1}
	tests := []struct {
		rooms, family int
		want          bool
	}{
		{1, 0, true}, {2, 1, true}, {3, 0, false}, {0, 2, false}, {0, 0, true},
	}
	for _, tt := range tests {
		if got := HotelDayAvailable(d, tt.rooms, tt.family); got != tt.want {
			t.Errorf("HotelDayAvailable(%d, %d) = %v, want %v", tt.rooms, tt.family, got, tt.want)
		}
	}
}

func TestCheckHotelRange(t *testing.T) {
	days := []HotelDay{
		{Period: "2026-11-21", Vacant: 3, Family: 1, Price: 4000, PriceFamily: 7000},
		{Period: "2026-11-22", Vacant: 3, Family: 1, Price: 5000, PriceFamily: 8000},
		{Period: "2026-11-23T00:00:00", Vacant: 1, Family: 0, Price: 4000, PriceFamily: 7000},
		{Period: "2026-11-25", Vacant: 3, Family: 1, Price: 4000, PriceFamily: 7000},
	}
	one := HotelOrder{Rooms: []Room{{}}, AmountRooms: 9000}
	family := HotelOrder{Rooms: []Room{{}}, FamilyRooms: []Room{{}}, AmountRooms: 24000}
	two := HotelOrder{Rooms: []Room{{}, {}}, AmountRooms: 18000}
	tests := []struct {
		name       string
		start, end time.Time
		order      HotelOrder
		want       error
	}{
		{"two nights", at(2026, 11, 21, 0, 0), at(2026, 11, 23, 0, 0), one, nil},
		{"times of day ignored", at(2026, 11, 21, 16, 0), at(2026, 11, 23, 14, 0), one, nil},
		{"with a family room", at(2026, 11, 21, 0, 0), at(2026, 11, 23, 0, 0), family, nil},
		{"two rooms", at(2026, 11, 21, 0, 0), at(2026, 11, 23, 0, 0), two, nil},
		{"no room list counts one", at(2026, 11, 21, 0, 0), at(2026, 11, 23, 0, 0), HotelOrder{AmountRooms: 9000}, nil},
		{"reversed", at(2026, 11, 23, 0, 0), at(2026, 11, 21, 0, 0), one, ErrRangeReversed},
		{"same day", at(2026, 11, 21, 0, 0), at(2026, 11, 21, 0, 0), one, ErrRangeEmpty},
		{"night not listed", at(2026, 11, 24, 0, 0), at(2026, 11, 26, 0, 0), HotelOrder{Rooms: []Room{{}}, AmountRooms: 8000}, ErrDayUnavailable},
		{"family room not vacant", at(2026, 11, 22, 0, 0), at(2026, 11, 24, 0, 0), HotelOrder{Rooms: []Room{{}}, FamilyRooms: []Room{{}}, AmountRooms: 24000}, ErrDayUnavailable},
		{"too few rooms", at(2026, 11, 23, 0, 0), at(2026, 11, 24, 0, 0), HotelOrder{Rooms: []Room{{}, {}}, AmountRooms: 8000}, ErrDayUnavailable},
		{"price differs", at(2026, 11, 21, 0, 0), at(2026, 11, 23, 0, 0), HotelOrder{Rooms: []Room{{}}, AmountRooms: 9500}, ErrRangePrice},
		{"one night too few", at(2026, 11, 21, 0, 0), at(2026, 11, 22, 0, 0), one, ErrRangePrice},
	}
	for _, tt := range tests {
		err := CheckHotelRange(days, tt.start, tt.end, tt.order)
		if !errors.Is(err, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, err, tt.want)
		}
	}
}

func TestCheckSlotPeriod(t *testing.T) {
	s := Schedule{Cost: 1000, HourEnd: "2026-11-21T22:00:00", Details: []TimetableHour{
		{Hour: "2026-11-21T10:00:00", Status: 0},
		{Hour: "2026-11-21T11:00:00", Status: 0},
		{Hour: "2026-11-21T12:00:00", Status: 1},
		{Hour: "2026-11-21T13:00:00", Status: 0},
		{Hour: "2026-11-21T14:00:00", Status: 0},
		{Hour: "2026-11-21T15:00:00", Status: 0},
	}}
	h := func(hour int) time.Time { return at(2026, 11, 21, hour, 0) }
	tests := []struct {
		name     string
		from, to time.Time
		amount   float64
		want     string // error text, "" for none
	}{
		{"two free hours", h(10), h(11), 2000, ""},
		{"one hour", h(13), h(13), 1000, ""},
		{"three free hours", h(13), h(15), 3000, ""},
		{"across a busy hour", h(11), h(13), 3000, "Невозможно выбрать период с неактивными часами."},
		{"busy hour alone", h(12), h(12), 1000, "Невозможно выбрать период с неактивными часами."},
		{"hour not listed", h(15), h(16), 2000, "Невозможно выбрать период с неактивными часами."},
		{"off the hour", h(10).Add(30 * time.Minute), h(11), 1000, "Невозможно выбрать период с неактивными часами."},
		{"reversed", h(11), h(10), 2000, "Время окончания не может быть раньше времени начала."},
		{"too short", h(13), h(13), 2000, "Такой период невозможен, необходимо выбрать от и до, вам доступно: 2 ч."},
		{"too long", h(13), h(15), 2000, "Такой период невозможен, необходимо выбрать от и до, вам доступно: 2 ч."},
		{"fractional amount", h(13), h(14), 2500, "Такой период невозможен, необходимо выбрать от и до, вам доступно: 2,5 ч."},
	}
	for _, tt := range tests {
		err := CheckSlotPeriod(s, tt.from, tt.to, tt.amount)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
	if err := CheckSlotPeriod(s, h(11), h(13), 3000); !errors.Is(err, ErrBusyHours) {
		t.Errorf("busy period: %v is not ErrBusyHours", err)
	}
	var pa *PeriodAmountError
	if err := CheckSlotPeriod(s, h(13), h(13), 3000); !errors.As(err, &pa) || pa.Hours != 3 {
		t.Errorf("amount error %v", err)
	}
	if got := SlotEnd(h(11)); !got.Equal(h(12)) {
		t.Errorf("SlotEnd = %v", got)
	}
}

func TestTransferLessons(t *testing.T) {
	current := LessonOrder{DocID: "d1", KindOfSport: "Горные лыжи", DateBeg: "21.11.2026 10:00:00"}
	offered := []Lesson{
		{LessonID: "l4", KindOfSport: "Горные лыжи", DateBeg: "23.11.2026 10:00:00"},
		{LessonID: "l1", KindOfSport: "Горные лыжи", DateBeg: "21.11.2026 10:00:00"}, // the current one
		{LessonID: "l2", KindOfSport: "Сноуборд", DateBeg: "22.11.2026 10:00:00"},
		{LessonID: "l3", KindOfSport: "горные лыжи ", DateBeg: "21.11.2026 12:00:00"},
		{LessonID: "l5", KindOfSport: "Горные лыжи", DateBeg: "2026-11-22T09:00:00"},
	}
	var got []string
	for _, l := range TransferLessons(current, offered) {
		got = append(got, l.LessonID)
	}
	if want := []string{"l3", "l5", "l4"}; !reflect.DeepEqual(got, want) {
		t.Errorf("TransferLessons = %q, want %q", got, want)
	}
	if TransferLessons(current, nil) != nil {
		t.Error("no lessons offered gives some")
	}
}

func TestMaskPhone(t *testing.T) {
	tests := map[string]string{
		"79001234500":        "+7 900 ***-**-00",
		"89001234567":        "+7 900 ***-**-67",
		"+7 (900) 123-45-67": "+7 900 ***-**-67",
		"9001234567":         "+7 900 ***-**-67",
		"12345":              "***45",
		"12":                 "***",
		"":                   "",
	}
	checkEach(t, "MaskPhone", MaskPhone, tests)
}

func TestDates(t *testing.T) {
	msk := ResortLocation()
	want := time.Date(2026, 11, 21, 10, 30, 0, 0, msk)
	for _, s := range []string{"21.11.2026 10:30:00", " 21.11.2026 10:30 ", "2026-11-21T10:30:00", "2026-11-21T10:30:00.000",
		"2026-11-21T07:30:00Z", "2026-11-21T10:30:00+03:00"} {
		got, err := ParseDateTime(s, nil)
		if err != nil || !got.Equal(want) {
			t.Errorf("ParseDateTime(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	if got, err := ParseDateTime("21.11.2026", nil); err != nil || !got.Equal(time.Date(2026, 11, 21, 0, 0, 0, 0, msk)) {
		t.Errorf("ParseDateTime(date) = %v, %v", got, err)
	}
	for _, bad := range []string{"", "32.11.2026 10:00:00", "21/11/2026", "завтра"} {
		if _, err := ParseDateTime(bad, nil); err == nil {
			t.Errorf("ParseDateTime(%q) accepted", bad)
		}
	}
	if got, err := ParseBirthdate("01_02_1990", nil); err != nil || !got.Equal(time.Date(1990, 2, 1, 0, 0, 0, 0, msk)) {
		t.Errorf("ParseBirthdate = %v, %v", got, err)
	}
	if got, err := ParseBirthdate("", nil); err != nil || !got.IsZero() {
		t.Errorf("ParseBirthdate(empty) = %v, %v", got, err)
	}
	if _, err := ParseBirthdate("01.02.1990", nil); err == nil {
		t.Error("ParseBirthdate accepted dots")
	}
	if got, err := ParseDay("01.02.1990", nil); err != nil || !got.Equal(time.Date(1990, 2, 1, 0, 0, 0, 0, msk)) {
		t.Errorf("ParseDay(dd.mm.yyyy) = %v, %v", got, err)
	}
	if got, err := ParseISO("2026-11-21", nil); err != nil || !got.Equal(time.Date(2026, 11, 21, 0, 0, 0, 0, msk)) {
		t.Errorf("ParseISO(date) = %v, %v", got, err)
	}
	utc := time.Date(2026, 11, 20, 22, 0, 0, 0, time.UTC) // 21.11 01:00 at the resort
	formats := []struct{ got, want string }{
		{FormatDateTime(utc, nil), "21.11.2026 01:00:00"},
		{FormatDate(utc, nil), "21.11.2026"},
		{FormatISO(utc, nil), "2026-11-21T01:00:00"},
		{FormatISODate(utc, nil), "2026-11-21"},
		{FormatDate(utc, time.UTC), "20.11.2026"},
	}
	for _, f := range formats {
		if f.got != f.want {
			t.Errorf("format %q, want %q", f.got, f.want)
		}
	}
	if d := Day(utc, nil); !d.Equal(time.Date(2026, 11, 21, 0, 0, 0, 0, msk)) {
		t.Errorf("Day = %v", d)
	}
}

func TestTicketGateCode(t *testing.T) {
	for _, c := range []struct {
		t    Ticket
		want string
	}{
		{Ticket{Barcode: "4600300001001", TicketNumber: "AQ-1", ID: "1-1"}, "4600300001001"},
		{Ticket{Barcode: " ", TicketNumber: "AQ-1", ID: "1-1"}, "AQ-1"},
		{Ticket{ID: "1-1"}, "1-1"},
		{Ticket{}, "300001"},
	} {
		if got := c.t.GateCode("300001"); got != c.want {
			t.Errorf("%+v: %q, want %q", c.t, got, c.want)
		}
	}
}

func TestCheckAquaDateSaysWhichRule(t *testing.T) {
	now := at(2026, 11, 18, 12, 0)
	err := CheckAquaDate(at(2026, 11, 19, 0, 0), at(2026, 12, 25, 0, 0), now)
	if err == nil || err.Error() != "Выберите дату с 18.11.2026 по 18.12.2026." {
		t.Errorf("out of the window: %v", err)
	}
	if err := CheckAquaDate(at(2026, 11, 19, 0, 0), at(2026, 11, 21, 0, 0), now); !errors.Is(err, ErrWeekdayOnly) {
		t.Errorf("weekday to Saturday: %v", err)
	}
}

func TestHotelRoomsAndPrice(t *testing.T) {
	o := HotelOrder{Rooms: []Room{{}, {}}, FamilyRooms: []Room{{}}}
	if r, f := HotelRooms(o); r != 2 || f != 1 {
		t.Errorf("HotelRooms = %d, %d", r, f)
	}
	if r, f := HotelRooms(HotelOrder{}); r != 1 || f != 0 {
		t.Errorf("HotelRooms of an order without lists = %d, %d", r, f)
	}
	if p := HotelNightPrice(HotelDay{Price: 6500, PriceFamily: 9800}, 2, 1); p != 22800 {
		t.Errorf("HotelNightPrice = %v", p)
	}
	if k := HotelDayKey(HotelDay{Period: " 2026-11-21T00:00:00"}); k != "2026-11-21" {
		t.Errorf("HotelDayKey = %q", k)
	}
	if m := MovableTickets([]Ticket{{Status: TicketPaid}, {Status: TicketRefunded}, {Status: TicketWaiting}}); len(m) != 2 {
		t.Errorf("MovableTickets = %v", m)
	}
}

func TestSameSession(t *testing.T) {
	o := AquaOrder{DateBeg: "19.11.2026 10:00:00", Tickets: []Ticket{{Title: "Взрослый"}}}
	day := AquaSession{Name: "Дневной", SessionTime: "10:00"}
	tests := []struct {
		name string
		s    AquaSession
		date time.Time
		want bool
	}{
		{"its own session", day, at(2026, 11, 19, 0, 0), true},
		{"another day", day, at(2026, 11, 20, 0, 0), false},
		{"another time", AquaSession{Name: "Вечерний", SessionTime: "16:00"}, at(2026, 11, 19, 0, 0), false},
		{"the VIP one at the same time", AquaSession{Name: "VIP дневной", SessionTime: "10:00"}, at(2026, 11, 19, 0, 0), false},
	}
	for _, tt := range tests {
		if got := SameSession(o, tt.s, tt.date); got != tt.want {
			t.Errorf("%s: %v", tt.name, got)
		}
	}
}

func TestAddMonthsKeepsTheMonth(t *testing.T) {
	for _, tt := range []struct{ day, want string }{
		{"2026-11-25", "2026-12-25"},
		{"2026-12-31", "2027-01-31"},
		{"2027-01-29", "2027-02-28"},
		{"2027-01-30", "2027-02-28"},
		{"2027-01-31", "2027-02-28"},
		{"2028-01-31", "2028-02-29"},
		{"2027-02-28", "2027-03-28"},
		{"2028-02-29", "2028-03-29"},
		{"2027-03-31", "2027-04-30"},
		{"2027-05-31", "2027-06-30"},
		{"2027-08-31", "2027-09-30"},
		{"2027-10-31", "2027-11-30"},
		{"2027-12-31", "2028-01-31"},
	} {
		d, _ := time.ParseInLocation(LayoutISODate, tt.day, ResortLocation())
		if got := FormatISODate(AddMonths(d, 1), nil); got != tt.want {
			t.Errorf("AddMonths(%s, 1) = %s, want %s", tt.day, got, tt.want)
		}
	}
}
