package handlers

import (
	"cmp"
	"context"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/labstack/echo/v5"

	"lk/gateway"
	"lk/store"
	"lk/views"
)

// orderTransferForm is GET …/transfer: the kind's page of days, lessons,
// sessions or hours to move the order to.
func (s *Server) orderTransferForm(c *echo.Context) error {
	o, err := s.shownOrder(c, actTransfer)
	if err != nil {
		return err
	}
	return o.kind.(mover).movePage(s, c, o)
}

// orderTransfer is POST …/transfer: the kind's move, once per token.
func (s *Server) orderTransfer(c *echo.Context) error {
	k, _, err := actionParams(c, actTransfer)
	if err != nil {
		return err
	}
	return s.act(c, actTransfer, movePost{s: s, c: c, m: k.(mover).readMove(c)}, nil)
}

// move is a posted move form. A broken rule shows the form again with 422
// and the provider's move is not called.
type moveForm interface {
	// check applies the rules to the answers against o as it is now, with
	// what the provider offers on the day; status 0 lets the move go ahead.
	check(ctx context.Context, s *Server, o order) (status int, msg string)
	// call makes the provider's move and says where the customer goes on,
	// with the provider's own message when it gave one.
	call(ctx context.Context, s *Server, sess *Session, o order) (next, msg string, err error)
	// show is the page with the answers, their errors and why the last
	// attempt failed; an island gets JSON.
	show(s *Server, c *echo.Context, o order, status int, msg string) error
	texts() moveTexts
}

// moveTexts are what a move says when the provider refuses it, when the
// provider cannot be reached, and when it is done.
type moveTexts struct{ refused, unreachable, done string }

// movePost is a move as the action protocol runs it.
type movePost struct {
	s *Server
	c *echo.Context
	m moveForm
}

func (p movePost) check(ctx context.Context, o order) error {
	if status, msg := p.m.check(ctx, p.s, o); status != 0 {
		return answered(p.m.show(p.s, p.c, o, status, msg))
	}
	return nil
}

func (p movePost) call(ctx context.Context, o order) store.Outcome {
	next, msg, err := p.m.call(ctx, p.s, session(p.c), o)
	if err != nil {
		return p.s.failed(o, actTransfer, err, p.m.texts().refused, p.m.texts().unreachable)
	}
	return store.Outcome{Status: http.StatusSeeOther, Location: next, Message: cmp.Or(msg, p.m.texts().done)}
}

func (p movePost) again(o order, status int, msg string) error {
	return p.m.show(p.s, p.c, o, status, msg)
}

// dayTexts are what a wrong day in a form reads like: none chosen, not a
// date, outside the window ("" lets the window name itself).
type dayTexts struct{ missing, unreadable, outside string }

var dayMessages = dayTexts{missing: msgChooseDay, unreadable: msgBadDay}

// formDay is the one reader of a day a customer chose on a move page
// (ГГГГ-ММ-ДД or ДД.ММ.ГГГГ), checked against the window from..to; msg
// says what is wrong, "" when nothing.
func (s *Server) formDay(raw string, from, to time.Time, t dayTexts) (time.Time, string) {
	if strings.TrimSpace(raw) == "" {
		return time.Time{}, t.missing
	}
	d, err := gateway.ParseDay(raw, s.loc)
	if err != nil {
		return time.Time{}, t.unreadable
	}
	if err := gateway.CheckWindow(d, from, to); err != nil {
		return d, cmp.Or(t.outside, err.Error())
	}
	return d, ""
}

// iso is a day as <input type="date"> and the island want it.
func iso(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return gateway.FormatISODate(t, t.Location()) // the server's days are in the resort's zone
}

// ---- a day, then one of its lessons or sessions ----

// option is a lesson or session a day offers: how the page shows it, why it
// cannot be chosen (nil when it can), and the provider's own record.
type option struct {
	choice views.TransferChoice
	why    error
	wire   any
	// shown: listed although why says it cannot be chosen (a full water-park
	// session), disabled, with why; other refused options are not listed.
	shown bool
}

// dayKind is a kind whose move picks one of a day's options: a lesson or
// a water-park session.
type dayKind interface {
	dayTexts() *dayPage
	window(now time.Time) (from, to time.Time)
	// dayRule checks a day in the window against the kind's own rule.
	dayRule(s *Server, o order, d time.Time) error
	firstDay(s *Server, o order) time.Time
	options(ctx context.Context, s *Server, o order, d time.Time) ([]option, error)
	// original is the order's day the island's calendar marks ("" if none).
	original(o order) string
	change(ctx context.Context, s *Server, sess *Session, o order, a *dayAnswers) (next, msg string, err error)
}

// dayPage is what a day move's page says.
type dayPage struct {
	heading, lead, button, show, legend, choose, empty, fetchFailed string
	field                                                           string // "lessonId", "sessionId"
	// pick is the button of each choice ('Выбрать'), which submits the
	// move with it; the island submits with 'Готово' once a day and a
	// choice are picked. "" for radio buttons and the one button.
	pick string
	moveTexts
}

type dayAnswers struct {
	date, choice string
	// show: the day's 'Показать' was pressed in the move's form (without
	// JavaScript): the page shows that day's choices, nothing is moved.
	show   bool
	errs   views.Errors
	day    time.Time
	chosen option
}

// dayMove is a posted move to one of a day's options.
type dayMove struct {
	k dayKind
	a *dayAnswers
}

func readDayMove(c *echo.Context, k dayKind) moveForm {
	field := k.dayTexts().field
	return dayMove{k: k, a: &dayAnswers{date: c.FormValue("date"), choice: strings.TrimSpace(c.FormValue(field)), show: c.FormValue("show") != ""}}
}

// showDays is GET …/transfer of a day move.
func showDays(s *Server, c *echo.Context, o order, k dayKind) error {
	a := &dayAnswers{date: c.QueryParam("date")}
	if a.date == "" {
		a.date = iso(k.firstDay(s, o))
	}
	return dayMove{k: k, a: a}.show(s, c, o, http.StatusOK, "")
}

func (m dayMove) texts() moveTexts { return m.k.dayTexts().moveTexts }

func (m dayMove) call(ctx context.Context, s *Server, sess *Session, o order) (string, string, error) {
	return m.k.change(ctx, s, sess, o, m.a)
}

func (m dayMove) checkDay(s *Server, o order, raw string) (time.Time, string) {
	from, to := m.k.window(s.now())
	d, msg := s.formDay(raw, from, to, dayMessages)
	if msg == "" {
		if err := m.k.dayRule(s, o, d); err != nil {
			msg = err.Error()
		}
	}
	return d, msg
}

func (m dayMove) check(ctx context.Context, s *Server, o order) (int, string) {
	a, p := m.a, m.k.dayTexts()
	if a.show {
		a.choice = ""
		return http.StatusOK, ""
	}
	d, msg := m.checkDay(s, o, a.date)
	if msg != "" {
		a.errs.Add("date", msg)
	}
	if a.choice == "" {
		a.errs.Add(p.field, p.choose)
	}
	if len(a.errs) > 0 {
		return http.StatusUnprocessableEntity, ""
	}
	opts, err := m.k.options(ctx, s, o, d)
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

// show is the page (or, for the island, the day's choices as JSON) with
// the answers, the rule errors in a.errs and a failure msg.
func (m dayMove) show(s *Server, c *echo.Context, o order, status int, msg string) error {
	a, p := m.a, m.k.dayTexts()
	d, dayMsg := m.checkDay(s, o, a.date)
	ch := views.DayChoices{Field: p.field, Empty: p.empty, Date: iso(d), Pick: p.pick}
	if dayMsg != "" {
		if a.errs.For("date") == "" {
			a.errs.Add("date", dayMsg)
			status = http.StatusUnprocessableEntity
		}
		ch.Date = ""
	} else {
		ch.Legend = p.legend + " " + views.Date(d)
		opts, err := m.k.options(c.Request().Context(), s, o, d)
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
	return respond(c, status, ch, func() error { return m.page(s, c, o, status, d, html, msg) })
}

func (m dayMove) page(s *Server, c *echo.Context, o order, status int, d time.Time, ch views.DayChoices, msg string) error {
	a, p := m.a, m.k.dayTexts()
	from, to := m.k.window(s.now())
	url := o.url(string(actTransfer))
	day := views.DayField{Name: "date", Label: "Дата", Value: cmp.Or(iso(d), a.date), Min: iso(from), Max: iso(to),
		Hint: "С " + views.Date(from) + " по " + views.Date(to)}
	v := views.TransferView{
		Action: views.ActionView{
			Order: o.card, Heading: p.heading, Lead: p.lead, URL: url, Token: s.token(c, o, actTransfer),
			Submit: p.button, Error: msg, Errors: a.errs,
		},
		Day: day, Show: p.show, Choices: ch,
		Calendar: views.CalendarProps{
			Mode: "day", Min: day.Min, Max: day.Max, DayForm: "#transfer-day", Label: day.Label,
			Name: "date", Value: ch.Date, URL: url, Choice: a.choice, Original: m.k.original(o),
		},
	}
	if p.pick != "" {
		v.Action.Submit, v.Calendar.Done = "", msgDone
	}
	pg := s.page(c, p.heading, "Перенос заказа в личном кабинете курорта.")
	pg.Nav, pg.Invalid, pg.Islands = views.NavOrders, len(a.errs) > 0, []string{views.CalendarIsland}
	return render(c, status, views.TransferPage(pg, v))
}
