package sandbox

import (
	"time"

	"lk/gateway"
)

func fmtDT(t time.Time) string  { return t.Format(gateway.LayoutDateTime) }
func fmtISO(t time.Time) string { return t.Format(gateway.LayoutISO) }
func fmtDay(t time.Time) string { return t.Format(gateway.LayoutISODate) }

// parseAny parses a date or date-time in any layout the provider uses, in
// the resort's zone: the gateway's own parser, so both read dates alike.
func (s *Sandbox) parseAny(v string) (time.Time, bool) {
	t, err := gateway.ParseDateTime(v, s.loc)
	return t, err == nil
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
