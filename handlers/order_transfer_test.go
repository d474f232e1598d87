package handlers_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"lk/gateway"
	"lk/gateway/sandbox"
	"lk/gateway/sandbox/sandboxtest"
	"lk/handlers"
)

// isoDay is the resort's date today+off, on the app's clock, as a date
// field sends it.
func (a *app) isoDay(off int) string {
	return a.clock.Now().In(gateway.ResortLocation()).AddDate(0, 0, off).Format("2006-01-02")
}

// isoWindowEnd is the last day a lesson, rent or hotel stay can move to,
// by the rule, as a date field sends it.
func (a *app) isoWindowEnd() string {
	_, to := gateway.TransferWindow(a.clock.Now().In(gateway.ResortLocation()))
	return gateway.FormatISODate(to, nil)
}

// choices are the values of the radio buttons or the submit buttons named
// field on r.
func (r *resp) choices(field string) []string {
	var out []string
	// Only what can be chosen: a full session is listed, disabled.
	r.doc.Find(`input[type=radio][name="` + field + `"]:not([disabled]), button[type=submit][name="` + field + `"]:not([disabled])`).Each(func(_ int, s *goquery.Selection) {
		out = append(out, s.AttrOr("value", ""))
	})
	return out
}

// firstChoice is the first day from today+from to today+to whose transfer
// page offers a choice named field, and that choice ("", "" if none).
func (a *app) firstChoice(page, field string, from, to int) (date, value string) {
	for off := from; off <= to; off++ {
		if got := a.get(page + "?date=" + a.isoDay(off)).choices(field); len(got) > 0 {
			return a.isoDay(off), got[0]
		}
	}
	return "", ""
}

// lessonWithPlace is the first day from tomorrow on, and its lesson, on
// which trainer's lesson at hour has a free place (the sandbox lists only
// those).
func (a *app) lessonWithPlace(trainer string, hour int) (date, lessonID string) {
	a.t.Helper()
	c := a.sandboxClient()
	for off := 1; off < sandbox.Window; off++ {
		d, _ := gateway.ParseDay(a.isoDay(off), nil)
		list, err := c.Timetable(context.Background(), gateway.TimetableQuery{TrainerID: trainer, Date: d, Amount: 1})
		if err != nil {
			a.t.Fatal(err)
		}
		for _, l := range list {
			if strings.HasSuffix(l.LessonID, fmt.Sprintf("-%s-%02d", trainer, hour)) {
				return a.isoDay(off), l.LessonID
			}
		}
	}
	a.t.Fatalf("no lesson of %s at %d:00 with a free place", trainer, hour)
	return "", ""
}

// fieldError is the message at field.
func (r *resp) fieldError(field string) string {
	return strings.TrimPrefix(r.text("#"+field+"-error"), "Ошибка: ")
}

// recorder keeps what the app asked the provider to move.
type recorder struct {
	handlers.Provider
	mu      sync.Mutex
	lessons []gateway.ChangeLessonRequest
	hotels  []gateway.PushReservationRequest
	dates   [][2]time.Time // the ranges of hotel nights asked for
	pushErr error          // answered instead of the provider's when set
}

func (r *recorder) HotelDates(ctx context.Context, from, to time.Time) ([]gateway.HotelDay, error) {
	r.mu.Lock()
	r.dates = append(r.dates, [2]time.Time{from, to})
	r.mu.Unlock()
	return r.Provider.HotelDates(ctx, from, to)
}

func (r *recorder) ChangeLesson(ctx context.Context, q gateway.ChangeLessonRequest) (string, error) {
	r.mu.Lock()
	r.lessons = append(r.lessons, q)
	r.mu.Unlock()
	return r.Provider.ChangeLesson(ctx, q)
}

func (r *recorder) PushReservation(ctx context.Context, q gateway.PushReservationRequest) (string, error) {
	r.mu.Lock()
	r.hotels = append(r.hotels, q)
	err := r.pushErr
	r.mu.Unlock()
	if err != nil {
		return "", err
	}
	return r.Provider.PushReservation(ctx, q)
}

func recorded(t *testing.T) (*app, *recorder) {
	t.Helper()
	rec := &recorder{}
	a := newAppWith(t, func(p handlers.Provider) handlers.Provider { rec.Provider = p; return rec })
	a.signIn(a.client, demoPhone)
	return a, rec
}

// sandboxClient talks to the app's sandbox directly, to find test data.
func (a *app) sandboxClient() *gateway.Client {
	a.t.Helper()
	c, err := gateway.NewClient(a.sbSrv.URL + "/v1")
	if err != nil {
		a.t.Fatal(err)
	}
	return c
}

func TestTransferLesson(t *testing.T) {
	a, rec := recorded(t)
	id := sandbox.DemoLessonTransferable // D+3 10:00, Смирнова, Горные лыжи, adults
	page, action := "/orders/glk/"+id+"/transfer", "/orders/glk/"+id+"/transfer"
	if got := a.get("/orders/glk/" + id).text(`a[href="` + page + `"]`); got != "Перенести запись" {
		t.Errorf("order page: transfer link %q", got)
	}
	r := a.get(page)
	if r.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d", page, r.StatusCode)
	}
	in := r.doc.Find(`#transfer-day input[type=date][name=date]`)
	if in.AttrOr("min", "") != a.isoDay(0) || in.AttrOr("max", "") != a.isoWindowEnd() || in.AttrOr("value", "") != a.isoDay(3) {
		t.Errorf("day field min %q max %q value %q", in.AttrOr("min", ""), in.AttrOr("max", ""), in.AttrOr("value", ""))
	}
	if r.doc.Find(`[data-island="calendar"]`).Length() != 1 || r.doc.Find(`script#calendar-props[type="application/json"]`).Length() != 1 {
		t.Error("no calendar island")
	}
	d3 := strings.ReplaceAll(a.isoDay(3), "-", "")
	got := r.choices("lessonId")
	for _, hidden := range []string{"L" + d3 + "-TR01-10", "L" + d3 + "-TR01-12", "L" + d3 + "-TR01-14"} {
		for _, g := range got {
			if g == hidden {
				t.Errorf("%s offered (own lesson, children's group or another sport)", hidden)
			}
		}
	}
	if strings.Contains(r.text("fieldset.choices"), "Сноуборд") {
		t.Error("a snowboard lesson is offered for a ski booking")
	}
	if len(got) == 0 && !strings.Contains(r.text("fieldset.choices"), "Нет доступных занятий") {
		t.Error("no lessons and no 'Нет доступных занятий'")
	}
	// A day as ДД.ММ.ГГГГ works too, and the page says which lessons.
	r = a.get(page + "?date=" + a.day(5))
	if r.StatusCode != http.StatusOK || !strings.Contains(r.text("legend"), a.day(5)) {
		t.Errorf("?date=%s: %d %q", a.day(5), r.StatusCode, r.text("legend"))
	}
	// JSON for the island.
	jr := a.send(http.MethodGet, page+"?date="+a.isoDay(5), asIsland)
	var ch struct {
		Date    string
		Field   string
		Choices []struct{ Value, Title string }
	}
	if err := jr.json(&ch); err != nil || jr.StatusCode != http.StatusOK || ch.Date != a.isoDay(5) || ch.Field != "lessonId" {
		t.Errorf("JSON: %d %v %+v", jr.StatusCode, err, ch)
	}

	// Refusals: no provider call to move. Smirnova's 14:00 lesson is a
	// snowboard one; it is listed on days it has a free place.
	snowDay, snowLesson := a.lessonWithPlace(sandbox.TrainerSmirnova, 14)
	refuse := []struct {
		name  string
		form  url.Values
		field string
		want  string
	}{
		{"another sport", url.Values{"date": {snowDay}, "lessonId": {snowLesson}}, "lessonId", gateway.ErrOtherSport.Error()},
		{"past one month", url.Values{"date": {a.isoDay(40)}, "lessonId": {"L" + d3 + "-TR01-16"}}, "date", "Выберите дату с " + a.day(0)},
		{"no lesson", url.Values{"date": {a.isoDay(3)}}, "lessonId", "Выберите занятие."},
		{"no date", url.Values{"date": {""}, "lessonId": {"L" + d3 + "-TR01-16"}}, "date", "Выберите дату."},
		{"bad date", url.Values{"date": {"31.02.2026"}, "lessonId": {"x"}}, "date", "Введите дату в формате"},
		{"unknown lesson", url.Values{"date": {a.isoDay(3)}, "lessonId": {"L-nope"}}, "lessonId", "Этого варианта нет в списке"},
		{"yesterday", url.Values{"date": {a.day(-1)}, "lessonId": {"x"}}, "date", "Выберите дату с"},
	}
	for _, tt := range refuse {
		r := a.submit(a.client, page, action, tt.form)
		if r.StatusCode != http.StatusUnprocessableEntity || !strings.HasPrefix(r.fieldError(tt.field), tt.want) ||
			!strings.Contains(r.text("#error-summary"), tt.want) || !strings.HasPrefix(r.text("title"), "Ошибка: ") {
			t.Errorf("%s: %d, at the field %q, summary %q", tt.name, r.StatusCode, r.fieldError(tt.field), r.text("#error-summary"))
		}
		if v := tt.form.Get("date"); v != "" && r.doc.Find(`#transfer-day input[name=date]`).AttrOr("value", "") == "" {
			t.Errorf("%s: the date answered is not kept", tt.name)
		}
	}
	if n := a.sb.AllCalls()["GLK/changeLessonPeriod"]; n != 0 {
		t.Fatalf("refusals called the provider %d times", n)
	}

	// The move, to the first lesson offered on a day that has one.
	date, lesson := a.firstChoice(page, "lessonId", 1, 28)
	if lesson == "" {
		t.Fatal("no lesson to move to in a month")
	}
	form := url.Values{"date": {date}, "lessonId": {lesson}}
	p := a.get(page + "?date=" + date)
	form.Set("token", p.formValues(action).Get("token"))
	r = a.post(action, form)
	loc := r.Header.Get("Location")
	if r.StatusCode != http.StatusSeeOther || !strings.HasPrefix(loc, "/orders/glk/") || loc == "/orders/glk/"+id {
		t.Fatalf("move: %d → %q\n%s", r.StatusCode, loc, r.text("main"))
	}
	if n := a.sb.AllCalls()["GLK/changeLessonPeriod"]; n != 1 {
		t.Errorf("GLK/changeLessonPeriod called %d times", n)
	}
	q := rec.lessons[0]
	if q.LessonID != id || q.NewLessonID != lesson || q.Amount != 2500 || q.AgeGroupCode != "ADULT" || q.ChildrenID != "" || q.ClientID != sandbox.DemoGUID ||
		!strings.HasPrefix(q.NewLessonDate, date[8:10]+"."+date[5:7]+"."+date[:4]+" ") {
		t.Errorf("changeLessonPeriod request %+v", q)
	}
	n := a.get(loc)
	if got := n.text(".notice-ok"); got != "Перенос выполнен успешно" {
		t.Errorf("notice %q", got)
	}
	// The same form again: the first outcome, no second call.
	r = a.post(action, form)
	if a.sb.AllCalls()["GLK/changeLessonPeriod"] != 1 || r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != loc {
		t.Errorf("replayed token: %d → %q, calls %d", r.StatusCode, r.Header.Get("Location"), a.sb.AllCalls()["GLK/changeLessonPeriod"])
	}
	// The old booking is gone: its link leads to the new one.
	if r := a.get("/orders/glk/" + id); r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != loc {
		t.Errorf("the old booking: %d → %q", r.StatusCode, r.Header.Get("Location"))
	}
}

func TestTransferChildLesson(t *testing.T) {
	a, rec := recorded(t)
	id := sandbox.DemoLessonChild // Попова, children's group, child CH-0001
	page := "/orders/glk/" + id + "/transfer"
	var date, lesson string
	for off := 3; off <= 28 && lesson == ""; off++ {
		r := a.get(page + "?date=" + a.isoDay(off))
		if strings.Contains(r.text("fieldset.choices"), "начинающие") || strings.Contains(r.text("fieldset.choices"), "продолжающие") {
			t.Fatalf("an adults' lesson offered for a children's booking: %s", r.text("fieldset.choices"))
		}
		if got := r.choices("lessonId"); len(got) > 0 {
			date, lesson = a.isoDay(off), got[0]
		}
	}
	if lesson == "" {
		t.Fatal("no children's lesson in a month")
	}
	r := a.submit(a.client, page+"?date="+date, page, url.Values{"date": {date}, "lessonId": {lesson}})
	if r.StatusCode != http.StatusSeeOther {
		t.Fatalf("move: %d\n%s", r.StatusCode, r.text("main"))
	}
	if q := rec.lessons[0]; q.ChildrenID != "CH-0001" || q.AgeGroupCode != "CHILD" || q.Amount != 2000 {
		t.Errorf("changeLessonPeriod request %+v", q)
	}
}

// aquaDays are the next weekday and the next weekend day after today.
func (a *app) aquaDays() (weekday, weekend int) {
	now := a.clock.Now().In(gateway.ResortLocation())
	weekday, weekend = -1, -1
	for off := 1; off <= 14; off++ {
		wd := now.AddDate(0, 0, off).Weekday()
		isWeekend := wd == time.Saturday || wd == time.Sunday
		switch {
		case isWeekend && weekend < 0:
			weekend = off
		case !isWeekend && weekday < 0:
			weekday = off
		}
	}
	return
}

// aquaDayLike is the first day ahead, as days from today, to which the
// customer's water-park order may move: a weekend order's tickets move to
// a weekend day only, a weekday order's to a weekday.
func (a *app) aquaDayLike(cu customer, page string) int {
	a.t.Helper()
	props := a.getWith(cu.c, page).doc.Find(`#calendar-props`).Text()
	i := strings.Index(props, `"original":"`)
	if i < 0 {
		a.t.Fatalf("%s: no order date in the calendar's props %q", page, props)
	}
	day, err := time.ParseInLocation("2006-01-02", props[i+len(`"original":"`):][:10], gateway.ResortLocation())
	if err != nil {
		a.t.Fatal(err)
	}
	weekday, weekend := a.aquaDays()
	if wd := day.Weekday(); wd == time.Saturday || wd == time.Sunday {
		return weekend
	}
	return weekday
}

func TestTransferAqua(t *testing.T) {
	a := signedIn(t)
	id := sandbox.DemoAquaPaid // weekday, 'Дневной', 3 regular tickets
	page := "/orders/aqua/" + id + "/transfer"
	weekday, weekend := a.aquaDays()
	r := a.get(page)
	if r.StatusCode != http.StatusOK || r.doc.Find(`[data-island="calendar"]`).Length() != 1 {
		t.Fatalf("GET: %d", r.StatusCode)
	}
	if max := r.doc.Find(`#transfer-day input[name=date]`).AttrOr("max", ""); max != a.isoDay(30) {
		t.Errorf("max %q", max)
	}
	if strings.Contains(r.text("fieldset.choices"), "VIP") {
		t.Error("VIP sessions offered for regular tickets")
	}
	// A weekend day is refused on the page and on POST, in the rule's words.
	if r := a.get(page + "?date=" + a.isoDay(weekend)); r.StatusCode != http.StatusUnprocessableEntity || r.fieldError("date") != "Билеты буднего дня можно перенести только на будний день." {
		t.Errorf("GET a weekend day: %d %q", r.StatusCode, r.fieldError("date"))
	}
	wd := strings.ReplaceAll(a.isoDay(weekday), "-", "")
	refuse := []struct {
		name, date, session, field, want string
	}{
		{"weekend day", a.isoDay(weekend), "S" + strings.ReplaceAll(a.isoDay(weekend), "-", "") + "-1", "date", gateway.ErrWeekdayOnly.Error()},
		{"VIP session", a.isoDay(weekday), "S" + wd + "-3", "sessionId", gateway.ErrSessionRegular.Error()},
		{"past 30 days", a.isoDay(31), "S-1", "date", "Выберите дату с"},
		{"no session", a.isoDay(weekday), "", "sessionId", "Выберите сеанс."},
	}
	for _, tt := range refuse {
		r := a.submit(a.client, page, page, url.Values{"date": {tt.date}, "sessionId": {tt.session}})
		if r.StatusCode != http.StatusUnprocessableEntity || !strings.HasPrefix(r.fieldError(tt.field), tt.want) || !strings.Contains(r.text("#error-summary"), tt.want) {
			t.Errorf("%s: %d %q", tt.name, r.StatusCode, r.fieldError(tt.field))
		}
	}
	if n := a.sb.AllCalls()["aqua/transferTicket"]; n != 0 {
		t.Fatalf("refusals called aqua/transferTicket %d times", n)
	}

	// The move to a weekday session that fits.
	date, session := a.firstChoice(page, "sessionId", 1, 30)
	if session == "" {
		t.Fatal("no session to move to")
	}
	p := a.get(page + "?date=" + date)
	form := p.formValues(page)
	form.Set("date", date)
	form.Set("sessionId", session)
	r = a.post(page, form)
	if r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/orders/aqua/"+id {
		t.Fatalf("move: %d → %q\n%s", r.StatusCode, r.Header.Get("Location"), r.text("main"))
	}
	if got := a.get("/orders/aqua/" + id).text(".notice-ok"); got != "Вы успешно перенесли билеты на другую дату" {
		t.Errorf("notice %q", got)
	}
	// The same token again: the first outcome, no second call.
	r = a.post(page, form)
	if r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/orders/aqua/"+id || a.sb.AllCalls()["aqua/transferTicket"] != 1 {
		t.Errorf("replay: %d, calls %d", r.StatusCode, a.sb.AllCalls()["aqua/transferTicket"])
	}
}

func TestTransferAquaVIPAndToday(t *testing.T) {
	a := signedIn(t)
	// VIP tickets (a weekend order): only VIP sessions, weekend days.
	vip := "/orders/aqua/" + sandbox.DemoAquaVIPRefunded + "/transfer"
	_, weekend := a.aquaDays()
	r := a.get(vip + "?date=" + a.isoDay(weekend))
	r.doc.Find("fieldset.choices label").Each(func(_ int, s *goquery.Selection) {
		if !strings.Contains(s.Text(), "VIP") {
			t.Errorf("a regular session offered for VIP tickets: %q", s.Text())
		}
	})
	we := strings.ReplaceAll(a.isoDay(weekend), "-", "")
	r = a.submit(a.client, vip, vip, url.Values{"date": {a.isoDay(weekend)}, "sessionId": {"S" + we + "-1"}})
	if r.StatusCode != http.StatusUnprocessableEntity || r.fieldError("sessionId") != gateway.ErrSessionVIP.Error() {
		t.Errorf("VIP tickets to a regular session: %d %q", r.StatusCode, r.fieldError("sessionId"))
	}

	// Late today every session has ended: none is offered, and one posted is refused.
	now := a.clock.Now().In(gateway.ResortLocation())
	late := time.Date(now.Year(), now.Month(), now.Day(), 23, 30, 0, 0, now.Location())
	if late.After(now) {
		a.clock.Add(late.Sub(now))
	}
	page := "/orders/aqua/" + sandbox.DemoAquaPaid + "/transfer"
	session := "S" + strings.ReplaceAll(a.isoDay(0), "-", "") + "-2" // 'Вечерний', until 22:00
	if gateway.IsWeekend(now) {
		page, session = vip, "S"+strings.ReplaceAll(a.isoDay(0), "-", "")+"-4"
	}
	if got := a.get(page + "?date=" + a.isoDay(0)).choices("sessionId"); len(got) != 0 {
		t.Errorf("sessions offered late today: %v", got)
	}
	r = a.submit(a.client, page, page, url.Values{"date": {a.isoDay(0)}, "sessionId": {session}})
	if r.StatusCode != http.StatusUnprocessableEntity || r.fieldError("sessionId") != gateway.ErrSessionOver.Error() {
		t.Errorf("a session that has ended: %d %q", r.StatusCode, r.fieldError("sessionId"))
	}
	if a.sb.AllCalls()["aqua/transferTicket"] != 0 {
		t.Error("refusals called the provider")
	}
}

// hotelRanges finds, for order 400001's rooms and length of stay, a range
// with a fully booked night, one of the same length at another price, and
// a valid one, all with check-in within a month. The full range shares no
// night with the stay: there the stay's own rooms count as free for it
// (TestTransferHotelOwnNights), so a night the provider lists as full may
// still be the customer's to keep, and the move is judged on its price.
// Some months of the sandbox's nights have no valid range (every range at
// the stay's price has a fully booked night, as from 14.02.2027 23:59 to
// 16.02.2027 noon): then the first range at the stay's price apart from the
// full one gets its rooms back in the sandbox, as a cancelled stay would
// give them.
func hotelRanges(t *testing.T, a *app) (full, dearer, valid [2]string) {
	t.Helper()
	ctx := context.Background()
	c := a.sandboxClient()
	o, err := c.HotelOrder(ctx, sandbox.DemoGUID, sandbox.DemoHotelPaid)
	if err != nil {
		t.Fatal(err)
	}
	today := gateway.Day(a.clock.Now(), nil)
	days, err := c.HotelDates(ctx, today, today.AddDate(0, 0, 40))
	if err != nil {
		t.Fatal(err)
	}
	rooms, family := gateway.HotelRooms(o)
	in, _ := gateway.ParseDateTime(o.HourBeg, nil)
	out, _ := gateway.ParseDateTime(o.HourEnd, nil)
	stayIn, stayOut := gateway.Day(in, nil), gateway.Day(out, nil)
	nights := int(stayOut.Sub(stayIn).Hours()/24 + 0.5)
	_, last := gateway.TransferWindow(a.clock.Now())
	// starts are the check-ins within the month with their check-outs.
	var starts [][2]time.Time
	for i := 1; i+nights <= len(days); i++ {
		start, _ := gateway.ParseDay(gateway.HotelDayKey(days[i]), nil)
		if start.After(last) {
			break
		}
		starts = append(starts, [2]time.Time{start, start.AddDate(0, 0, nights)})
	}
	iso := func(r [2]time.Time) [2]string {
		return [2]string{gateway.FormatISODate(r[0], nil), gateway.FormatISODate(r[1], nil)}
	}
	apart := func(r [2]time.Time, from, to time.Time) bool { return !r[1].After(from) || !r[0].Before(to) }
	for _, r := range starts {
		switch err := gateway.CheckHotelRange(days, r[0], r[1], o); {
		case err == gateway.ErrDayUnavailable && full[0] == "" && apart(r, stayIn, stayOut):
			full = iso(r)
		case err == gateway.ErrRangePrice && dearer[0] == "":
			dearer = iso(r)
		case err == nil && valid[0] == "" && !r[0].Equal(stayIn):
			valid = iso(r)
		}
	}
	if valid[0] == "" && full[0] != "" {
		fullIn, _ := gateway.ParseDay(full[0], nil)
		fullOut, _ := gateway.ParseDay(full[1], nil)
		for _, r := range starts {
			opened := slices.Clone(days)
			for i := range opened {
				if d, _ := gateway.ParseDay(gateway.HotelDayKey(opened[i]), nil); !d.Before(r[0]) && d.Before(r[1]) {
					opened[i].Vacant += rooms
					opened[i].Family += family
				}
			}
			if r[0].Equal(stayIn) || !apart(r, fullIn, fullOut) || gateway.CheckHotelRange(opened, r[0], r[1], o) != nil {
				continue
			}
			if err := sandboxtest.OpenRooms(a.sb, r[0], r[1], rooms, family); err != nil {
				t.Fatal(err)
			}
			valid = iso(r)
			break
		}
	}
	if full[0] == "" || dearer[0] == "" || valid[0] == "" {
		t.Fatalf("sandbox data: full %v, dearer %v, valid %v", full, dearer, valid)
	}
	return
}

func TestTransferHotel(t *testing.T) {
	a, rec := recorded(t)
	id := sandbox.DemoHotelPaid
	page := "/orders/hotel/" + id + "/transfer"
	r := a.get(page)
	if r.StatusCode != http.StatusOK || r.doc.Find(`[data-island="calendar"]`).Length() != 1 {
		t.Fatalf("GET: %d", r.StatusCode)
	}
	// The month of nights: a free night is a check-in to tap, named with
	// its price; a full one is struck through and cannot be tapped.
	if n := r.doc.Find(`.sm a.d[href^="?dateIn="]`).Length(); n < 10 {
		t.Errorf("%d check-ins offered", n)
	}
	if r.doc.Find(".sm span.d.off").Length() == 0 || !strings.Contains(r.doc.Find(`.sm a.d[href^="?dateIn="]`).First().AttrOr("aria-label", ""), "₽") {
		t.Error("the nights do not say which can be chosen and their price")
	}
	// Without JavaScript the month comes first in the move's form, before
	// its button; the typed dates follow the form.
	html, _ := r.doc.Find(`form[method=post][action="` + page + `"]`).Html()
	if month, button := strings.Index(html, `class="sm"`), strings.Index(html, `type="submit"`); month < 0 || button < month {
		t.Errorf("in the move's form: the month at %d, the button at %d", month, button)
	}
	full, dearer, valid := hotelRanges(t, a)
	refuse := []struct {
		name, in, out, field, want string
	}{
		{"a full night", full[0], full[1], "dateIn", gateway.ErrDayUnavailable.Error()},
		{"another price", dearer[0], dearer[1], "dateIn", gateway.ErrRangePrice.Error()},
		{"reversed", valid[1], valid[0], "dateOut", gateway.ErrRangeReversed.Error()},
		{"same day", valid[0], valid[0], "dateOut", gateway.ErrRangeEmpty.Error()},
		{"past a month", a.isoDay(40), a.isoDay(43), "dateIn", "Выберите дату с"},
		{"no dates", "", "", "dateIn", "Выберите дату."},
	}
	for _, tt := range refuse {
		r := a.submit(a.client, page, page, url.Values{"dateIn": {tt.in}, "dateOut": {tt.out}})
		if r.StatusCode != http.StatusUnprocessableEntity || !strings.HasPrefix(r.fieldError(tt.field), tt.want) || !strings.Contains(r.text("#error-summary"), tt.want) {
			t.Errorf("%s: %d %q", tt.name, r.StatusCode, r.fieldError(tt.field))
		}
		if r.doc.Find(`input[name=dateIn]`).AttrOr("value", "") != tt.in {
			t.Errorf("%s: the answer is not kept", tt.name)
		}
	}
	if n := a.sb.AllCalls()["hotel/pushReservation"]; n != 0 {
		t.Fatalf("refusals called hotel/pushReservation %d times", n)
	}
	// ДД.ММ.ГГГГ as typed.
	dmy := func(s string) string { return s[8:10] + "." + s[5:7] + "." + s[:4] }
	p := a.get(page)
	form := p.formValues(page)
	form.Set("dateIn", dmy(valid[0]))
	form.Set("dateOut", dmy(valid[1]))
	r = a.post(page, form)
	if r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/orders/hotel/"+id {
		t.Fatalf("move: %d → %q\n%s", r.StatusCode, r.Header.Get("Location"), r.text("main"))
	}
	if q := rec.hotels[0]; q.NewDateIn != valid[0]+"T16:00:00" || q.NewDateOut != valid[1]+"T14:00:00" || q.OrderID != id {
		t.Errorf("pushReservation %+v", q)
	}
	o := a.get("/orders/hotel/" + id)
	if got := o.text(".notice-ok"); got != "Перенос бронирования выполнен успешно." {
		t.Errorf("notice %q", got)
	}
	if got := o.kv("main", "Период проживания"); !strings.HasPrefix(got, dmy(valid[0])+" 16:00") || !strings.Contains(got, dmy(valid[1])+" 14:00") {
		t.Errorf("moved stay %q", got)
	}
	if r := a.post(page, form); r.StatusCode != http.StatusSeeOther || a.sb.AllCalls()["hotel/pushReservation"] != 1 {
		t.Errorf("replayed token: %d, %d calls", r.StatusCode, a.sb.AllCalls()["hotel/pushReservation"])
	}
}

func TestTransferProviderFaults(t *testing.T) {
	a, rec := recorded(t)
	lesson := "/orders/glk/" + sandbox.DemoLessonTransferable + "/transfer"
	aqua := "/orders/aqua/" + sandbox.DemoAquaPaid + "/transfer"
	hotel := "/orders/hotel/" + sandbox.DemoHotelPaid + "/transfer"
	failed := func(status int) bool {
		return status == http.StatusBadGateway || status == http.StatusServiceUnavailable
	}
	broken := sandbox.Fault{Status: http.StatusInternalServerError, Malformed: true}

	// Reading: the page still answers, with the agreed text.
	a.sb.SetFault("GLK/getTimetable", broken)
	if r := a.get(lesson); !failed(r.StatusCode) || !strings.Contains(r.text("fieldset.choices"), msgTimetable) {
		t.Errorf("timetable fault: %d %q", r.StatusCode, r.text("fieldset.choices"))
	}
	a.sb.SetFault("aqua/getSessionsAqua", broken)
	if r := a.get(aqua); !failed(r.StatusCode) || !strings.Contains(r.text("fieldset.choices"), "Ошибка при оформлении переноса") {
		t.Errorf("sessions fault: %d %q", r.StatusCode, r.text("fieldset.choices"))
	}
	a.sb.SetFault("hotel/getDates", broken)
	if r := a.get(hotel); !failed(r.StatusCode) || r.text("#transfer-day .notice-err") != "Ошибка при получении доступных дат" {
		t.Errorf("dates fault: %d %q", r.StatusCode, r.text("#transfer-day .notice-err"))
	}
	if r := a.submit(a.client, hotel, hotel, url.Values{"dateIn": {a.isoDay(2)}, "dateOut": {a.isoDay(4)}}); !failed(r.StatusCode) ||
		r.text("main > .notice-err") != "Ошибка при получении доступных дат" || a.sb.AllCalls()["hotel/pushReservation"] != 0 {
		t.Errorf("dates fault on POST: %d %q", r.StatusCode, r.text("main > .notice-err"))
	}
	a.sb.Reset()

	// Moving: the provider's failure is shown on the form, with a new token.
	date, lessonID := a.firstChoice(lesson, "lessonId", 1, 28)
	a.sb.SetFault("GLK/changeLessonPeriod", sandbox.Fault{Status: http.StatusInternalServerError})
	r := a.submit(a.client, lesson+"?date="+date, lesson, url.Values{"date": {date}, "lessonId": {lessonID}})
	if !failed(r.StatusCode) || r.text("main > .notice-err") == "" || r.formValues(lesson).Get("token") == "" {
		t.Errorf("changeLessonPeriod fault: %d %q", r.StatusCode, r.text("main > .notice-err"))
	}
	if got := r.doc.Find(`.choice.chosen button[name=lessonId]`).AttrOr("value", ""); got != lessonID {
		t.Errorf("the lesson chosen is not kept: %q", got)
	}

	aquaDate, session := a.firstChoice(aqua, "sessionId", 1, 30)
	a.sb.SetFault("aqua/transferTicket", broken)
	r = a.submit(a.client, aqua+"?date="+aquaDate, aqua, url.Values{"date": {aquaDate}, "sessionId": {session}})
	if !failed(r.StatusCode) || r.text("main > .notice-err") != "Ошибка при оформлении переноса" {
		t.Errorf("transferTicket fault: %d %q", r.StatusCode, r.text("main > .notice-err"))
	}
	a.sb.SetFault("aqua/transferTicket", sandbox.Fault{Status: http.StatusInternalServerError})
	r = a.submit(a.client, aqua+"?date="+aquaDate, aqua, url.Values{"date": {aquaDate}, "sessionId": {session}})
	if r.StatusCode != http.StatusBadGateway || r.text("main > .notice-err") == "" {
		t.Errorf("transferTicket error with the provider's text: %d %q", r.StatusCode, r.text("main > .notice-err"))
	}

	_, _, valid := hotelRanges(t, a)
	a.sb.SetFault("hotel/pushReservation", sandbox.Fault{Drop: true})
	r = a.submit(a.client, hotel, hotel, url.Values{"dateIn": {valid[0]}, "dateOut": {valid[1]}})
	if r.StatusCode != http.StatusServiceUnavailable || r.text("main > .notice-err") != "Ошибка при регистрации переноса номера" {
		t.Errorf("pushReservation dropped: %d %q", r.StatusCode, r.text("main > .notice-err"))
	}
	rec.pushErr = &gateway.ProviderError{Op: "push reservation"} // success false, no errorMessage
	r = a.submit(a.client, hotel, hotel, url.Values{"dateIn": {valid[0]}, "dateOut": {valid[1]}})
	if r.StatusCode != http.StatusUnprocessableEntity || r.text("main > .notice-err") != "Ошибка при переносе бронирования" {
		t.Errorf("pushReservation refused: %d %q", r.StatusCode, r.text("main > .notice-err"))
	}
	rec.pushErr = &gateway.ProviderError{Op: "push reservation", Message: "Номер на эти даты уже занят"}
	r = a.submit(a.client, hotel, hotel, url.Values{"dateIn": {valid[0]}, "dateOut": {valid[1]}})
	if r.StatusCode != http.StatusUnprocessableEntity || r.text("main > .notice-err") != "Номер на эти даты уже занят" {
		t.Errorf("pushReservation refused with a text: %d %q", r.StatusCode, r.text("main > .notice-err"))
	}
}

const msgTimetable = "Не удалось загрузить расписание"

func TestTransferOnlyOwnOrders(t *testing.T) {
	a := newApp(t)
	other := a.newClient()
	a.signIn(other, otherPhone)
	before := a.sb.AllCalls()
	moves := []string{"GLK/changeLessonPeriod", "aqua/transferTicket", "hotel/pushReservation", "GLK/getTimetable", "aqua/getSessionsAqua", "hotel/getDates"}
	for _, p := range []string{
		"/orders/glk/" + sandbox.DemoLessonTransferable + "/transfer",
		"/orders/aqua/" + sandbox.DemoAquaPaid + "/transfer",
		"/orders/hotel/" + sandbox.DemoHotelPaid + "/transfer",
	} {
		if r := a.getWith(other, p+"?date="+a.isoDay(3)); r.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s as another customer: %d", p, r.StatusCode)
		}
		form := url.Values{"date": {a.isoDay(3)}, "lessonId": {"x"}, "sessionId": {"x"}, "dateIn": {a.isoDay(3)}, "dateOut": {a.isoDay(5)}, "token": {"x"}}
		if r := a.postWith(other, p, form, nil); r.StatusCode != http.StatusNotFound {
			t.Errorf("POST %s as another customer: %d", p, r.StatusCode)
		}
	}
	after := a.sb.AllCalls()
	for _, m := range moves {
		if after[m] != before[m] {
			t.Errorf("%s called for another customer's order", m)
		}
	}
	// Kinds without a transfer, or orders without canTransfer.
	a.signIn(a.client, demoPhone)
	if r := a.get("/orders/glk/" + sandbox.DemoLessonConfirmable + "/transfer"); r.StatusCode != http.StatusConflict {
		t.Errorf("a lesson without canTransfer: %d", r.StatusCode)
	}
	if r := a.get("/orders/hotel/" + sandbox.DemoHotelUnpaid + "/transfer"); r.StatusCode != http.StatusConflict {
		t.Errorf("a hotel order without canTransfer: %d", r.StatusCode)
	}
}

func TestTransferPagesFitTheFirstFlightAndCarryTheCalendar(t *testing.T) {
	a := signedIn(t)
	for _, p := range []string{
		"/orders/glk/" + sandbox.DemoLessonTransferable + "/transfer",
		"/orders/aqua/" + sandbox.DemoAquaPaid + "/transfer",
		"/orders/hotel/" + sandbox.DemoHotelPaid + "/transfer",
	} {
		n, _ := a.firstFlight(p)
		if n > 14*1024 {
			t.Errorf("%s: first flight %d bytes, budget 14 KB", p, n)
		}
		t.Logf("%s: first flight %d bytes", p, n)
		r := a.get(p)
		src := r.doc.Find(`head script[type=module]`).AttrOr("src", "")
		if src == "" || r.doc.Find(`head script:not([type=module]):not([type="application/json"]):not([type=speculationrules])`).Length() != 0 {
			t.Errorf("%s: island script %q (module, so it never blocks the first paint)", p, src)
		}
	}
	for _, p := range []string{"/orders/glk/" + sandbox.DemoLessonConfirmable, "/orders/aqua/" + sandbox.DemoAquaUnpaid, "/orders/hotel/" + sandbox.DemoHotelUnpaid} {
		if n := a.get(p).doc.Find(`script[src]`).Length(); n != 0 {
			t.Errorf("%s: %d scripts on a page without islands", p, n)
		}
	}
	// The order list has no island: only the mount loop, which registers
	// the offline worker, and nothing preloaded.
	r := a.get("/orders")
	if src := r.doc.Find(`script[src]`).AttrOr("src", ""); r.doc.Find(`script[src]`).Length() != 1 || !strings.Contains(src, "/main-") ||
		r.doc.Find(`link[rel=modulepreload], link[rel=preload]`).Length() != 0 {
		t.Errorf("/orders: scripts %d (%q), preloads %d", r.doc.Find(`script[src]`).Length(), src, r.doc.Find(`link[rel=modulepreload], link[rel=preload]`).Length())
	}
}

// With JavaScript off every lesson offered is a 'Выбрать' that submits the
// move with it; there is no other submit, so none stands beside 'Нет
// доступных занятий'.
func TestTransferLessonPick(t *testing.T) {
	a, rec := recorded(t)
	id := sandbox.DemoLessonTransferable
	page := "/orders/glk/" + id + "/transfer"
	var date string
	var r *resp
	for off := 1; off <= 28; off++ {
		p := a.get(page + "?date=" + a.isoDay(off))
		form := p.doc.Find(`form[method=post][action="` + page + `"]`)
		picks := form.Find(`button[type=submit][name=lessonId]`)
		if n := p.doc.Find(`input[type=radio][name=lessonId]`).Length(); n != 0 {
			t.Fatalf("%s: %d radio buttons", a.isoDay(off), n)
		}
		if picks.Length() == 0 {
			if n := form.Find(`button[type=submit]:not([name=show])`).Length(); n != 0 {
				t.Errorf("%s: %d submit buttons beside 'Нет доступных занятий'", a.isoDay(off), n)
			}
			continue
		}
		picks.Each(func(_ int, b *goquery.Selection) {
			if strings.TrimSpace(b.Text()) != "Выбрать" || b.AttrOr("value", "") == "" {
				t.Errorf("%s: a lesson's button %q value %q", a.isoDay(off), b.Text(), b.AttrOr("value", ""))
			}
			// A screen reader hears the button with its lesson: 'Выбрать
			// 16:00 · Горные лыжи Инструктор …', not a list of 'Выбрать'.
			if name := accessibleName(p.doc, b); !lessonPick.MatchString(name) {
				t.Errorf("%s: a lesson's button is named %q", a.isoDay(off), name)
			}
		})
		if n := form.Find(`button[type=submit]:not([name])`).Length(); n != 0 {
			t.Errorf("%s: %d submit buttons besides the lessons' 'Выбрать'", a.isoDay(off), n)
		}
		if date == "" {
			date, r = a.isoDay(off), p
		}
	}
	if date == "" {
		t.Fatal("no day with lessons in a month")
	}
	// What a browser sends for the last 'Выбрать': the hidden fields and
	// that button's name and value.
	last := r.doc.Find(`button[type=submit][name=lessonId]`).Last().AttrOr("value", "")
	form := r.formValues(page)
	form.Set("date", r.doc.Find("#transfer-day input[name=date]").AttrOr("value", ""))
	form.Set("lessonId", last)
	res := a.post(page, form)
	if res.StatusCode != http.StatusSeeOther || !strings.HasPrefix(res.Header.Get("Location"), "/orders/glk/") {
		t.Fatalf("move: %d → %q\n%s", res.StatusCode, res.Header.Get("Location"), res.text("main"))
	}
	if len(rec.lessons) != 1 || rec.lessons[0].NewLessonID != last || a.sb.AllCalls()["GLK/changeLessonPeriod"] != 1 {
		t.Errorf("changeLessonPeriod %+v, calls %d", rec.lessons, a.sb.AllCalls()["GLK/changeLessonPeriod"])
	}
}

// lessonPick is a lesson's button as named: its word, the time, the sport.
var lessonPick = regexp.MustCompile(`^Выбрать \d\d:\d\d · \S`)

// accessibleName is el's name from aria-labelledby (the texts of the
// elements it names, in order, spaces collapsed), else its own text.
func accessibleName(doc *goquery.Document, el *goquery.Selection) string {
	ids, ok := el.Attr("aria-labelledby")
	if !ok {
		return strings.Join(strings.Fields(el.Text()), " ")
	}
	var parts []string
	for _, id := range strings.Fields(ids) {
		parts = append(parts, doc.Find("#"+id).Text())
	}
	return strings.Join(strings.Fields(strings.Join(parts, " ")), " ")
}

// noLessons is a provider whose instructors have no lessons.
type noLessons struct{ handlers.Provider }

func (noLessons) Timetable(context.Context, gateway.TimetableQuery) ([]gateway.Lesson, error) {
	return nil, nil
}

func TestTransferLessonNoneNoSubmit(t *testing.T) {
	a := newAppWith(t, func(p handlers.Provider) handlers.Provider { return noLessons{p} })
	a.signIn(a.client, demoPhone)
	page := "/orders/glk/" + sandbox.DemoLessonTransferable + "/transfer"
	r := a.get(page + "?date=" + a.isoDay(2))
	if !strings.Contains(r.text("fieldset.choices"), "Нет доступных занятий") {
		t.Fatalf("no 'Нет доступных занятий': %q", r.text("fieldset.choices"))
	}
	if n := r.doc.Find(`form[method=post][action="` + page + `"] button[type=submit]:not([name=show])`).Length(); n != 0 {
		t.Errorf("%d submit buttons beside 'Нет доступных занятий'", n)
	}
}

// The hotel's nights are asked from the first day of this month to the end
// of the next; the days before today cannot be chosen.
func TestTransferHotelRange(t *testing.T) {
	a, rec := recorded(t)
	r := a.get("/orders/hotel/" + sandbox.DemoHotelPaid + "/transfer")
	if r.StatusCode != http.StatusOK || len(rec.dates) != 1 {
		t.Fatalf("GET: %d, asked %v", r.StatusCode, rec.dates)
	}
	now := a.clock.Now().In(gateway.ResortLocation())
	first := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, gateway.ResortLocation())
	got := rec.dates[0]
	if got[0].Format("2006-01-02") != first.Format("2006-01-02") || got[1].Format("2006-01-02") != first.AddDate(0, 2, -1).Format("2006-01-02") {
		t.Errorf("nights asked %s … %s", got[0].Format("2006-01-02"), got[1].Format("2006-01-02"))
	}
	// Yesterday is never a check-in; today is the month's today.
	if n := r.doc.Find(`.sm a[href*="dateIn=` + now.AddDate(0, 0, -1).Format("2006-01-02") + `"]`).Length(); n != 0 {
		t.Error("yesterday offered as a check-in")
	}
	if today := a.get(r.Request.URL.Path + "?month=" + now.Format("2006-01")).doc.Find(".sm .today"); today.Length() != 1 || strings.Fields(today.Text())[0] != strconv.Itoa(now.Day()) {
		t.Errorf("today is marked on %q", today.Text())
	}
	var p struct{ Min string }
	if err := r.props("calendar-props", &p); err != nil || p.Min != now.Format("2006-01-02") {
		t.Errorf("the calendar's first day %q (%v)", p.Min, err)
	}
}

// A lesson of today that has begun is not offered, and one posted is
// refused without a provider call; the later ones of the day stay.
func TestTransferLessonStarted(t *testing.T) {
	a, rec := recorded(t)
	page := "/orders/glk/" + sandbox.DemoLessonTransferable + "/transfer"
	// A day with a free place at 10:00 and at a later lesson.
	var date string
	var before []string
	for off := 4; off <= 28 && date == ""; off++ {
		got := a.get(page + "?date=" + a.isoDay(off)).choices("lessonId")
		morning := slices.ContainsFunc(got, func(id string) bool { return strings.HasSuffix(id, "-10") })
		if morning && len(got) >= 2 {
			date, before = a.isoDay(off), got
		}
	}
	if date == "" {
		t.Fatal("no day in a month with a 10:00 lesson and a later one")
	}
	// The server's clock to 12:00 of that day in the resort: after the
	// first lesson (10:00) began, before the later ones.
	day, _ := time.ParseInLocation("2006-01-02", date, gateway.ResortLocation())
	a.clock.Add(day.Add(12*time.Hour + 5*time.Minute).Sub(a.clock.Now()))
	after := a.get(page + "?date=" + date).choices("lessonId")
	var started []string
	for _, v := range before {
		if !slices.Contains(after, v) {
			started = append(started, v)
		}
	}
	if len(started) == 0 || len(after) == 0 {
		t.Fatalf("at 12:05 offered %v of %v", after, before)
	}
	r := a.submit(a.client, page+"?date="+date, page, url.Values{"date": {date}, "lessonId": {started[0]}})
	if r.StatusCode != http.StatusUnprocessableEntity || r.fieldError("lessonId") != "Это занятие уже началось: выберите другое." || len(rec.lessons) != 0 {
		t.Errorf("a started lesson posted: %d %q, moves %v", r.StatusCode, r.fieldError("lessonId"), rec.lessons)
	}
}

// The hotel transfer page opens with no error: the current stay is shown
// as the current stay, nothing is chosen yet, and the stay's own nights
// count as free for it.
func TestTransferHotelOpens(t *testing.T) {
	a := signedIn(t)
	r := a.get("/orders/hotel/" + sandbox.DemoHotelPaid + "/transfer")
	if r.StatusCode != http.StatusOK {
		t.Fatalf("GET: %d", r.StatusCode)
	}
	if got := r.text(".notice-err, .field-error, #error-summary"); got != "" {
		t.Errorf("an error on opening: %q", got)
	}
	main := r.doc.Find("main").Clone()
	main.Find("script").Remove()
	for _, bad := range []string{"нет свободных", "Ошибка"} {
		if strings.Contains(main.Text(), bad) {
			t.Errorf("the page says %q", bad)
		}
	}
	o, err := a.sandboxClient().HotelOrder(context.Background(), sandbox.DemoGUID, sandbox.DemoHotelPaid)
	if err != nil {
		t.Fatal(err)
	}
	in, _ := gateway.ParseDateTime(o.HourBeg, nil)
	out, _ := gateway.ParseDateTime(o.HourEnd, nil)
	if want := "Сейчас: " + in.Format("02.01.2006") + " — " + out.Format("02.01.2006"); !strings.Contains(r.text("main"), want) {
		t.Errorf("the current stay is not shown as %q", want)
	}
	var p struct{ From, To string }
	_ = r.props("calendar-props", &p)
	if p.From != "" || p.To != "" || r.doc.Find("input[name=dateIn]").AttrOr("value", "") != "" {
		t.Errorf("dates chosen before the customer chose: %+v", p)
	}
}

// fullHotel is a hotel with no room free on any night: the stays already
// there hold them all.
type fullHotel struct{ handlers.Provider }

func (p fullHotel) HotelDates(ctx context.Context, from, to time.Time) ([]gateway.HotelDay, error) {
	days, err := p.Provider.HotelDates(ctx, from, to)
	for i := range days {
		days[i].Vacant, days[i].Family = 0, 0
	}
	return days, err
}

// In a full hotel a stay's own nights are still free for it, and only they.
func TestTransferHotelOwnNights(t *testing.T) {
	a := newAppWith(t, func(p handlers.Provider) handlers.Provider { return fullHotel{p} })
	a.signIn(a.client, demoPhone)
	o, err := a.sandboxClient().HotelOrder(context.Background(), sandbox.DemoGUID, sandbox.DemoHotelPaid)
	if err != nil {
		t.Fatal(err)
	}
	in, _ := gateway.ParseDateTime(o.HourBeg, nil)
	out, _ := gateway.ParseDateTime(o.HourEnd, nil)
	r := a.get("/orders/hotel/" + sandbox.DemoHotelPaid + "/transfer")
	var free []string // the check-ins offered
	r.doc.Find(`.sm a.d[href^="?dateIn="]`).Each(func(_ int, s *goquery.Selection) {
		d, _ := time.Parse("2006-01-02", strings.TrimPrefix(strings.Split(s.AttrOr("href", ""), "&")[0], "?dateIn="))
		free = append(free, d.Format("02.01.2006"))
	})
	var want []string
	for d := gateway.Day(in, nil); d.Before(gateway.Day(out, nil)); d = d.AddDate(0, 0, 1) {
		want = append(want, d.Format("02.01.2006"))
	}
	if !slices.Equal(free, want) {
		t.Errorf("free nights %v, want the stay's own %v", free, want)
	}
}

// fullSession is the provider with the first session of every day full.
type fullSession struct{ handlers.Provider }

func (p fullSession) AquaSessions(ctx context.Context, d time.Time) ([]gateway.AquaSession, error) {
	list, err := p.Provider.AquaSessions(ctx, d)
	if len(list) > 0 {
		list[0].AvailableCount = 0
	}
	return list, err
}

// A full water-park session is listed, disabled, with why; posted, it is
// refused with that reason and the provider is not asked.
func TestTransferAquaFullSessionShown(t *testing.T) {
	a := newAppWith(t, func(p handlers.Provider) handlers.Provider { return fullSession{p} })
	a.signIn(a.client, demoPhone)
	page := "/orders/aqua/" + sandbox.DemoAquaPaid + "/transfer"
	var r *resp
	var date string
	for off := 1; off <= 30 && date == ""; off++ {
		p := a.get(page + "?date=" + a.isoDay(off))
		if p.doc.Find(`input[type=radio][name=sessionId][disabled]`).Length() > 0 {
			r, date = p, a.isoDay(off)
		}
	}
	if date == "" {
		t.Fatal("no full session shown in 30 days")
	}
	full := r.doc.Find(`input[type=radio][name=sessionId][disabled]`).First()
	label := full.Closest("label")
	if !strings.Contains(label.Text(), gateway.ErrSessionFull.Error()) || !strings.Contains(label.Text(), "Свободных мест: 0") {
		t.Errorf("the full session says %q", strings.Join(strings.Fields(label.Text()), " "))
	}
	res := a.submit(a.client, page+"?date="+date, page, url.Values{"date": {date}, "sessionId": {full.AttrOr("value", "")}})
	if res.StatusCode != http.StatusUnprocessableEntity || res.fieldError("sessionId") != gateway.ErrSessionFull.Error() || a.sb.AllCalls()["aqua/transferTicket"] != 0 {
		t.Errorf("posted: %d %q, calls %d", res.StatusCode, res.fieldError("sessionId"), a.sb.AllCalls()["aqua/transferTicket"])
	}
}

// Without JavaScript the month stands before the buttons that move, first
// in the move's form; a typed day is shown by a form of its own below it;
// an older page's 'Показать занятия' inside the move's form shows that day
// and moves nothing.
func TestTransferDayBeforeTheMove(t *testing.T) {
	a, rec := recorded(t)
	for _, page := range []string{"/orders/glk/" + sandbox.DemoLessonTransferable + "/transfer", "/orders/aqua/" + sandbox.DemoAquaPaid + "/transfer"} {
		r := a.get(page)
		form, _ := r.doc.Find(`form[method=post][action="` + page + `"]`).Html()
		if month, button := strings.Index(form, `class="sm"`), strings.Index(form, `type="submit"`); month < 0 || (button >= 0 && button < month) {
			t.Fatalf("%s: the month at %d, the first button at %d", page, month, button)
		}
		typed := r.doc.Find(`form[method=get]#transfer-day`)
		if typed.Find(`input[type=date][name=date]`).Length() != 1 || strings.Index(r.body, `id="transfer-day"`) < strings.Index(r.body, `method="post"`) {
			t.Errorf("%s: no form of a typed day below the move's", page)
		}
	}
	page := "/orders/glk/" + sandbox.DemoLessonTransferable + "/transfer"
	date, _ := a.firstChoice(page, "lessonId", 4, 28)
	form := a.get(page).formValues(page)
	form.Set("date", date)
	form.Set("show", "1")
	r := a.post(page, form)
	if r.StatusCode != http.StatusOK || !strings.Contains(r.text("legend"), date[8:10]+"."+date[5:7]+"."+date[:4]) || len(r.choices("lessonId")) == 0 {
		t.Errorf("show: %d %q", r.StatusCode, r.text("legend"))
	}
	if len(rec.lessons) != 0 || a.sb.AllCalls()["GLK/changeLessonPeriod"] != 0 {
		t.Error("'Показать занятия' moved the booking")
	}
}

// A "move" to the dates already booked moves nothing: it is refused in
// Russian at the check-in, and neither the dates nor the move are asked of
// the provider.
func TestHotelMoveToTheSameDates(t *testing.T) {
	a := signedIn(t)
	o, err := a.sandboxClient().HotelOrder(context.Background(), sandbox.DemoGUID, sandbox.DemoHotelPaid)
	if err != nil {
		t.Fatal(err)
	}
	in, _ := gateway.ParseDateTime(o.HourBeg, nil)
	out, _ := gateway.ParseDateTime(o.HourEnd, nil)
	page := "/orders/hotel/" + sandbox.DemoHotelPaid + "/transfer"
	dates := a.sb.AllCalls()["hotel/getDates"]
	r := a.submit(a.client, page, page, url.Values{"dateIn": {gateway.FormatISODate(in, nil)}, "dateOut": {gateway.FormatISODate(out, nil)}})
	want := "Это даты вашего бронирования: выберите другие даты заезда или выезда."
	if r.StatusCode != http.StatusUnprocessableEntity || r.fieldError("dateIn") != want || !strings.Contains(r.text("#error-summary"), want) {
		t.Errorf("the same dates: %d %q", r.StatusCode, r.fieldError("dateIn"))
	}
	if strings.Contains(r.text("main"), "выполнен успешно") {
		t.Error("the same dates reported as moved")
	}
	if n := a.sb.AllCalls()["hotel/pushReservation"]; n != 0 {
		t.Errorf("hotel/pushReservation called %d times", n)
	}
	// Only the page shown again lists the nights: the rule asked nothing.
	if n := a.sb.AllCalls()["hotel/getDates"] - dates; n != 2 { // the GET of the form and the 422 page
		t.Errorf("hotel/getDates called %d times", n)
	}
}

// The provider's dates failing is said once on the page, GET or POST.
func TestHotelMoveDatesFailureSaidOnce(t *testing.T) {
	a := signedIn(t)
	page := "/orders/hotel/" + sandbox.DemoHotelPaid + "/transfer"
	p := a.get(page)
	form := p.formValues(page)
	form.Set("dateIn", a.isoDay(2))
	form.Set("dateOut", a.isoDay(4))
	a.sb.SetFault("hotel/getDates", sandbox.Fault{Status: http.StatusInternalServerError, Malformed: true})
	a.clock.Add(31 * time.Second) // past the hotel's days the first page kept for everyone
	for name, r := range map[string]*resp{"GET": a.get(page), "POST": a.post(page, form)} {
		if n := strings.Count(r.text("main"), "Ошибка при получении доступных дат"); n != 1 {
			t.Errorf("%s: the message %d times", name, n)
		}
		if r.doc.Find(".sm a.d").Length() != 0 {
			t.Errorf("%s: nights offered without nights", name)
		}
	}
}

// Without JavaScript the month of nights with their prices comes first in
// the move's form, then the stay chosen in it (what the form sends), then
// the buttons.
func TestHotelMoveDatesFirst(t *testing.T) {
	a := signedIn(t)
	page := "/orders/hotel/" + sandbox.DemoHotelPaid + "/transfer"
	r := a.get(page)
	form := r.doc.Find(`form[method=post][action="` + page + `"]`)
	html, _ := form.Html()
	month, dateIn, button := strings.Index(html, `class="sm"`), strings.Index(html, `name="dateIn"`), strings.Index(html, `type="submit"`)
	if month < 0 || dateIn < month || button < dateIn {
		t.Errorf("in the move's form: the month at %d, check-in at %d, button at %d", month, dateIn, button)
	}
}

// noSessions is a provider whose water park has no sessions on any day.
type noSessions struct{ handlers.Provider }

func (noSessions) AquaSessions(context.Context, time.Time) ([]gateway.AquaSession, error) {
	return []gateway.AquaSession{}, nil
}

// Without JavaScript a day with nothing to choose offers no move: beside
// 'На эту дату нет подходящих сеансов' there is no 'Перенести билеты'.
func TestAquaMoveNoSessionsNoButton(t *testing.T) {
	a := newAppWith(t, func(p handlers.Provider) handlers.Provider { return noSessions{p} })
	a.signIn(a.client, demoPhone)
	page := "/orders/aqua/" + sandbox.DemoAquaPaid + "/transfer"
	r := a.get(page)
	if !strings.Contains(r.text("fieldset.choices"), "На эту дату нет подходящих сеансов") {
		t.Fatalf("no sessions: %q", r.text("fieldset.choices"))
	}
	if b := r.doc.Find(`.actions > button[type=submit]`); b.Length() != 1 || b.AttrOr("hidden", "no") == "no" || b.AttrOr("disabled", "no") == "no" || !strings.Contains(b.Text(), "Перенести билеты") {
		t.Errorf("the move's button is offered without sessions (%d buttons)", b.Length())
	}
	if r := signedIn(t).get(page); r.doc.Find(`.actions > button[type=submit][hidden], .actions > button[type=submit][disabled]`).Length() != 0 {
		t.Error("the move's button hidden on a day with sessions")
	}
}
