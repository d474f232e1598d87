package views

import (
	"encoding/json"
	"testing"
)

// The island tells the three kinds of move apart by "kind"; each carries
// the window every calendar has, flat, beside its own fields.
func TestCalendarPropsKind(t *testing.T) {
	w := CalendarWindow{Min: "2026-11-23", Max: "2026-12-23", Label: "Дата", Today: "2026-11-23"}
	for _, c := range []struct {
		props any
		kind  string
		field string
	}{
		{DayCalendar{CalendarWindow: w, Name: "date", URL: "/orders/glk/1/transfer"}, "day", "url"},
		{RentCalendar{CalendarWindow: w, Target: "#rent-day input[name=date]"}, "rent", "target"},
		{StayCalendar{CalendarWindow: w, Start: "dateIn", End: "dateOut"}, "stay", "texts"},
	} {
		b, err := json.Marshal(c.props)
		if err != nil {
			t.Fatal(err)
		}
		var got map[string]any
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		if got["kind"] != c.kind || got["min"] != w.Min || got["today"] != w.Today || got[c.field] == nil {
			t.Errorf("%s: %s", c.kind, b)
		}
	}
}
