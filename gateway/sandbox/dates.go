package sandbox

import (
	"strings"
	"time"

	"lk/gateway"
)

func fmtDT(t time.Time) string  { return t.Format(gateway.LayoutDateTime) }
func fmtISO(t time.Time) string { return t.Format(gateway.LayoutISO) }
func fmtDay(t time.Time) string { return t.Format(gateway.LayoutISODate) }

// parseAny parses a date or date-time in any layout the provider uses, in
// the resort's zone.
func (s *Sandbox) parseAny(v string) (time.Time, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return time.Time{}, false
	}
	for _, layout := range []string{
		gateway.LayoutDateTime, gateway.LayoutISO, gateway.LayoutDate, gateway.LayoutISODate,
		"2006-01-02T15:04", "2006-01-02 15:04:05", "02.01.2006 15:04", "2006-01-02T15:04:05.000",
	} {
		if t, err := time.ParseInLocation(layout, v, s.loc); err == nil {
			return t, true
		}
	}
	if t, err := time.Parse(time.RFC3339, v); err == nil {
		return t.In(s.loc), true
	}
	return time.Time{}, false
}

// parseDT parses a wire date-time known to be valid (our own data).
func (s *Sandbox) parseDT(v string) time.Time {
	t, _ := s.parseAny(v)
	return t
}

func addDays(t time.Time, n int) time.Time { return t.AddDate(0, 0, n) }

func at(day time.Time, hour, minute int) time.Time {
	y, m, d := day.Date()
	return time.Date(y, m, d, hour, minute, 0, 0, day.Location())
}

func isWeekend(t time.Time) bool {
	wd := t.Weekday()
	return wd == time.Saturday || wd == time.Sunday
}
