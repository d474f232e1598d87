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
func (s *Server) orderTransferForm(c *echo.Context, o order) error {
	return o.kind.transfer.page(s, c, o)
}

// orderTransfer is POST …/transfer: the kind's move, once per token.
func (s *Server) orderTransfer(c *echo.Context, o order) error {
	return o.kind.transfer.submit(s, c, o)
}

// mover is a kind's …/transfer: its page (GET) and its move (POST), both
// called after the guard.
type mover interface {
	page(s *Server, c *echo.Context, o order) error
	submit(s *Server, c *echo.Context, o order) error
}

// move is how every kind moves an order, filled per kind; A is the kind's
// answers (a day and a lesson, a day and hours, two dates) with what the
// server worked out from them. A broken rule shows the form again with 422
// and the provider's move is not called.
type move[A any] struct {
	// read reads the answers: from the query for the page, from the form
	// for a move.
	read func(s *Server, c *echo.Context, o order, posted bool) *A
	// check applies the rules to posted answers, with what the provider
	// offers on the day; status 0 lets the move go ahead, any other shows
	// the form again with it and msg.
	check func(ctx context.Context, s *Server, o order, a *A) (status int, msg string)
	// call makes the provider's move and says where the customer goes on,
	// with the provider's own message when it gave one.
	call func(ctx context.Context, s *Server, sess *Session, o order, a *A) (next, msg string, err error)
	// show is the page with the answers, their errors and why the last
	// attempt failed (msg); an island gets JSON.
	show func(s *Server, c *echo.Context, o order, status int, a *A, msg string) error
	moveTexts
}

// moveTexts are what a move says when the provider refuses it, when the
// provider cannot be reached, and when it is done.
type moveTexts struct{ refused, unreachable, done string }

func (m *move[A]) page(s *Server, c *echo.Context, o order) error {
	return m.show(s, c, o, http.StatusOK, m.read(s, c, o, false), "")
}

func (m *move[A]) submit(s *Server, c *echo.Context, o order) error {
	a := m.read(s, c, o, true)
	if status, msg := m.check(c.Request().Context(), s, o, a); status != 0 {
		return m.show(s, c, o, status, a, msg)
	}
	out, err := s.onlyOnce(c, o, actTransfer, func(ctx context.Context, now order) store.Outcome {
		// Another tab may have moved the order since the answers were
		// checked: they are checked again against the order as it is.
		if status, msg := m.check(ctx, s, now, a); status != 0 {
			return store.Outcome{Status: status, Message: cmp.Or(msg, m.refused)}
		}
		next, msg, err := m.call(ctx, s, session(c), o, a)
		if err != nil {
			return s.failed(o, actTransfer, err, m.refused, m.unreachable)
		}
		return store.Outcome{Status: http.StatusSeeOther, Location: next, Message: cmp.Or(msg, m.done)}
	})
	if err != nil {
		return err
	}
	return s.finish(c, o, actTransfer, out, func(status int, msg string) error {
		return m.show(s, c, o, status, a, msg)
	})
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

// dayPage is a move to one of the options of a day: its texts, the window
// of days, the kind's own rule on a day, the day the page opens on and
// the day's options.
type dayPage struct {
	heading, lead, button, show, legend, choose, empty, fetchFailed string
	field                                                           string // "lessonId", "sessionId"
	// pick is the button of each choice ('Выбрать'), which submits the
	// move with it; the island submits with 'Готово' once a day and a
	// choice are picked. "" for radio buttons and the one button.
	pick   string
	window func(now time.Time) (from, to time.Time)
	// day checks a day in the window against the kind's own rule; nil
	// when there is none.
	day     func(s *Server, o order, d time.Time) error
	first   func(s *Server, o order) time.Time
	options func(ctx context.Context, s *Server, o order, d time.Time) ([]option, error)
	// original is the order's day the island's calendar marks ("" if none).
	original func(o order) string
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

func dayMove(p *dayPage, call func(ctx context.Context, s *Server, sess *Session, o order, a *dayAnswers) (string, string, error), t moveTexts) *move[dayAnswers] {
	return &move[dayAnswers]{read: p.read, check: p.check, call: call, show: p.render, moveTexts: t}
}

func (p *dayPage) read(s *Server, c *echo.Context, o order, posted bool) *dayAnswers {
	if posted {
		return &dayAnswers{date: c.FormValue("date"), choice: strings.TrimSpace(c.FormValue(p.field)), show: c.FormValue("show") != ""}
	}
	a := &dayAnswers{date: c.QueryParam("date")}
	if a.date == "" {
		a.date = iso(p.first(s, o))
	}
	return a
}

func (p *dayPage) checkDay(s *Server, o order, raw string) (time.Time, string) {
	from, to := p.window(s.now())
	d, msg := s.formDay(raw, from, to, dayMessages)
	if msg == "" && p.day != nil {
		if err := p.day(s, o, d); err != nil {
			msg = err.Error()
		}
	}
	return d, msg
}

func (p *dayPage) check(ctx context.Context, s *Server, o order, a *dayAnswers) (int, string) {
	if a.show {
		a.choice = ""
		return http.StatusOK, ""
	}
	d, msg := p.checkDay(s, o, a.date)
	if msg != "" {
		a.errs.Add("date", msg)
	}
	if a.choice == "" {
		a.errs.Add(p.field, p.choose)
	}
	if len(a.errs) > 0 {
		return http.StatusUnprocessableEntity, ""
	}
	opts, err := p.options(ctx, s, o, d)
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

// render shows the page (or, for the island, the day's choices as JSON)
// with the answers a, the rule errors in a.errs and a failure msg.
func (p *dayPage) render(s *Server, c *echo.Context, o order, status int, a *dayAnswers, msg string) error {
	d, dayMsg := p.checkDay(s, o, a.date)
	ch := views.DayChoices{Field: p.field, Empty: p.empty, Date: iso(d), Pick: p.pick}
	if dayMsg != "" {
		if a.errs.For("date") == "" {
			a.errs.Add("date", dayMsg)
			status = http.StatusUnprocessableEntity
		}
		ch.Date = ""
	} else {
		ch.Legend = p.legend + " " + views.Date(d)
		opts, err := p.options(c.Request().Context(), s, o, d)
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
	page := func() error { return p.page(s, c, o, status, a, d, html, ch, msg) }
	return respond(c, status, ch, page)
}

// page is the HTML page: ch as the page lists it, and first as the island
// would fetch it, handed to the island so that it shows the same list at
// once instead of asking for it again (a list arriving later would move
// everything below it).
func (p *dayPage) page(s *Server, c *echo.Context, o order, status int, a *dayAnswers, d time.Time, ch, first views.DayChoices, msg string) error {
	from, to := p.window(s.now())
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
			Name: "date", Value: ch.Date, URL: url, Choice: a.choice,
		},
	}
	if first.Date != "" {
		v.Calendar.First = &first
	}
	if p.original != nil {
		v.Calendar.Original = p.original(o)
	}
	if p.pick != "" {
		v.Action.Submit, v.Calendar.Done = "", msgDone
	}
	pg := s.page(c, p.heading, "Перенос заказа в личном кабинете курорта.")
	pg.Nav, pg.Invalid, pg.Islands = views.NavOrders, len(a.errs) > 0, []string{views.CalendarIsland}
	return render(c, status, views.TransferPage(pg, v))
}
