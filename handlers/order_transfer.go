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
	"lk/views"
)

// orderTransferForm is GET …/transfer: the kind's page of days, lessons,
// sessions or hours to move the order to.
func (s *Server) orderTransferForm(c *echo.Context) error {
	o, err := s.guard(c, actTransfer)
	if err != nil {
		return err
	}
	return o.kind.transfer.page(s, c, o)
}

// orderTransfer is POST …/transfer: the kind's move, once per token.
func (s *Server) orderTransfer(c *echo.Context) error {
	o, err := s.guard(c, actTransfer)
	if err != nil {
		return err
	}
	return o.kind.transfer.submit(s, c, o)
}

// Texts of transfers (SPEC §8, and ours for the rules of §5).
const (
	msgLessonMoved     = "Перенос выполнен успешно"
	msgLessonMoveFail  = "Не удалось перенести запись"
	msgNoLessons       = "Нет доступных занятий"
	msgAquaMoved       = "Вы успешно перенесли билеты на другую дату"
	msgAquaFailed      = "Ошибка при оформлении переноса"
	msgNoSessions      = "На эту дату нет подходящих сеансов"
	msgHotelMoved      = "Перенос бронирования выполнен успешно."
	msgHotelDates      = "Ошибка при получении доступных дат"
	msgHotelRegister   = "Ошибка при регистрации переноса номера"
	msgHotelMoveFailed = "Ошибка при переносе бронирования"
	msgChooseDay       = "Выберите дату."
	msgBadDay          = "Введите дату в формате ДД.ММ.ГГГГ, например 21.11.2026."
	msgTimetable       = "Не удалось загрузить расписание. Попробуйте позже."
	msgNotOffered      = "Этого варианта нет в списке на выбранную дату: выберите другой."
)

// formDay reads a day a customer chose (ГГГГ-ММ-ДД or ДД.ММ.ГГГГ) and checks
// it against the window from..to; msg says what is wrong, "" when nothing.
func (s *Server) formDay(raw string, from, to time.Time) (time.Time, string) {
	if strings.TrimSpace(raw) == "" {
		return time.Time{}, msgChooseDay
	}
	d, err := gateway.ParseDay(raw, s.loc)
	if err != nil {
		return time.Time{}, msgBadDay
	}
	if err := gateway.CheckWindow(d, from, to); err != nil {
		return d, err.Error()
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

// option is a lesson or session a day offers: how the page shows it, why it
// cannot be chosen (nil when it can), and the provider's own record.
type option struct {
	choice views.TransferChoice
	why    error
	wire   any
}

// dayMove is what differs between the day-and-choice transfers (lessons,
// water park): the window, the kind's own rule on the day, the day's
// options, and the move itself.
type dayMove struct {
	heading, lead, button, show, legend, choose, empty, fetchFailed string
	field                                                           string // "lessonId", "sessionId"
	window                                                          func(now time.Time) (from, to time.Time)
	// day checks a day in the window against the kind's own rule (the
	// water park's weekday class); nil when there is none.
	day func(s *Server, o order, d time.Time) error
	// first is the day the page opens on.
	first   func(s *Server, o order) time.Time
	options func(ctx context.Context, s *Server, o order, d time.Time) ([]option, error)
	// move makes the provider call; it returns where the customer goes on.
	move func(ctx context.Context, s *Server, sess *Session, o order, d time.Time, chosen option) (string, error)
	// refused and unreachable are SPEC §8's texts of a failed move.
	refused, unreachable, done string
	// original is the order's day the island's calendar needs ("" if none).
	original func(o order) string
}

// transfer is the kind's …/transfer made of m.
func (m *dayMove) transfer() *transfer {
	return &transfer{page: m.page, submit: m.submit}
}

// dayAnswers are the answers of a day transfer.
type dayAnswers struct {
	date, choice string
	errs         views.Errors
}

// checkDay is formDay and the kind's own rule.
func (m *dayMove) checkDay(s *Server, o order, raw string) (time.Time, string) {
	from, to := m.window(s.now())
	d, msg := s.formDay(raw, from, to)
	if msg == "" && m.day != nil {
		if err := m.day(s, o, d); err != nil {
			msg = err.Error()
		}
	}
	return d, msg
}

// page is GET …/transfer: the day asked for (or the first) and its options;
// the calendar island asks for the same URL as JSON.
func (m *dayMove) page(s *Server, c *echo.Context, o order) error {
	a := dayAnswers{date: c.QueryParam("date")}
	if a.date == "" {
		a.date = iso(m.first(s, o))
	}
	return m.render(s, c, o, http.StatusOK, a, "")
}

// submit is POST …/transfer: the rules first (422 without a provider call
// to move), then the move, once per token.
func (m *dayMove) submit(s *Server, c *echo.Context, o order) error {
	a := dayAnswers{date: c.FormValue("date"), choice: strings.TrimSpace(c.FormValue(m.field))}
	d, msg := m.checkDay(s, o, a.date)
	if msg != "" {
		a.errs.Add("date", msg)
	}
	if a.choice == "" {
		a.errs.Add(m.field, m.choose)
	}
	if len(a.errs) > 0 {
		return m.render(s, c, o, http.StatusUnprocessableEntity, a, "")
	}
	opts, err := m.options(c.Request().Context(), s, o, d)
	if err != nil {
		status, msg := explain(err, m.fetchFailed, m.fetchFailed)
		return m.render(s, c, o, status, a, msg)
	}
	i := slices.IndexFunc(opts, func(op option) bool { return op.choice.Value == a.choice })
	switch {
	case i < 0:
		a.errs.Add(m.field, msgNotOffered)
	case opts[i].why != nil:
		a.errs.Add(m.field, opts[i].why.Error())
	}
	if len(a.errs) > 0 {
		return m.render(s, c, o, http.StatusUnprocessableEntity, a, "")
	}
	out, err := s.onlyOnce(c, o, actTransfer, func(ctx context.Context) Outcome {
		next, err := m.move(ctx, s, session(c), o, d, opts[i])
		if err != nil {
			return s.failed(o, actTransfer, err, m.refused, m.unreachable)
		}
		return Outcome{Status: http.StatusSeeOther, Location: next, Message: m.done}
	})
	if err != nil {
		return err
	}
	return s.finish(c, o, actTransfer, out, func(status int, msg string) error {
		return m.render(s, c, o, status, a, msg)
	})
}

// render shows the page (or, for the island, the day's choices as JSON)
// with the answers a, the rule errors in a.errs and a failure msg.
func (m *dayMove) render(s *Server, c *echo.Context, o order, status int, a dayAnswers, msg string) error {
	from, to := m.window(s.now())
	d, dayMsg := m.checkDay(s, o, a.date)
	ch := views.DayChoices{Field: m.field, Empty: m.empty, Date: iso(d)}
	if dayMsg != "" {
		if a.errs.For("date") == "" {
			a.errs.Add("date", dayMsg)
			status = http.StatusUnprocessableEntity
		}
		ch.Date = ""
	} else {
		ch.Legend = m.legend + " " + views.Date(d)
		opts, err := m.options(c.Request().Context(), s, o, d)
		if err != nil {
			st, text := explain(err, m.fetchFailed, m.fetchFailed)
			ch.Error, status = text, max(status, st)
		}
		for _, op := range opts {
			if op.why == nil {
				op.choice.Checked = op.choice.Value == a.choice
				ch.Choices = append(ch.Choices, op.choice)
			}
		}
	}
	if wantsJSON(c) {
		ch.Error = cmp.Or(a.errs.For("date"), ch.Error)
		if ch.Choices == nil {
			ch.Choices = []views.TransferChoice{}
		}
		return c.JSON(status, ch)
	}
	url := views.OrderPath(string(o.kind.id), o.id, string(actTransfer))
	day := views.DayField{Name: "date", Label: "Дата", Value: cmp.Or(iso(d), a.date), Min: iso(from), Max: iso(to),
		Hint: "С " + views.Date(from) + " по " + views.Date(to)}
	v := views.TransferView{
		Action: views.ActionView{
			Order: o.card, Heading: m.heading, Lead: m.lead, URL: url, Token: s.token(c, o, actTransfer),
			Submit: m.button, Error: msg, Errors: a.errs,
		},
		Day: day, Show: m.show, Choices: ch,
		Calendar: views.CalendarProps{
			Mode: "day", Min: day.Min, Max: day.Max, DayForm: "#transfer-day", Label: day.Label,
			Name: "date", Value: ch.Date, URL: url, Choice: a.choice,
		},
	}
	if m.original != nil {
		v.Calendar.Original = m.original(o)
	}
	p := s.page(c, m.heading, "Перенос заказа в личном кабинете курорта.")
	p.Nav, p.Invalid, p.Islands = views.NavOrders, len(a.errs) > 0, []string{views.CalendarIsland}
	return render(c, status, views.TransferPage(p, v))
}
