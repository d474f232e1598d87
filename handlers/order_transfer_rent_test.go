package handlers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"lk/gateway"
	"lk/gateway/sandbox"
)

// rentCase is one of the two kinds of rent a customer can move.
type rentCase struct {
	kind, id, change, schedule string
	hours                      int
}

var rentCases = []rentCase{
	{"pavilion", sandbox.DemoPavilionRent, "Rent/changePavilionRentPeriod", "Rent/getPavilionRentTimetable", 3},
	{"celRoom", sandbox.DemoRoomRent, "CelRooms/changeCelRoomRentPeriod", "CelRooms/getCelRoomsTimetable", 4},
}

func (rc rentCase) page() string   { return "/orders/" + rc.kind + "/" + rc.id }
func (rc rentCase) action() string { return rc.page() + "/transfer" }

// slotDay is a day with the hours a test needs, read from the page as a
// customer sees it: a run of n free hours, and a busy hour right after a
// free one.
type slotDay struct {
	date            string
	freeFrom        string // the first of n free hours
	busy, beforeBsy string // a busy hour and the free one before it
}

func findSlotDay(t *testing.T, a *app, rc rentCase) slotDay {
	t.Helper()
	for off := 1; off <= 25; off++ {
		date := a.isoDay(off)
		r := a.get(rc.action() + "?date=" + date)
		if r.StatusCode != http.StatusOK {
			t.Fatalf("%s?date=%s: %d", rc.action(), date, r.StatusCode)
		}
		var starts []string
		var free []bool
		r.doc.Find(`input[name="from"]`).Each(func(_ int, in *goquery.Selection) {
			starts = append(starts, in.AttrOr("value", ""))
			_, disabled := in.Attr("disabled")
			free = append(free, !disabled)
		})
		d := slotDay{date: date}
		run := 0
		for i := range starts {
			if free[i] && !r.doc.Find(`input[name="from"][value="`+starts[i]+`"]`).Parent().Is(".slot") {
				t.Fatal("a radio outside its slot label")
			}
			if free[i] {
				run++
				if run == rc.hours && d.freeFrom == "" {
					d.freeFrom = starts[i-rc.hours+1]
				}
			} else {
				run = 0
				if i > 0 && free[i-1] && d.busy == "" {
					d.busy, d.beforeBsy = starts[i], starts[i-1]
				}
			}
		}
		if d.freeFrom != "" && d.busy != "" {
			return d
		}
	}
	t.Fatal("no day with both free and busy hours")
	return slotDay{}
}

// plus is "ЧЧ:ММ" h hours later.
func plus(hhmm string, h int) string {
	t, _ := time.Parse("15:04", hhmm)
	return t.Add(time.Duration(h) * time.Hour).Format("15:04")
}

func TestRentMoveWithJavaScriptOff(t *testing.T) {
	for _, rc := range rentCases {
		t.Run(rc.kind, func(t *testing.T) {
			a := signedIn(t)
			if href := a.get(rc.page()).doc.Find(`a[href="` + rc.action() + `"]`); strings.TrimSpace(href.Text()) != "Перенести аренду" {
				t.Fatalf("order page: no 'Перенести аренду' link (%q)", href.Text())
			}
			d := findSlotDay(t, a, rc)
			page := rc.action() + "?date=" + d.date
			r := a.get(page)
			if r.doc.Find(`[data-island="slot-picker"] [data-island-fallback]`).Length() != 1 || r.doc.Find(`script#slot-props[type="application/json"]`).Length() != 1 {
				t.Error("the page does not carry the slot-picker island with its props")
			}
			if !strings.Contains(r.body, "slot-picker") || r.doc.Find(`script[type="module"]`).Length() != 1 {
				t.Error("the island's script is not loaded (as one deferred module)")
			}
			day := r.doc.Find(`form#rent-day[method="get"] input[type="date"][name="date"]`)
			if day.AttrOr("min", "") != a.isoDay(0) || day.AttrOr("max", "") != a.isoWindowEnd() || day.AttrOr("value", "") != d.date {
				t.Errorf("day field min %q max %q value %q", day.AttrOr("min", ""), day.AttrOr("max", ""), day.AttrOr("value", ""))
			}
			if got := r.text("form#rent-day button"); got != "Показать" {
				t.Errorf("day button %q", got)
			}
			if !strings.Contains(r.text("main"), "оплачена на "+string(rune('0'+rc.hours))+" ч.") {
				t.Errorf("hours the order holds not shown: %q", r.text("[data-island-fallback] p"))
			}
			calls := func() int { return a.sb.AllCalls()[rc.change] }

			refuse := func(name string, form url.Values, want string) {
				t.Helper()
				r := a.submit(a.client, page, rc.action(), form)
				if r.StatusCode != http.StatusUnprocessableEntity {
					t.Errorf("%s: status %d, want 422", name, r.StatusCode)
				}
				if got := r.text(".summary li"); got != want {
					t.Errorf("%s: summary %q, want %q", name, got, want)
				}
				if got := r.text(".field-err"); !strings.Contains(got, want) {
					t.Errorf("%s: no message at the field: %q", name, got)
				}
				if !strings.HasPrefix(r.text("title"), "Ошибка: ") {
					t.Errorf("%s: title %q", name, r.text("title"))
				}
				if v := r.doc.Find(`input[name="from"][checked]`).AttrOr("value", ""); v != form.Get("from") && r.doc.Find(`input[name="from"]`).Length() > 0 {
					t.Errorf("%s: start not kept: %q", name, v)
				}
				if v := r.doc.Find(`input[name="date"][type="date"]`).AttrOr("value", ""); v != form.Get("date") {
					t.Errorf("%s: day not kept: %q", name, v)
				}
				if calls() != 0 {
					t.Fatalf("%s: the provider was called", name)
				}
			}
			refuse("over a busy hour", url.Values{"date": {d.date}, "from": {d.beforeBsy}, "to": {plus(d.busy, rc.hours-1)}},
				"Невозможно выбрать период с неактивными часами.")
			refuse("two hours", url.Values{"date": {d.date}, "from": {d.freeFrom}, "to": {plus(d.freeFrom, 2)}},
				"Такой период невозможен, необходимо выбрать от и до, вам доступно: "+string(rune('0'+rc.hours))+" ч.")
			refuse("end before start", url.Values{"date": {d.date}, "from": {d.freeFrom}, "to": {plus(d.freeFrom, -1)}},
				"Время окончания не может быть раньше времени начала.")
			refuse("no end", url.Values{"date": {d.date}, "from": {d.freeFrom}}, "Выберите время окончания.")
			// A wrong day reads as on every move page: the window's own dates.
			first, last := gateway.TransferWindow(a.clock.Now().In(gateway.ResortLocation()))
			refuse("a day out of the window", url.Values{"date": {a.isoDay(40)}, "from": {d.freeFrom}, "to": {plus(d.freeFrom, rc.hours)}},
				(&gateway.WindowError{From: first, To: last}).Error())

			// A good move, in the day's other spelling.
			dotted := d.date[8:10] + "." + d.date[5:7] + "." + d.date[:4]
			form := url.Values{"date": {dotted}, "from": {d.freeFrom}, "to": {plus(d.freeFrom, rc.hours)}}
			p := a.get(page)
			form["token"] = p.formValues(rc.action())["token"]
			r = a.post(rc.action(), form)
			loc := r.Header.Get("Location")
			if r.StatusCode != http.StatusSeeOther || !strings.HasPrefix(loc, "/orders/"+rc.kind+"/") || loc == rc.page() {
				t.Fatalf("move: %d → %q\n%s", r.StatusCode, loc, r.text("main"))
			}
			if calls() != 1 {
				t.Errorf("%s called %d times", rc.change, calls())
			}
			n := a.get(loc)
			if got := n.text(".notice-ok"); got != "Перенос выполнен успешно" {
				t.Errorf("notice %q", got)
			}
			newID := loc[strings.LastIndex(loc, "/")+1:]
			want := d.freeFrom + "–" + plus(d.freeFrom, rc.hours)
			if got := n.kv(`[data-id="`+newID+`"]`, "Время аренды"); got != want {
				t.Errorf("new rent's hours %q, want %q", got, want)
			}
			if got := n.kv(`[data-id="`+newID+`"]`, "Дата"); got != dotted {
				t.Errorf("new rent's day %q, want %q", got, dotted)
			}
			if got := a.get(loc).text(".notice-ok"); got != "" {
				t.Errorf("the notice is shown again: %q", got)
			}
			// The old rent is gone: its link leads to the new one.
			if r := a.get(rc.page()); r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != loc {
				t.Errorf("the old rent: %d → %q", r.StatusCode, r.Header.Get("Location"))
			}
			// The same form again (back and resubmit): the first outcome, no second call.
			r = a.post(rc.action(), form)
			if r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != loc || calls() != 1 {
				t.Errorf("replayed: %d → %q, %d calls", r.StatusCode, r.Header.Get("Location"), calls())
			}
			// A stale token on the new rent acts on nothing.
			r = a.post(loc+"/transfer", form)
			if r.StatusCode != http.StatusConflict || calls() != 1 {
				t.Errorf("another order's token: %d, %d calls", r.StatusCode, calls())
			}
		})
	}
}

func TestRentMoveDaysAndJSON(t *testing.T) {
	a := signedIn(t)
	rc := rentCases[0]
	// Without a day: the rent's own day, its own hours free to move within.
	r := a.get(rc.action())
	if r.StatusCode != http.StatusOK || r.doc.Find(`input[type="date"]`).AttrOr("value", "") != a.isoDay(4) {
		t.Fatalf("default day: %d %q", r.StatusCode, r.doc.Find(`input[type="date"]`).AttrOr("value", ""))
	}
	if r.doc.Find(`input[name="from"][value="12:00"]:not([disabled])`).Length() != 1 || !strings.Contains(r.doc.Find(`input[name="from"][value="12:00"]`).Parent().Text(), "сейчас") {
		t.Error("the rent's own hour is not offered as its own")
	}
	for _, bad := range []string{"2026-13-45", "завтра", a.isoDay(-1), a.isoDay(32)} {
		r := a.get(rc.action() + "?date=" + url.QueryEscape(bad))
		if r.StatusCode != http.StatusUnprocessableEntity || r.text("#date-error") == "" {
			t.Errorf("?date=%s: %d %q", bad, r.StatusCode, r.text("#date-error"))
		}
	}
	if r := a.get(rc.action() + "?date=" + a.day(2)); r.StatusCode != http.StatusOK || r.doc.Find(`input[type="date"]`).AttrOr("value", "") != a.isoDay(2) {
		t.Errorf("ДД.ММ.ГГГГ day: %d", r.StatusCode)
	}

	// The slot picker asks for a day as JSON.
	j := a.send(http.MethodGet, rc.action()+"?date="+a.isoDay(3), asIsland)
	var got struct {
		OK       bool    `json:"ok"`
		Date     string  `json:"date"`
		HourCost float64 `json:"hourCost"`
		Amount   float64 `json:"amount"`
		Need     string  `json:"need"`
		Hours    []struct {
			From, To string
			Free     bool
		} `json:"hours"`
	}
	if err := j.json(&got); err != nil || j.StatusCode != http.StatusOK {
		t.Fatalf("JSON day: %d %v\n%s", j.StatusCode, err, j.body)
	}
	if !got.OK || got.Date != a.isoDay(3) || got.HourCost != 2000 || got.Amount != 6000 || got.Need != "3" || len(got.Hours) < 10 || got.Hours[0].To != plus(got.Hours[0].From, 1) {
		t.Errorf("JSON day: %+v", got)
	}
	if j := a.send(http.MethodGet, rc.action()+"?date="+a.isoDay(40), asIsland); j.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(j.body, "Выберите дату с ") {
		t.Errorf("JSON day out of window: %d %s", j.StatusCode, j.body)
	}

	for _, rc := range rentCases {
		n, _ := a.firstFlight(rc.action())
		t.Logf("%s: first flight %d bytes", rc.action(), n)
		if n > 14*1024 {
			t.Errorf("%s: first flight %d bytes, budget 14 KB", rc.action(), n)
		}
	}

	// A rent that cannot be moved, and kinds of rents the customer cannot move.
	if r := a.get("/orders/pavilion/" + sandbox.DemoPavilionCancelOnly + "/transfer"); r.StatusCode != http.StatusConflict {
		t.Errorf("a rent without canTransfer: %d", r.StatusCode)
	}
}

func TestRentMoveIslandPost(t *testing.T) {
	a := signedIn(t)
	rc := rentCases[1]
	d := findSlotDay(t, a, rc)
	page := rc.action() + "?date=" + d.date
	token := a.get(page).formValues(rc.action())["token"]
	// A refusal: JSON with the agreed text, the token still good.
	r := a.postWith(a.client, rc.action(), url.Values{"token": token, "date": {d.date}, "from": {d.freeFrom}, "to": {plus(d.freeFrom, 1)}}, asIsland)
	if r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(r.body, "вам доступно: 4 ч.") {
		t.Errorf("JSON refusal: %d %s", r.StatusCode, r.body)
	}
	r = a.postWith(a.client, rc.action(), url.Values{"token": token, "date": {d.date}, "from": {d.freeFrom}, "to": {plus(d.freeFrom, 4)}}, asIsland)
	var ans struct {
		OK       bool
		Message  string
		Redirect string
	}
	if err := r.json(&ans); err != nil || r.StatusCode != http.StatusOK || !ans.OK || !strings.HasPrefix(ans.Redirect, "/orders/celRoom/") || ans.Message != "Перенос выполнен успешно" {
		t.Fatalf("JSON move: %d %s", r.StatusCode, r.body)
	}
	if a.sb.AllCalls()[rc.change] != 1 {
		t.Errorf("%d change calls", a.sb.AllCalls()[rc.change])
	}
	// The island goes to the new rent at once, which says it once, as after
	// the same move without JavaScript.
	if got := a.get(ans.Redirect).text(".notice-ok"); got != "Перенос выполнен успешно" {
		t.Errorf("the new rent's notice %q", got)
	}
}

func TestRentMoveProviderFaults(t *testing.T) {
	for _, rc := range rentCases {
		t.Run(rc.kind, func(t *testing.T) {
			a := signedIn(t)
			d := findSlotDay(t, a, rc)
			page := rc.action() + "?date=" + d.date
			good := url.Values{"date": {d.date}, "from": {d.freeFrom}, "to": {plus(d.freeFrom, rc.hours)}}

			a.sb.SetFault(rc.change, sandbox.Fault{Status: http.StatusInternalServerError})
			r := a.submit(a.client, page, rc.action(), good)
			if r.StatusCode != http.StatusBadGateway || r.text(".notice-err") != "Сервис временно недоступен (sandbox fault)" {
				t.Errorf("change fault: %d %q", r.StatusCode, r.text(".notice-err"))
			}
			if a.sb.AllCalls()[rc.change] != 1 {
				t.Errorf("%d change calls", a.sb.AllCalls()[rc.change])
			}
			if r.doc.Find(`input[name="from"][value="`+d.freeFrom+`"][checked]`).Length() != 1 || r.formValues(rc.action()).Get("token") == "" {
				t.Error("the form is not offered again with the answers and a token")
			}
			// The form shown again works.
			a.sb.Reset()
			r = a.postWith(a.client, rc.action(), func() url.Values {
				f := r.formValues(rc.action())
				f["from"], f["to"] = good["from"], good["to"]
				return f
			}(), nil)
			if r.StatusCode != http.StatusSeeOther {
				t.Errorf("after the failure: %d\n%s", r.StatusCode, r.text("main"))
			}

			// The timetable does not load: the page says so, and a move is not tried.
			a2 := signedIn(t)
			a2.sb.SetFault(rc.schedule, sandbox.Fault{Status: http.StatusInternalServerError})
			r = a2.get(rc.action() + "?date=" + a.isoDay(5))
			if r.StatusCode != http.StatusBadGateway || !strings.Contains(r.text("main"), "Не удалось загрузить расписание") {
				t.Errorf("schedule fault: %d %q", r.StatusCode, r.text("main"))
			}
			if r.doc.Find(`form#rent-day input[type="date"]`).Length() != 1 {
				t.Error("no way to choose another day")
			}
			r = a2.submit(a2.client, rc.action()+"?date="+a.isoDay(5), rc.action(), url.Values{"date": {a.isoDay(5)}, "from": {"10:00"}, "to": {plus("10:00", rc.hours)}})
			if r.StatusCode != http.StatusBadGateway || a2.sb.AllCalls()[rc.change] != 0 {
				t.Errorf("move while the schedule fails: %d, %d calls", r.StatusCode, a2.sb.AllCalls()[rc.change])
			}
		})
	}
}

func TestRentMoveOnlyOwnRents(t *testing.T) {
	a := signedIn(t)
	other := a.newClient()
	a.signIn(other, otherPhone)
	for _, rc := range rentCases {
		if r := a.getWith(other, rc.action()); r.StatusCode != http.StatusNotFound {
			t.Errorf("%s: another customer's GET %d", rc.kind, r.StatusCode)
		}
		token := a.get(rc.action()).formValues(rc.action())["token"]
		r := a.postWith(other, rc.action(), url.Values{"token": token, "date": {a.isoDay(5)}, "from": {"10:00"}, "to": {"13:00"}}, nil)
		if r.StatusCode != http.StatusNotFound || a.sb.AllCalls()[rc.change] != 0 {
			t.Errorf("%s: another customer's POST %d, %d calls", rc.kind, r.StatusCode, a.sb.AllCalls()[rc.change])
		}
	}
	if r := a.get("/orders/pavilion/200101/transfer"); r.StatusCode != http.StatusNotFound {
		t.Errorf("the other customer's rent: %d", r.StatusCode)
	}
}

// The rent move picks its day with the calendar island, like the other
// moves, and its hours with the slot picker; without JavaScript the
// server's month is the island's fallback, and a typed day has a form of
// its own below the move's (where the island writes the day it chooses).
func TestRentMoveCalendar(t *testing.T) {
	a := signedIn(t)
	for _, page := range []string{"/orders/pavilion/" + sandbox.DemoPavilionRent + "/transfer", "/orders/celRoom/" + sandbox.DemoRoomRent + "/transfer"} {
		r := a.get(page)
		cal := r.doc.Find(`[data-island="calendar"]`)
		if r.StatusCode != http.StatusOK || cal.Length() != 1 || cal.Find(`[data-island-fallback] .sm a.d[href^="?date="]`).Length() < 20 ||
			r.doc.Find(`.after form#rent-day[method=get] input[type=date][name=date]`).Length() != 1 ||
			r.doc.Find(`[data-island="slot-picker"]`).Length() != 1 {
			t.Fatalf("%s: %d, calendar %d", page, r.StatusCode, cal.Length())
		}
		var p struct{ Kind, Min, Max, Value, Target string }
		if err := r.props("calendar-props", &p); err != nil {
			t.Fatal(err)
		}
		in := r.doc.Find("#rent-day input[name=date]")
		if p.Kind != "rent" || p.Target != "#rent-day input[name=date]" || p.Min != in.AttrOr("min", "") || p.Max != in.AttrOr("max", "") || p.Value != in.AttrOr("value", "") {
			t.Errorf("%s: calendar props %+v", page, p)
		}
	}
}
