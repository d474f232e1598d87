package handlers_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	ics "github.com/arran4/golang-ical"

	"lk/gateway"
	"lk/gateway/sandbox"
)

// at is the resort's local time today+off at hh:mm, on the app's clock.
func (a *app) at(off, hh, mm int) time.Time {
	now := a.clock.Now().In(gateway.ResortLocation())
	return time.Date(now.Year(), now.Month(), now.Day()+off, hh, mm, 0, 0, now.Location())
}

// firstWeekday is the sandbox's day of the paid water-park visit: the first
// weekday after today.
func (a *app) firstWeekday() int {
	for off := 1; ; off++ {
		if wd := a.at(off, 0, 0).Weekday(); wd != time.Saturday && wd != time.Sunday {
			return off
		}
	}
}

// calendarCases are the active demo bookings with their times as their
// pages show them (gateway/sandbox/seed.go).
func (a *app) calendarCases() []struct {
	kind, id, summary, place string
	start, end               time.Time
} {
	visit := a.firstWeekday()
	return []struct {
		kind, id, summary, place string
		start, end               time.Time
	}{
		{"glk", sandbox.DemoLessonConfirmable, "Занятие с инструктором: Горные лыжи", "Курорт, горнолыжный комплекс", a.at(1, 10, 0), a.at(1, 11, 0)},
		{"pavilion", sandbox.DemoPavilionRent, "Аренда беседки: Беседка №3", "Курорт, Беседка №3", a.at(4, 12, 0), a.at(4, 15, 0)},
		{"celRoom", sandbox.DemoRoomRent, "Аренда зала: Банкетный зал «Снежинка»", "Курорт, Банкетный зал «Снежинка»", a.at(6, 14, 0), a.at(6, 18, 0)},
		{"aqua", sandbox.DemoAquaPaid, "Аквапарк, заказ № 300001", "Курорт, аквапарк", a.at(visit, 10, 0), a.at(visit, 16, 0)},
		{"hotel", sandbox.DemoHotelPaid, "Проживание в отеле, заказ № 400001", "Курорт, отель", a.at(10, 16, 0), a.at(13, 14, 0)},
	}
}

func TestActiveBookingsGoToTheCalendar(t *testing.T) {
	a := signedIn(t)
	for _, c := range a.calendarCases() {
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
		// The tests' app runs on the sandbox: a demo event says so.
		if got := prop(ics.ComponentPropertySummary); got != "(демо) "+c.summary {
			t.Errorf("%s: SUMMARY %q, want %q", href, got, "(демо) "+c.summary)
		}
		if got := prop(ics.ComponentPropertyLocation); got != c.place {
			t.Errorf("%s: LOCATION %q, want %q", href, got, c.place)
		}
		if got := prop(ics.ComponentPropertyUrl); got != publicURL+page {
			t.Errorf("%s: URL %q, want %q", href, got, publicURL+page)
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

// event is the one VEVENT of the calendar file of the order at page.
func (a *app) event(page string) *ics.VEvent {
	a.t.Helper()
	r := a.get(page + "/calendar.ics")
	cal, err := ics.ParseCalendar(strings.NewReader(r.body))
	if err != nil || r.StatusCode != http.StatusOK || len(cal.Events()) != 1 {
		a.t.Fatalf("%s/calendar.ics: %d %v", page, r.StatusCode, err)
	}
	return cal.Events()[0]
}

// sequence is e's SEQUENCE as a number.
func sequence(t *testing.T, e *ics.VEvent) int {
	t.Helper()
	n, err := strconv.Atoi(e.GetProperty(ics.ComponentPropertySequence).Value)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// A booking moved keeps its event: the same UID along a chain of moves
// (a lesson or a rent gets a new id from the provider at each) and a
// SEQUENCE that grows, so a calendar updates the event it has.
func TestMovedBookingKeepsItsCalendarEvent(t *testing.T) {
	a := signedIn(t)
	move := func(page string, form url.Values) string {
		t.Helper()
		a.clock.Add(3 * time.Minute) // each move later than the file before it
		form.Set("token", a.get(page+"/transfer?date="+form.Get("date")).formValues(page+"/transfer").Get("token"))
		r := a.post(page+"/transfer", form)
		loc := r.Header.Get("Location")
		if r.StatusCode != http.StatusSeeOther || !strings.HasPrefix(loc, "/orders/") || loc == page {
			t.Fatalf("move %s: %d → %q\n%s", page, r.StatusCode, loc, r.text("main"))
		}
		return loc
	}

	lesson := "/orders/glk/" + sandbox.DemoLessonTransferable
	first := a.event(lesson)
	if first.Id() != "glk-"+sandbox.DemoLessonTransferable+"@lk" {
		t.Fatalf("UID %q", first.Id())
	}
	seq := sequence(t, first)
	page := lesson
	for i := range 2 {
		date, choice := a.firstChoice(page+"/transfer", "lessonId", 1+i, 28)
		if choice == "" {
			t.Fatalf("move %d: no lesson to move to", i+1)
		}
		page = move(page, url.Values{"date": {date}, "lessonId": {choice}})
		e := a.event(page)
		if e.Id() != first.Id() {
			t.Errorf("after move %d (%s): UID %q, want %q", i+1, page, e.Id(), first.Id())
		}
		if n := sequence(t, e); n <= seq {
			t.Errorf("after move %d: SEQUENCE %d, not above %d", i+1, n, seq)
		} else {
			seq = n
		}
		if start, _ := e.GetStartAt(); !strings.Contains(a.get(page).text("main"), start.In(gateway.ResortLocation()).Format("02.01.2006")) {
			t.Errorf("after move %d: the event starts %v, not the new lesson's day", i+1, start)
		}
	}

	rc := rentCases[0]
	d := findSlotDay(t, a, rc)
	moved := move(rc.page(), url.Values{"date": {d.date}, "from": {d.freeFrom}, "to": {plus(d.freeFrom, rc.hours)}})
	if got, want := a.event(moved).Id(), rc.kind+"-"+rc.id+"@lk"; got != want {
		t.Errorf("moved rent %s: UID %q, want %q", moved, got, want)
	}
	// The hotel keeps its id when moved: its own UID, as before.
	if got := a.event("/orders/hotel/" + sandbox.DemoHotelPaid).Id(); got != "hotel-"+sandbox.DemoHotelPaid+"@lk" {
		t.Errorf("hotel UID %q", got)
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
	for _, c := range a.calendarCases() {
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
