package views

import (
	"encoding/json"

	"github.com/a-h/templ"
)

// CalendarIsland is the manifest key of the calendar island: it enhances the
// day fields of the transfer pages (islands/calendar/).
const CalendarIsland = "calendar/TransferCalendar.tsx"

// DayField is a day to choose: a native date field (what the page offers
// without JavaScript; the calendar island takes it over).
type DayField struct {
	Name  string // form field: "date", "dateIn"
	ID    string // the field's id when it is not Name (a typed day below the server's month, whose Name is the month's)
	Label string
	Value string // yyyy-mm-dd, as <input type="date"> wants it
	Min   string // yyyy-mm-dd
	Max   string // yyyy-mm-dd
	Hint  string
}

// TransferChoice is one lesson or session the order can move to.
type TransferChoice struct {
	Value   string   `json:"value"` // lessonId, sessionId
	Title   string   `json:"title"` // "16:00–17:30"
	Lines   []string `json:"lines"` // instructor, level, places
	Checked bool     `json:"-"`
	// Disabled is why it is listed but cannot be chosen ("" when it can).
	Disabled string `json:"disabled,omitempty"`
}

// DayChoices is a day's lessons or sessions, as the page shows them and as
// the calendar island gets them (the same GET URL answering JSON).
type DayChoices struct {
	Date    string           `json:"date"`   // yyyy-mm-dd
	Legend  string           `json:"legend"` // "Занятия на 21.11.2026"
	Field   string           `json:"field"`  // "lessonId", "sessionId"
	Choices []TransferChoice `json:"choices"`
	Empty   string           `json:"empty"` // 'Нет доступных занятий'
	// Pick is the button of each choice ('Выбрать'): without JavaScript it
	// submits the move with that choice; "" for radio buttons and one
	// submit.
	Pick  string `json:"pick,omitempty"`
	Error string `json:"error,omitempty"`
}

// The calendar island's props: one shape per kind of move, told apart by
// "kind" (the island's TransferCalendarProps is the same union). The island
// mirrors the server's rules (islands/calendar/rules.ts) on the data given
// here; the server checks everything again on POST.

// CalendarWindow is what every move's calendar has.
type CalendarWindow struct {
	Min   string `json:"min"` // yyyy-mm-dd, today
	Max   string `json:"max"` // yyyy-mm-dd, the window's end
	Label string `json:"label"`
	// Today is the resort's today, which the calendar marks as such
	// whatever the phone's zone.
	Today string `json:"today"`
	// Month is the first month the server's month shows (yyyy-mm-01): the
	// island opens on it, so mounting over it changes nothing.
	Month string `json:"month,omitempty"`
}

// DayCalendar is a lesson's or a water-park visit's move: a day, then one
// of its lessons or sessions, which the island asks of URL ("kind": "day").
type DayCalendar struct {
	CalendarWindow
	Name   string `json:"name"`             // "date"
	Value  string `json:"value,omitempty"`  // the day shown
	URL    string `json:"url"`              // GET ?date= answers DayChoices as JSON
	Choice string `json:"choice,omitempty"` // the choice kept after an error
	Done   string `json:"done,omitempty"`   // the island's submit once a day and a choice are picked: 'Готово'
	// First is the shown day's choices as the URL answers them, so the
	// island need not ask for them again.
	First *DayChoices `json:"first,omitempty"`
	// Original is a water-park order's day: only days of its weekday class
	// can be chosen.
	Original string `json:"original,omitempty"`
	// Booked is the order's own day now, which the calendar marks as such.
	Booked string `json:"booked,omitempty"`
}

// RentCalendar is a rent's move: the day fills in the page's date field,
// Target, for the slot picker, which asks for its hours ("kind": "rent").
type RentCalendar struct {
	CalendarWindow
	Target string `json:"target"`
	Value  string `json:"value,omitempty"`
	Booked string `json:"booked,omitempty"`
}

// StayCalendar is a hotel stay's move: a check-in, then a check-out
// ("kind": "stay").
type StayCalendar struct {
	CalendarWindow
	// Stay is the order's booked check-in and check-out, which a move
	// cannot take again.
	Stay   [2]string     `json:"stay"`
	Start  string        `json:"start"`          // "dateIn"
	End    string        `json:"end"`            // "dateOut"
	From   string        `json:"from,omitempty"` // chosen check-in, yyyy-mm-dd
	To     string        `json:"to,omitempty"`   // chosen check-out
	Days   []CalendarDay `json:"days"`           // the hotel's listed nights
	Rooms  int           `json:"rooms"`          // the order's ordinary rooms
	Family int           `json:"family"`         // and family rooms
	Amount float64       `json:"amount,omitempty"`
	Texts  StayTexts     `json:"texts"`
}

// StayTexts are what the island says of a stay it cannot take, and its
// two dates' names.
type StayTexts struct {
	Unavailable string `json:"unavailable"`
	Price       string `json:"price"`
	Same        string `json:"same"`
	CheckIn     string `json:"checkIn"`
	CheckOut    string `json:"checkOut"`
}

func (c DayCalendar) MarshalJSON() ([]byte, error) {
	type plain DayCalendar
	return json.Marshal(struct {
		Kind string `json:"kind"`
		plain
	}{"day", plain(c)})
}

func (c RentCalendar) MarshalJSON() ([]byte, error) {
	type plain RentCalendar
	return json.Marshal(struct {
		Kind string `json:"kind"`
		plain
	}{"rent", plain(c)})
}

func (c StayCalendar) MarshalJSON() ([]byte, error) {
	type plain StayCalendar
	return json.Marshal(struct {
		Kind string `json:"kind"`
		plain
	}{"stay", plain(c)})
}

// CalendarDay is a hotel night for the island: its availability as the
// provider gives it and its price for the order's rooms.
type CalendarDay struct {
	Date   string  `json:"date"` // yyyy-mm-dd
	Vacant int     `json:"vacant"`
	Family int     `json:"family"`
	Price  float64 `json:"price"` // for the order's rooms
	Label  string  `json:"label"` // "24 500 ₽"
}

// TransferView is a lesson's or a water-park order's transfer page.
type TransferView struct {
	Action   ActionView
	Day      DayField // of the GET form that shows a typed day
	Show     string   // its button: 'Показать занятия'
	Chosen   string   // the month's line: 'Дата: 02.12.2026'
	Month    Month
	Choices  DayChoices
	Calendar DayCalendar
}

// id is the field's id: ID, else Name.
func (d DayField) id() string {
	if d.ID != "" {
		return d.ID
	}
	return d.Name
}

func hintID(d DayField) string {
	if d.Hint == "" {
		return ""
	}
	return d.id() + "-hint"
}

// HotelTransferView is a hotel order's transfer page.
type HotelTransferView struct {
	Action  ActionView
	In, Out DayField // the typed check-in and check-out (a GET form)
	// DayIn and DayOut are the stay chosen in the month (yyyy-mm-dd), which
	// the move's form sends.
	DayIn, DayOut string
	Month         Month
	Say           string // what the last choice did: 'Заезд 02.12.2026. Теперь выберите день выезда.'
	Sum           string // 'Заезд: 02.12.2026, Выезд: 05.12.2026, ночей: 3, 19 500 ₽'
	Problem       string // why the stay chosen cannot be taken
	Error         string // the days could not be loaded
	Calendar      StayCalendar
}

// withAfter is a with its After set: a form of typed days, which stands
// below the move's form, beside the server's month and the island alike.
func withAfter(a ActionView, after templ.Component) ActionView {
	a.After = after
	return a
}
