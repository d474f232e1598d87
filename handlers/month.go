package handlers

import (
	"net/url"
	"time"

	"lk/views"
)

// monthView is a move page's server month: the window's days from its first
// month shown, each day as dayOf says. The first month is the one asked for
// (?month=ГГГГ-ММ, the arrows' links) when the window reaches it, else
// shown's month. keep is what every link carries besides its own choice
// (the day or stay chosen), so that turning the month keeps the choice.
func (s *Server) monthView(mode, asked string, shown, from, to time.Time, keep url.Values, dayOf func(time.Time) views.MonthDay) views.Month {
	lo, hi := views.MonthStart(from), views.MonthStart(to)
	first := views.MonthStart(shown)
	if t, err := time.ParseInLocation("2006-01", asked, s.loc); err == nil && !t.Before(lo) && !t.After(hi) {
		first = t
	}
	if first.Before(lo) || first.After(hi) {
		first = lo
	}
	link := func(month time.Time) string {
		q := url.Values{}
		for k, v := range keep {
			if len(v) > 0 && v[0] != "" {
				q[k] = v
			}
		}
		q.Set("month", month.Format("2006-01"))
		return "?" + q.Encode()
	}
	m := views.Month{Value: first.Format("2006-01"), Mode: mode}
	today := s.today()
	for i := range m.Grids {
		m.Grids[i] = views.NewMonthGrid(first.AddDate(0, i, 0), func(d time.Time) views.MonthDay {
			md := dayOf(d)
			md.Today = iso(d) == today
			switch md.Href { // a choice keeps the months shown
			case "":
			case "?":
				md.Href = "?month=" + m.Value
			default:
				md.Href += "&month=" + m.Value
			}
			return md
		})
	}
	if first.After(lo) {
		m.Prev = link(first.AddDate(0, -1, 0))
	}
	if first.Before(hi) {
		m.Next = link(first.AddDate(0, 1, 0))
		if first.AddDate(0, 1, 0).Before(hi) {
			m.NextWide = m.Next
		}
	}
	return m
}

// dayLink is the link that chooses day d of a move page (?date=); the months
// shown are kept (monthView adds them).
func dayLink(d time.Time) string {
	return "?date=" + iso(d)
}

// bookedName is what a day's name adds when the order holds it now.
func bookedName(booked bool) string {
	if booked {
		return views.Booked
	}
	return ""
}
