package handlers_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"lk/gateway"
	"lk/gateway/sandbox"
	"lk/views"
)

// The server's month: what a customer without JavaScript taps, and what
// the calendar island mounts over.

var movePages = map[string]string{
	"glk":      "/orders/glk/" + sandbox.DemoLessonTransferable + "/transfer",
	"aqua":     "/orders/aqua/" + sandbox.DemoAquaPaid + "/transfer",
	"hotel":    "/orders/hotel/" + sandbox.DemoHotelPaid + "/transfer",
	"pavilion": "/orders/pavilion/" + sandbox.DemoPavilionRent + "/transfer",
	"celRoom":  "/orders/celRoom/" + sandbox.DemoRoomRent + "/transfer",
}

// dayNamed is a day's name as a Russian speaker says it.
var dayNamed = regexp.MustCompile(`^\d{1,2} (января|февраля|марта|апреля|мая|июня|июля|августа|сентября|октября|ноября|декабря) \d{4}, (понедельник|вторник|среда|четверг|пятница|суббота|воскресенье)`)

// tapDay is a day of the month that a tap chooses: its name and its link.
type tapDay struct{ name, href string }

// monthDays are the days of r's server month that can be tapped, both
// months of it (a phone without JavaScript shows them one below the other).
func (r *resp) monthDays() []tapDay {
	var out []tapDay
	r.doc.Find(".sm a.d").Each(func(_ int, s *goquery.Selection) {
		out = append(out, tapDay{s.AttrOr("aria-label", ""), s.AttrOr("href", "")})
	})
	return out
}

// linkDay is the day a month's link chooses (its date or check-in).
func linkDay(href string) time.Time {
	q, _ := url.ParseQuery(strings.TrimPrefix(href, "?"))
	d, _ := time.ParseInLocation("2006-01-02", q.Get("date")+q.Get("dateIn"), gateway.ResortLocation())
	if out := q.Get("dateOut"); out != "" {
		d, _ = time.ParseInLocation("2006-01-02", out, gateway.ResortLocation())
	}
	return d
}

// Every move page offers the window's days in its month, each named as the
// island names it: every day of a lesson's or a rent's window, the days of
// a water-park ticket's weekday class, a hotel's free nights.
func TestMonthOffersTheWindow(t *testing.T) {
	a := signedIn(t)
	now := a.clock.Now().In(gateway.ResortLocation())
	o, err := a.sandboxClient().AquaOrder(t.Context(), sandbox.DemoGUID, sandbox.DemoAquaPaid)
	if err != nil {
		t.Fatal(err)
	}
	for kind, page := range movePages {
		r := a.get(page)
		if r.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d", page, r.StatusCode)
		}
		days := r.monthDays()
		// In the months shown: the first month and the next.
		for _, d := range days {
			at := linkDay(d.href)
			if !dayNamed.MatchString(d.name) || !strings.HasPrefix(d.name, views.DayName(at)) {
				t.Errorf("%s: %q named %q", kind, d.href, d.name)
			}
		}
		var want int
		switch kind {
		case "aqua":
			from, to := gateway.AquaTransferWindow(now)
			start, _ := gateway.ParseDateTime(o.DateBeg, nil)
			for d := from; !d.After(to); d = d.AddDate(0, 0, 1) {
				if gateway.CheckAquaDate(start, d, now) == nil && a.shown(r, d) {
					want++
				}
			}
		case "hotel":
			want = 20 // most nights of the sandbox's hotel are free
		default:
			from, to := gateway.TransferWindow(now)
			for d := from; !d.After(to); d = d.AddDate(0, 0, 1) {
				if a.shown(r, d) {
					want++
				}
			}
			if want < 20 {
				t.Errorf("%s: %d days in the months shown", kind, want)
			}
		}
		if kind == "hotel" && len(days) < want || kind != "hotel" && len(days) != want {
			t.Errorf("%s: %d days to tap, want %d", kind, len(days), want)
		}
		// The order's own day is marked, and said so.
		if booked := r.doc.Find(".sm .cal-booked"); booked.Length() > 0 && !strings.Contains(r.text(".cal-legend"), views.Booked) {
			t.Errorf("%s: the booking's days marked without the legend", kind)
		}
	}
}

// shown tells whether day d is in one of the two months r's server month
// shows.
func (a *app) shown(r *resp, d time.Time) bool {
	first, err := time.ParseInLocation("2006-01", r.doc.Find(".sm").AttrOr("data-month", ""), gateway.ResortLocation())
	if err != nil {
		a.t.Fatalf("the month shown: %v", err)
	}
	n := (d.Year()-first.Year())*12 + int(d.Month()) - int(first.Month())
	return n == 0 || n == 1
}

// A move completes with JavaScript off by tapping days: a lesson's day,
// then its 'Выбрать'; a water-park day, then a session and the move's
// button; a hotel's check-in, then its check-out, then 'Готово'; a rent's
// day, then its hours.
func TestMonthMovesByTaps(t *testing.T) {
	a := signedIn(t)
	// tap follows the month's links from page in order until ok says the
	// page a link led to is the one wanted.
	tap := func(page string, ok func(*resp) bool) *resp {
		t.Helper()
		for _, d := range a.get(page).monthDays() {
			if r := a.get(page + d.href); r.StatusCode == http.StatusOK && ok(r) {
				return r
			}
		}
		t.Fatalf("%s: no day to tap", page)
		return nil
	}
	send := func(page string, r *resp, extra url.Values) {
		t.Helper()
		form := r.formValues(page)
		for k, v := range extra {
			form[k] = v
		}
		res := a.post(page, form)
		if res.StatusCode != http.StatusSeeOther {
			t.Fatalf("%s: the move sent from the month: %d %q", page, res.StatusCode, res.text("main .notice-err"))
		}
		if done := a.get(res.Header.Get("Location")); done.doc.Find(".notice-ok").Length() != 1 {
			t.Errorf("%s: after the move: %q", page, done.text("main"))
		}
	}

	lesson := movePages["glk"]
	r := tap(lesson, func(r *resp) bool { return len(r.choices("lessonId")) > 0 })
	send(lesson, r, url.Values{"lessonId": {r.choices("lessonId")[0]}})

	aqua := movePages["aqua"]
	r = tap(aqua, func(r *resp) bool { return len(r.choices("sessionId")) > 0 })
	send(aqua, r, url.Values{"sessionId": {r.choices("sessionId")[0]}})

	// A check-in, then a check-out whose nights cost what the stay did:
	// only then does the form offer its button.
	hotel := movePages["hotel"]
	var stay *resp
	for _, in := range a.get(hotel).monthDays() {
		for _, out := range a.get(hotel + in.href).monthDays() {
			if !strings.Contains(out.href, "dateOut=") {
				continue
			}
			if p := a.get(hotel + out.href); p.doc.Find(`form[method=post] .actions button[type=submit]:not([hidden])`).Length() == 1 {
				stay = p
				break
			}
		}
		if stay != nil {
			break
		}
	}
	if stay == nil {
		t.Fatal("no stay to tap that costs what the booking did")
	}
	send(hotel, stay, nil)

	for _, kind := range []string{"pavilion", "celRoom"} {
		page := movePages[kind]
		r := tap(page, func(r *resp) bool { return findFree(r).from != "" })
		day := findFree(r)
		send(page, r, url.Values{"from": {day.from}, "to": {day.to}})
	}
}

// findFree is the first run of free hours on a rent's day page as long as
// the rent (its 'оплачена на N ч.').
func findFree(r *resp) struct{ from, to string } {
	var run []string
	need := 0
	if m := regexp.MustCompile(`оплачена на (\d+) ч`).FindStringSubmatch(r.text("main")); m != nil {
		need = int(m[1][0] - '0')
	}
	var out struct{ from, to string }
	r.doc.Find(`input[name="from"]`).EachWithBreak(func(_ int, in *goquery.Selection) bool {
		if _, off := in.Attr("disabled"); off {
			run = run[:0]
			return true
		}
		run = append(run, in.AttrOr("value", ""))
		if len(run) == need {
			out.from = run[0]
			out.to = plus(run[len(run)-1], 1)
			return false
		}
		return true
	})
	return out
}

// The month turns by links that keep the day chosen; a month the window
// does not reach is not shown.
func TestMonthTurns(t *testing.T) {
	a := signedIn(t)
	now := a.clock.Now().In(gateway.ResortLocation())
	page := movePages["glk"]
	thisMonth := views.MonthCaption(now)
	r := a.get(page + "?month=" + now.Format("2006-01"))
	if got := r.text(".sm-m:not(.sm-2) caption"); got != thisMonth {
		t.Fatalf("?month of today: %q", got)
	}
	if r.doc.Find(".sm-prev").Length() != 0 || r.doc.Find(".sm-next").Length() != 1 {
		t.Error("the window's first month: no arrow back, one forward")
	}
	next := r.doc.Find(".sm-next").AttrOr("href", "")
	r = a.get(page + next)
	if got, want := r.text(".sm-m:not(.sm-2) caption"), views.MonthCaption(now.AddDate(0, 0, 32-now.Day())); got != want {
		t.Errorf("forward: %q, want %q", got, want)
	}
	// The day chosen stays chosen across months.
	r = a.get(page + "?date=" + a.isoDay(2) + "&month=" + now.Format("2006-01"))
	if href := r.doc.Find(".sm-next").AttrOr("href", ""); !strings.Contains(href, "date="+a.isoDay(2)) {
		t.Errorf("the arrow forgets the day: %q", href)
	}
	for _, bad := range []string{"1999-01", "2999-12", "abc"} {
		if r := a.get(page + "?month=" + bad); r.StatusCode != http.StatusOK || r.doc.Find(".sm a.d").Length() == 0 {
			t.Errorf("?month=%s: %d, %d days", bad, r.StatusCode, r.doc.Find(".sm a.d").Length())
		}
	}
}

// Another customer's move page is not found, whatever the month's links
// ask, and the provider is not asked for its days.
func TestMonthOnlyOwnOrders(t *testing.T) {
	a := newApp(t)
	other := a.newClient()
	a.signIn(other, otherPhone)
	before := a.sb.AllCalls()
	for _, page := range movePages {
		for _, q := range []string{"?month=" + a.isoDay(0)[:7], "?dateIn=" + a.isoDay(2) + "&dateOut=" + a.isoDay(4) + "&month=" + a.isoDay(2)[:7]} {
			if r := a.getWith(other, page+q); r.StatusCode != http.StatusNotFound {
				t.Errorf("%s%s as another customer: %d", page, q, r.StatusCode)
			}
		}
	}
	after := a.sb.AllCalls()
	for _, call := range []string{"GLK/getTimetable", "aqua/getSessionsAqua", "hotel/getDates", "Rent/getPavilionRentTimetable", "CelRooms/getCelRoomsTimetable"} {
		if after[call] != before[call] {
			t.Errorf("%s asked for another customer's move", call)
		}
	}
}
