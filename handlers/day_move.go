package handlers

import (
	"cmp"
	"context"
	"lk/gateway"
	"lk/handlers/web"
	"lk/store"
	"lk/views"
	"net/http"
	neturl "net/url"
	"slices"
	"strings"
	"time"

	"github.com/labstack/echo/v5"
)

// moveTexts are what a move's outcome says: refused and unreachable when
// the provider did not move it, done when it did (unless it said more).
type moveTexts struct{ refused, unreachable, done string }

// moved is a move's outcome from the provider's answer: the page of the
// order where it is now (next), or why it did not move.
func (s *Server) moved(ctx context.Context, o order, t moveTexts, next, msg string, err error) store.Outcome {
	if err != nil {
		return s.actionFailed(ctx, o, actTransfer, err, t.refused, t.unreachable)
	}
	return store.Outcome{Status: http.StatusSeeOther, Location: next, Message: cmp.Or(msg, t.done)}
}

type dayFieldTexts struct{ missing, unreadable, outside string }

var dayMessages = dayFieldTexts{missing: msgChooseDay, unreadable: msgBadDay}

// formDay reads a day as ГГГГ-ММ-ДД or ДД.ММ.ГГГГ, within from..to.
func (c clock) formDay(raw string, from, to time.Time, t dayFieldTexts) (time.Time, string) {
	if strings.TrimSpace(raw) == "" {
		return time.Time{}, t.missing
	}
	d, err := gateway.ParseDay(raw, c.loc)
	if err != nil {
		return time.Time{}, t.unreadable
	}
	if err := gateway.CheckWindow(d, from, to); err != nil {
		return d, cmp.Or(t.outside, err.Error())
	}
	return d, ""
}

type option struct {
	choice views.TransferChoice
	why    error
	wire   any
	// shown: listed although refused (a full water-park session), disabled.
	shown bool
}

// dayKind is a kind whose move picks one of a day's options.
type dayKind interface {
	wording() *dayWording
	window(now time.Time) (from, to time.Time)
	dayRule(o order, d time.Time) error
	firstDay(o order) time.Time
	options(ctx context.Context, o order, d time.Time) ([]option, error)
	original(o order) string
	change(ctx context.Context, sess *web.Session, o order, a *dayAnswers) (next, msg string, err error)
}

type dayWording struct {
	heading, lead, button, show, legend, choose, empty, fetchFailed string
	field                                                           string // "lessonId", "sessionId"
	// pick is each choice's submit button ('Выбрать'); "" for radio buttons.
	pick string
	moveTexts
}

type dayAnswers struct {
	date, choice string
	// show: the day's 'Показать' was pressed without JavaScript: nothing moves.
	show   bool
	errs   views.Errors
	day    time.Time
	chosen option
}

type dayMove struct {
	formBase
	k dayKind
	a *dayAnswers
}

func readDayMove(s *Server, c *echo.Context, k dayKind) actionForm {
	field := k.wording().field
	return dayMove{formBase{s, c}, k, &dayAnswers{date: c.FormValue("date"), choice: strings.TrimSpace(c.FormValue(field)), show: c.FormValue("show") != ""}}
}

func showDays(s *Server, c *echo.Context, o order, k dayKind) error {
	// A choice in the address is shown checked, as a kept form's (nothing is sent).
	a := &dayAnswers{date: c.QueryParam("date"), choice: c.QueryParam(k.wording().field)}
	if a.date == "" {
		a.date = iso(k.firstDay(o))
	}
	return dayMove{formBase{s, c}, k, a}.again(o, http.StatusOK, "")
}

func (m dayMove) call(ctx context.Context, o order) store.Outcome {
	next, msg, err := m.k.change(ctx, web.SessionOf(m.c), o, m.a)
	return m.s.moved(ctx, o, m.k.wording().moveTexts, next, msg, err)
}

func (m dayMove) checkDay(o order, raw string) (time.Time, string) {
	s := m.s
	from, to := m.k.window(s.now())
	d, msg := s.formDay(raw, from, to, dayMessages)
	if msg == "" {
		if err := m.k.dayRule(o, d); err != nil {
			msg = err.Error()
		}
	}
	return d, msg
}

func (m dayMove) check(ctx context.Context, o order) verdict {
	status, msg := m.judge(ctx, o)
	return verdict{status, msg}
}

func (m dayMove) judge(ctx context.Context, o order) (int, string) {
	a, p := m.a, m.k.wording()
	if a.show {
		a.choice = ""
		return http.StatusOK, ""
	}
	d, msg := m.checkDay(o, a.date)
	if msg != "" {
		a.errs.Add("date", msg)
	}
	if a.choice == "" {
		a.errs.Add(p.field, p.choose)
	}
	if len(a.errs) > 0 {
		return http.StatusUnprocessableEntity, ""
	}
	opts, err := m.k.options(ctx, o, d)
	if err != nil {
		f := explain(err, p.fetchFailed, p.fetchFailed)
		return f.status, f.message
	}
	i := slices.IndexFunc(opts, func(op option) bool { return op.choice.Value == a.choice })
	switch {
	case i < 0:
		a.errs.Add(p.field, msgNotOffered)
	case opts[i].why != nil:
		a.errs.Add(p.field, opts[i].why.Error())
	}
	if len(a.errs) > 0 {
		return http.StatusUnprocessableEntity, ""
	}
	a.day, a.chosen = d, opts[i]
	return 0, ""
}

func (m dayMove) again(o order, status int, msg string) error {
	c, a, p := m.c, m.a, m.k.wording()
	d, dayMsg := m.checkDay(o, a.date)
	ch := views.DayChoices{Field: p.field, Empty: p.empty, Date: iso(d), Pick: p.pick}
	if dayMsg != "" {
		if a.errs.For("date") == "" {
			a.errs.Add("date", dayMsg)
			status = http.StatusUnprocessableEntity
		}
		ch.Date = ""
	} else {
		ch.Legend = p.legend + " " + views.Date(d)
		opts, err := m.k.options(c.Request().Context(), o, d)
		if err != nil {
			f := explain(err, p.fetchFailed, p.fetchFailed)
			ch.Error, status = f.message, max(status, f.status)
		}
		for _, op := range opts {
			switch {
			case op.why == nil:
				op.choice.Checked = op.choice.Value == a.choice
			case op.shown:
				op.choice.Disabled = op.why.Error()
			default:
				continue
			}
			ch.Choices = append(ch.Choices, op.choice)
		}
	}
	html := ch
	ch.Error = cmp.Or(a.errs.For("date"), ch.Error)
	if ch.Choices == nil {
		ch.Choices = []views.TransferChoice{}
	}
	return web.Respond(c, status, ch, func() error { return m.page(o, status, d, html, ch, msg) })
}

// page hands the island the list as it would fetch it, so it shows the same
// list at once (one arriving later would move everything below it).
func (m dayMove) page(o order, status int, d time.Time, ch, first views.DayChoices, msg string) error {
	s, c, a, p := m.s, m.c, m.a, m.k.wording()
	from, to := m.k.window(s.now())
	url := o.url(string(actTransfer))
	day := views.DayField{Name: "date", ID: "day", Label: "Дата", Value: cmp.Or(iso(d), a.date), Min: iso(from), Max: iso(to),
		Hint: "С " + views.Date(from) + " по " + views.Date(to)}
	booked := iso(o.ref.Start)
	shown := d
	if ch.Date == "" {
		shown = from
	}
	month := s.monthView("day", c.QueryParam("month"), shown, from, to, neturl.Values{"date": {ch.Date}}, func(t time.Time) views.MonthDay {
		md := views.MonthDay{Name: views.DayName(t, bookedName(iso(t) == booked)), Booked: iso(t) == booked, Chosen: iso(t) == ch.Date}
		if gateway.InWindow(t, from, to) && m.k.dayRule(o, t) == nil {
			md.Href = dayLink(t)
		} else {
			md.Off = true
		}
		return md
	})
	month.Legend = booked != ""
	v := views.TransferView{
		Action: views.ActionView{
			Order: o.card, Heading: p.heading, Lead: p.lead, URL: url, Token: s.newToken(c, o, actTransfer),
			Submit: p.button, Error: msg, Errors: a.errs,
		},
		Day: day, Show: p.show, Choices: ch, Month: month,
		Chosen: day.Label + ": " + cmp.Or(chosenDate(ch.Date, d), "не выбрана"),
		Calendar: views.DayCalendar{
			CalendarWindow: views.CalendarWindow{Min: day.Min, Max: day.Max, Today: s.today(), Label: day.Label, Month: month.Value + "-01"}, Name: "date",
			Value: ch.Date, URL: url, Choice: a.choice, Original: m.k.original(o), Booked: booked,
		},
	}
	if first.Date != "" {
		v.Calendar.First = &first
	}
	if p.pick != "" {
		v.Action.Submit, v.Calendar.Done = "", msgDone
	}
	// A day with nothing to choose offers no move.
	v.Action.NothingToSubmit = !slices.ContainsFunc(ch.Choices, func(c views.TransferChoice) bool { return c.Disabled == "" })
	pg := s.page(c, p.heading, "Перенос заказа в личном кабинете курорта.")
	pg.Nav, pg.Invalid, pg.Islands = views.NavOrders, len(a.errs) > 0, o.kind.info().moveIslands
	return s.render(c, status, views.TransferPage(pg, v))
}

// chosenDate is the day chosen ("02.12.2026"), "" when none was read.
func chosenDate(chosen string, d time.Time) string {
	if chosen == "" {
		return ""
	}
	return views.Date(d)
}
