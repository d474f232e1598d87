package views

import "github.com/a-h/templ"

// SlotIsland is the manifest key of the slot-picker island.
const SlotIsland = "slot-picker/SlotPicker.tsx"

// RentDay is one day of a pavilion or a celebration room as the rent-move
// page shows it and the slot picker reads it (its props, and the JSON the
// page answers with Accept: application/json when the day changes).
type RentDay struct {
	Date     string     `json:"date"`     // ГГГГ-ММ-ДД, what <input type="date"> holds
	Label    string     `json:"label"`    // 21.11.2026
	HourCost float64    `json:"hourCost"` // price of one hour that day
	Cost     string     `json:"cost"`     // the same for people: "2 000 ₽"
	Amount   float64    `json:"amount"`   // the order's total, which the new hours must cost
	Need     string     `json:"need"`     // how many hours the amount pays for: "3"
	Hours    []RentHour `json:"hours"`
	// Message is 'На данную дату нет доступных окон' or why the hours did
	// not load (Failed).
	Message string `json:"message,omitempty"`
	Failed  bool   `json:"failed,omitempty"`
}

// RentHour is one hour of the day: its start and end ("10:00", "11:00"),
// whether it can be chosen, and whether it is the order's own hour now.
type RentHour struct {
	From string `json:"from"`
	To   string `json:"to"`
	Free bool   `json:"free"`
	Own  bool   `json:"own,omitempty"`
}

// SlotProps are the slot picker's props: the day, the window of days, and
// the page's URL, which answers a day as JSON and takes the same POST.
type SlotProps struct {
	RentDay
	URL     string `json:"url"`
	DayForm string `json:"dayForm"` // CSS selector of the day's GET form
	Min     string `json:"min"`
	Max     string `json:"max"`
	From    string `json:"from,omitempty"` // the answers of a refused POST
	To      string `json:"to,omitempty"`
}

// RentMoveView is the page moving a pavilion or celebration-room rent to
// other hours: ActionPage with the day's form before it
// and the hours (radio buttons, enhanced by the slot picker) inside it.
type RentMoveView struct {
	Action ActionView
	Day    RentDay
	Min    string // ГГГГ-ММ-ДД
	Max    string
	Window string // 'с 22.11.2026 по 22.12.2026'
	From   string // the answers kept
	To     string
	Props  SlotProps
	// Month is the server's month, which picks the day without JavaScript.
	Month Month
	// Calendar is the calendar island's props: it picks the day, the slot
	// picker the hours.
	Calendar RentCalendar
}

func withIntro(a ActionView, intro templ.Component) ActionView {
	a.Intro = intro
	return a
}

// slotValue is the time a radio button posts: an hour's start for the
// start, its end for the end.
func slotValue(h RentHour, start bool) string {
	if start {
		return h.From
	}
	return h.To
}
