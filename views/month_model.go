package views

import (
	"strconv"
	"strings"
	"time"
)

// Month is the server's calendar of a move page: the month shown first and
// the one after it (shown beside it on a wide screen, as the calendar
// island shows two months there), each a grid of weeks, with links to the
// months before and after. It is what the customer uses without
// JavaScript, and what the calendar island mounts over, at the same size.
type Month struct {
	// Value is the first month shown, yyyy-mm: the island opens on it too.
	Value string
	Grids [2]MonthGrid
	Prev  string // the month before's link; "" at the window's start
	Next  string // the month after's link; "" when the window ends in the first
	// NextWide is the link past the second month; "" when the window ends
	// there (a wide screen then shows no arrow).
	NextWide string
	Mode     string // "day" or "range", as the island's
	// Legend says how the order's own days are marked: shown whenever the
	// order has such days, as the island shows it, so that both are as tall.
	Legend bool
}

// Wide tells the weeks a wide screen leaves out: two months side by side
// are as tall as the longer of them (flatpickr fills six weeks only for a
// month shown alone).
func (m Month) Wide(week int) bool {
	return week >= max(m.Grids[0].Rows, m.Grids[1].Rows)
}

// MonthGrid is one month: its caption and six weeks of seven days, a day
// of another month left blank (flatpickr too always draws six weeks).
type MonthGrid struct {
	Caption string // "Декабрь 2026"
	Weeks   [6][7]MonthDay
	Rows    int // the weeks the month spans: 4 to 6
}

// MonthDay is one day of a grid.
type MonthDay struct {
	N    int    // the day of the month; 0 is a blank cell
	Name string // as a person says it, with what is said of it: "2 декабря 2026, среда, 6 500 ₽"
	Note string // a short note under the number ("6,5к"), which Name says in full
	Href string // the link that chooses it; "" when it cannot be chosen
	// Chosen: the day chosen (a range's ends); InRange: a night between them.
	Chosen, InRange, Booked, Today bool
	// Off marks a day that cannot be taken (struck through).
	Off bool
}

// Class is the day's classes, flatpickr's names for the same states.
func (d MonthDay) Class() string {
	c := "d"
	for _, k := range []struct {
		on   bool
		name string
	}{{d.Chosen, " selected"}, {d.InRange, " inRange"}, {d.Booked, " cal-booked"}, {d.Today, " today"}, {d.Off, " off"}} {
		if k.on {
			c += k.name
		}
	}
	return c
}

var (
	monthNames = [...]string{"Январь", "Февраль", "Март", "Апрель", "Май", "Июнь", "Июль", "Август", "Сентябрь", "Октябрь", "Ноябрь", "Декабрь"}
	genitive   = [...]string{"января", "февраля", "марта", "апреля", "мая", "июня", "июля", "августа", "сентября", "октября", "ноября", "декабря"}
	dayNames   = [...]string{"воскресенье", "понедельник", "вторник", "среда", "четверг", "пятница", "суббота"}
)

// Booked is what a day the order holds now is called, in its name and in
// the legend.
const Booked = "сейчас в заказе"

// DayName is a day as a Russian speaker says it, and as the calendar island
// names it: "2 декабря 2026, среда", then what is said of it ("6 500 ₽",
// "нет мест", "сейчас в заказе"), empty parts left out.
func DayName(d time.Time, notes ...string) string {
	parts := []string{strconv.Itoa(d.Day()) + " " + genitive[d.Month()-1] + " " + strconv.Itoa(d.Year()) + ", " + dayNames[d.Weekday()]}
	for _, n := range notes {
		if n != "" {
			parts = append(parts, n)
		}
	}
	return strings.Join(parts, ", ")
}

// MonthCaption is "Декабрь 2026".
func MonthCaption(first time.Time) string {
	return monthNames[first.Month()-1] + " " + strconv.Itoa(first.Year())
}

// Thousands is a price in thousands of roubles to one decimal, the short
// note under a night: 16 300 → "16,3к", 16 000 → "16к".
func Thousands(v float64) string {
	tenths := int64(v/100 + 0.5)
	s := Money(float64(tenths / 10))
	s = strings.TrimSuffix(s, "\u00a0₽")
	if r := tenths % 10; r != 0 {
		s += "," + strconv.FormatInt(r, 10)
	}
	return s + "к"
}

// MonthStart is the first day of t's month.
func MonthStart(t time.Time) time.Time {
	return time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, t.Location())
}

// NewMonthGrid lays out first's month in weeks from Monday; day gives each
// day of it.
func NewMonthGrid(first time.Time, day func(time.Time) MonthDay) MonthGrid {
	first = MonthStart(first)
	g := MonthGrid{Caption: MonthCaption(first)}
	lead := (int(first.Weekday()) + 6) % 7 // the Monday-first column of the 1st
	for d := first; d.Month() == first.Month(); d = d.AddDate(0, 0, 1) {
		i := lead + d.Day() - 1
		md := day(d)
		md.N = d.Day()
		g.Weeks[i/7][i%7] = md
		g.Rows = i/7 + 1
	}
	return g
}
