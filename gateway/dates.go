package gateway

import (
	"fmt"
	"strings"
	"sync"
	"time"
)

// The provider's dates carry no zone: they are the resort's wall clock. Every
// parse and format of them happens here, in a location the caller passes
// (nil means the resort's, Europe/Moscow). Display formats live in views.

// ResortLocation is Europe/Moscow, or a fixed UTC+3 zone named "MSK" when the
// system has no time-zone database (Moscow has kept +3 without DST since 2014).
func ResortLocation() *time.Location { return resortLocation() }

var resortLocation = sync.OnceValue(func() *time.Location {
	if loc, err := time.LoadLocation("Europe/Moscow"); err == nil {
		return loc
	}
	return time.FixedZone("MSK", 3*60*60)
})

func orResort(loc *time.Location) *time.Location {
	if loc == nil {
		return ResortLocation()
	}
	return loc
}

// ParseDateTime reads the provider's date-time "dd.mm.yyyy hh:mm:ss" (dateBeg,
// regDate, hourBeg, hourEnd). It also accepts "dd.mm.yyyy hh:mm", a bare
// "dd.mm.yyyy" (midnight) and the ISO forms ParseISO reads, because the
// provider is not consistent.
func ParseDateTime(s string, loc *time.Location) (time.Time, error) {
	s = strings.TrimSpace(s)
	loc = orResort(loc)
	for _, layout := range []string{LayoutDateTime, "02.01.2006 15:04", LayoutDate} {
		if t, err := time.ParseInLocation(layout, s, loc); err == nil {
			return t, nil
		}
	}
	if t, err := ParseISO(s, loc); err == nil {
		return t, nil
	}
	return time.Time{}, fmt.Errorf("gateway: date-time %q: want dd.mm.yyyy hh:mm:ss", s)
}

// ParseDay reads a day a customer chose in a form: "yyyy-mm-dd" (what
// <input type="date"> sends) or "dd.mm.yyyy" (what a person types).
func ParseDay(s string, loc *time.Location) (time.Time, error) {
	s = strings.TrimSpace(s)
	for _, layout := range []string{LayoutISODate, LayoutDate} {
		if t, err := time.ParseInLocation(layout, s, orResort(loc)); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("gateway: day %q: want yyyy-mm-dd or dd.mm.yyyy", s)
}

// ParseBirthdate reads personalInfo.birthdate, "dd_mm_yyyy". An empty string
// gives the zero time and no error: the provider may not know it.
func ParseBirthdate(s string, loc *time.Location) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, nil
	}
	t, err := time.ParseInLocation(LayoutBirth, s, orResort(loc))
	if err != nil {
		return time.Time{}, fmt.Errorf("gateway: birthdate %q: want dd_mm_yyyy", s)
	}
	return t, nil
}

// ParseISO reads "yyyy-mm-ddThh:mm:ss" (timetable hours, schedule ends),
// with or without fractional seconds; a zone offset if present is honoured,
// otherwise the time is taken in loc. A bare "yyyy-mm-dd" (hotel periods)
// is midnight.
func ParseISO(s string, loc *time.Location) (time.Time, error) {
	s = strings.TrimSpace(s)
	loc = orResort(loc)
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t.In(loc), nil
	}
	for _, layout := range []string{"2006-01-02T15:04:05.999999999", LayoutISO, "2006-01-02T15:04", "2006-01-02 15:04:05", LayoutISODate} {
		if t, err := time.ParseInLocation(layout, s, loc); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("gateway: ISO date-time %q: want yyyy-mm-ddThh:mm:ss", s)
}

// FormatDateTime writes "dd.mm.yyyy hh:mm:ss" (newLessonDate).
func FormatDateTime(t time.Time, loc *time.Location) string {
	return t.In(orResort(loc)).Format(LayoutDateTime)
}

// FormatDate writes "dd.mm.yyyy" (session and timetable queries, transferTicket, birthday).
func FormatDate(t time.Time, loc *time.Location) string {
	return t.In(orResort(loc)).Format(LayoutDate)
}

// FormatISO writes "yyyy-mm-ddThh:mm:ss" (rent moves, pushReservation).
func FormatISO(t time.Time, loc *time.Location) string {
	return t.In(orResort(loc)).Format(LayoutISO)
}

// FormatISODate writes "yyyy-mm-dd" (hotel getDates).
func FormatISODate(t time.Time, loc *time.Location) string {
	return t.In(orResort(loc)).Format(LayoutISODate)
}

// Day is the midnight that starts t's calendar day in loc.
func Day(t time.Time, loc *time.Location) time.Time {
	t = t.In(orResort(loc))
	y, m, d := t.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, t.Location())
}
