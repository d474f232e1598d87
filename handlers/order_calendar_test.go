package handlers_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	ics "github.com/arran4/golang-ical"

	"lk/gateway"
	"lk/gateway/sandbox"
)

// at is the resort's local time today+off at hh:mm.
func at(off, hh, mm int) time.Time {
	now := time.Now().In(gateway.ResortLocation())
	return time.Date(now.Year(), now.Month(), now.Day()+off, hh, mm, 0, 0, now.Location())
}

// firstWeekday is the sandbox's day of the paid water-park visit: the first
// weekday after today.
func firstWeekday() int {
	for off := 1; ; off++ {
		if wd := at(off, 0, 0).Weekday(); wd != time.Saturday && wd != time.Sunday {
			return off
		}
	}
}

// calendarCases are the active demo bookings with their times as their
// pages show them (gateway/sandbox/seed.go).
func calendarCases() []struct {
	kind, id, summary, place string
	start, end               time.Time
} {
	visit := firstWeekday()
	return []struct {
		kind, id, summary, place string
		start, end               time.Time
	}{
		{"glk", sandbox.DemoLessonConfirmable, "Занятие с инструктором: Горные лыжи", "Курорт, горнолыжный комплекс", at(1, 10, 0), at(1, 11, 0)},
		{"pavilion", sandbox.DemoPavilionRent, "Аренда беседки: Беседка №3", "Курорт, Беседка №3", at(4, 12, 0), at(4, 15, 0)},
		{"celRoom", sandbox.DemoRoomRent, "Аренда зала: Банкетный зал «Снежинка»", "Курорт, Банкетный зал «Снежинка»", at(6, 14, 0), at(6, 18, 0)},
		{"aqua", sandbox.DemoAquaPaid, "Аквапарк, заказ № 300001", "Курорт, аквапарк", at(visit, 10, 0), at(visit, 16, 0)},
		{"hotel", sandbox.DemoHotelPaid, "Проживание в отеле, заказ № 400001", "Курорт, отель", at(10, 16, 0), at(13, 14, 0)},
	}
}

func TestActiveBookingsGoToTheCalendar(t *testing.T) {
	a := signedIn(t)
	for _, c := range calendarCases() {
		page := "/orders/" + c.kind + "/" + c.id
		link := a.get(page).doc.Find(`.actions a[data-action="calendar"]`)
		href := link.AttrOr("href", "")
		if strings.TrimSpace(link.Text()) != "Добавить в календарь" || href != page+"/calendar.ics" {
			t.Errorf("%s: calendar link %q %q", page, link.Text(), href)
			continue
		}
		r := a.get(href)
		if r.StatusCode != http.StatusOK || r.Header.Get("Content-Type") != "text/calendar; charset=utf-8" {
			t.Errorf("%s: %d %s", href, r.StatusCode, r.Header.Get("Content-Type"))
			continue
		}
		if d := r.Header.Get("Content-Disposition"); !strings.Contains(d, `filename="`+c.kind+"-"+c.id+`.ics"`) {
			t.Errorf("%s: Content-Disposition %q", href, d)
		}
		strictICS(t, href, r.body)

		cal, err := ics.ParseCalendar(strings.NewReader(r.body))
		if err != nil {
			t.Errorf("%s: golang-ical: %v", href, err)
			continue
		}
		events := cal.Events()
		if len(events) != 1 || len(cal.Components) != 1 {
			t.Errorf("%s: %d events in %d components, want one", href, len(events), len(cal.Components))
			continue
		}
		e := events[0]
		prop := func(p ics.ComponentProperty) string {
			if v := e.GetProperty(p); v != nil {
				return v.Value
			}
			return ""
		}
		if uid := e.Id(); uid != c.kind+"-"+c.id+"@lk" {
			t.Errorf("%s: UID %q", href, uid)
		}
		if stamp, err := e.GetDtStampTime(); err != nil || time.Since(stamp) > time.Minute {
			t.Errorf("%s: DTSTAMP %v %v", href, stamp, err)
		}
		start, err1 := e.GetStartAt()
		end, err2 := e.GetEndAt()
		if err1 != nil || err2 != nil || !start.Equal(c.start) || !end.Equal(c.end) {
			t.Errorf("%s: %v – %v (%v %v), want %v – %v", href, start.In(c.start.Location()), end.In(c.start.Location()), err1, err2, c.start, c.end)
		}
		if got := prop(ics.ComponentPropertySummary); got != c.summary {
			t.Errorf("%s: SUMMARY %q, want %q", href, got, c.summary)
		}
		if got := prop(ics.ComponentPropertyLocation); got != c.place {
			t.Errorf("%s: LOCATION %q, want %q", href, got, c.place)
		}
		if got := prop(ics.ComponentPropertyUrl); got != a.srv.URL+page {
			t.Errorf("%s: URL %q, want %q", href, got, a.srv.URL+page)
		}
		if prop(ics.ComponentPropertySequence) == "" {
			t.Errorf("%s: no SEQUENCE", href)
		}
		// Nothing the page does not show: no phone, no guests' names.
		for _, private := range []string{"79000000000", "Иванов", sandbox.DemoGUID, "ivanov@"} {
			if strings.Contains(r.body, private) {
				t.Errorf("%s: holds %q", href, private)
			}
		}
	}
}

func TestCalendarSequenceGrowsAfterAMove(t *testing.T) {
	a := signedIn(t)
	path := "/orders/hotel/" + sandbox.DemoHotelPaid + "/calendar.ics"
	seq := func() string {
		cal, err := ics.ParseCalendar(strings.NewReader(a.get(path).body))
		if err != nil {
			t.Fatal(err)
		}
		return cal.Events()[0].GetProperty(ics.ComponentPropertySequence).Value
	}
	before := seq()
	a.clock.Add(3 * time.Minute) // the move happens later than the first file
	if after := seq(); len(after) < len(before) || len(after) == len(before) && after <= before {
		t.Errorf("SEQUENCE %s, then %s: not increasing", before, after)
	}
}

func TestPastOrCancelledBookingsHaveNoCalendar(t *testing.T) {
	a := signedIn(t)
	for _, p := range []string{
		"/orders/glk/" + sandbox.DemoLessonPast, "/orders/pavilion/" + sandbox.DemoPavilionPast,
		"/orders/aqua/" + sandbox.DemoAquaCanceled, "/orders/aqua/" + sandbox.DemoAquaPast,
		"/orders/hotel/" + sandbox.DemoHotelCanceled, "/orders/hotel/" + sandbox.DemoHotelPast,
	} {
		if n := a.get(p).doc.Find(`[data-action="calendar"]`).Length(); n != 0 {
			t.Errorf("%s: a calendar link", p)
		}
		if r := a.get(p + "/calendar.ics"); r.StatusCode != http.StatusConflict || strings.Contains(r.body, "BEGIN:VCALENDAR") {
			t.Errorf("%s/calendar.ics: %d, want 409", p, r.StatusCode)
		}
	}
}

func TestAnotherCustomersCalendarIsNotFound(t *testing.T) {
	a := newApp(t)
	other := a.newClient()
	a.signIn(other, otherPhone)
	for _, c := range calendarCases() {
		p := "/orders/" + c.kind + "/" + c.id + "/calendar.ics"
		if r := a.getWith(other, p); r.StatusCode != http.StatusNotFound || strings.Contains(r.body, "VCALENDAR") {
			t.Errorf("%s: %d, want 404", p, r.StatusCode)
		}
	}
	if r := a.getWith(a.newClient(), "/orders/glk/"+sandbox.DemoLessonConfirmable+"/calendar.ics"); r.StatusCode != http.StatusSeeOther {
		t.Errorf("signed out: %d, want the way to sign in", r.StatusCode)
	}
}

// strictICS checks what golang-ical's parser forgives (RFC 5545 §3.1, §3.6):
// CRLF line ends, lines of at most 75 octets with folds that start with a
// space, every content line "NAME[;param]:value", BEGIN/END paired, the
// calendar's VERSION and PRODID, and times in UTC.
func strictICS(t *testing.T, name, body string) {
	t.Helper()
	if !strings.HasSuffix(body, "\r\n") || strings.Contains(strings.ReplaceAll(body, "\r\n", ""), "\n") {
		t.Errorf("%s: lines do not all end in CRLF", name)
		return
	}
	raw := strings.Split(strings.TrimSuffix(body, "\r\n"), "\r\n")
	var lines []string
	for _, l := range raw {
		if len(l) > 75 {
			t.Errorf("%s: a line of %d octets: %q", name, len(l), l)
		}
		if strings.HasPrefix(l, " ") || strings.HasPrefix(l, "\t") {
			if len(lines) == 0 {
				t.Fatalf("%s: starts with a fold", name)
			}
			lines[len(lines)-1] += l[1:]
			continue
		}
		lines = append(lines, l)
	}
	contentLine := regexp.MustCompile(`^[A-Z][A-Z0-9-]*(;[A-Z0-9-]+=("[^"]*"|[^";:,]*)(,("[^"]*"|[^";:,]*))*)*:.*$`)
	utc := regexp.MustCompile(`^\d{8}T\d{6}Z$`)
	var stack []string
	seen := map[string]int{}
	for _, l := range lines {
		if !contentLine.MatchString(l) {
			t.Errorf("%s: not a content line: %q", name, l)
			continue
		}
		key, value, _ := strings.Cut(l, ":")
		key, _, _ = strings.Cut(key, ";")
		seen[key]++
		switch key {
		case "BEGIN":
			stack = append(stack, value)
		case "END":
			if len(stack) == 0 || stack[len(stack)-1] != value {
				t.Errorf("%s: END:%s without its BEGIN", name, value)
				return
			}
			stack = stack[:len(stack)-1]
		case "DTSTART", "DTEND", "DTSTAMP":
			if !utc.MatchString(value) {
				t.Errorf("%s: %s %q is not a UTC date-time", name, key, value)
			}
		}
	}
	if len(stack) != 0 || lines[0] != "BEGIN:VCALENDAR" || lines[len(lines)-1] != "END:VCALENDAR" {
		t.Errorf("%s: components not closed: %v", name, stack)
	}
	for _, k := range []string{"VERSION", "PRODID", "UID", "DTSTAMP", "DTSTART", "SUMMARY"} {
		if seen[k] != 1 {
			t.Errorf("%s: %s %d times, want once", name, k, seen[k])
		}
	}
}
