package handlers

import (
	"time"

	"lk/gateway"
)

// clock is the resort's calendar: its time zone, and now in it.
type clock struct {
	loc *time.Location
	now func() time.Time
}

// An unreadable provider date is the zero time.
func (c clock) providerTime(raw string) time.Time {
	t, _ := gateway.ParseDateTime(raw, c.loc)
	return t
}

// today is the resort's today as a calendar takes it, yyyy-mm-dd.
func (c clock) today() string {
	return iso(gateway.Day(c.now(), c.loc))
}

func iso(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return gateway.FormatISODate(t, t.Location()) // the server's days are in the resort's zone
}

// upcoming tells whether the order is among the active ones today.
func (c clock) upcoming(r gateway.OrderRef) bool {
	active, _ := gateway.SplitActiveHistory([]gateway.OrderRef{r}, c.now())
	return len(active) == 1
}
