package handlers

import (
	"cmp"
	"context"
	"strconv"
	"time"

	"github.com/labstack/echo/v5"

	"lk/gateway"
	"lk/handlers/web"
	"lk/views"
	"lk/wallet"
)

var errLessonStarted error = textError(msgLessonStarted)

// The provider gives only a lesson's start; lessons are booked by the hour.
const lessonLength = time.Hour

type lessonKind struct{ p lessonProvider }

var lessonInfo = &kindInfo{
	id: gateway.KindLesson, label: "Занятие с инструктором",
	actions: []action{actConfirm, actTransfer, actCancel}, renumbers: true,
	pass:        &passInfo{file: "lesson.pkpass"},
	labels:      map[action]string{actTransfer: "Перенести запись", actCancel: "Отменить запись"},
	moveIslands: []string{views.CalendarIsland},
}

func (lessonKind) info() *kindInfo { return lessonInfo }

func (k lessonKind) list(ctx context.Context, s *Server, guid string) ([]order, error) {
	l, err := k.p.LessonOrders(ctx, guid)
	return build(l, err, s.lessonOrder)
}

func (k lessonKind) one(ctx context.Context, s *Server, guid, id string) (order, error) {
	o, err := k.p.LessonOrder(ctx, guid, id)
	return buildOne(o, err, s.lessonOrder)
}

func (k lessonKind) confirm(ctx context.Context, s *Server, sess *web.Session, o order) error {
	return k.p.ConfirmLesson(ctx, sess.GUID, o.id)
}

func (k lessonKind) cancel(ctx context.Context, s *Server, sess *web.Session, o order) (string, error) {
	l := o.wire.(gateway.LessonOrder)
	err := k.p.CancelLesson(ctx, gateway.CancelLessonRequest{ClientID: sess.GUID, LessonID: l.DocID, Sum: l.Cost})
	return withMoneyBack(msgLessonCanceled, o), err
}

func (s *Server) lessonOrder(o gateway.LessonOrder) order {
	id, title := o.DocID, o.KindOfSport
	if title == "" {
		title = "Занятие № " + o.DocID
	}
	start := s.providerTime(o.DateBeg)
	lines := []views.KV{
		{Key: "Занятие", Value: o.ExerciseSort},
		{Key: "Дата и время", Value: views.DateTime(start)},
		{Key: "Инструктор", Value: o.TrainerName},
		totalLine(o.Cost),
	}
	return order{
		id: id, ref: o.Ref(s.loc), amount: o.Cost, paid: o.Cost > 0, wire: o,
		card: newCard(title, views.DateTime(start), views.KV{}, o.Cost, lines),
		detail: detail(title, append([]views.KV{
			{Key: "Дата оформления", Value: views.DateTime(s.providerTime(o.RegDate))},
			lines[0], lines[1], lines[2],
			{Key: "Способ оплаты", Value: msgPayOnSite},
		}, lines[3])),
		can: map[action]bool{actConfirm: o.CanConfirm, actTransfer: o.CanTransfer, actCancel: o.CanCancel},
		event: calEvent{
			Start: start, End: start.Add(lessonLength), Place: "горнолыжный комплекс",
			Notes: []string{"Занятие: " + o.ExerciseSort, "Инструктор: " + o.TrainerName},
		},
	}
}

func (lessonKind) ready(order) (int, error) { return 1, nil }

// A lesson has no code to scan: its pass has none. Its serial is the
// booking's first id, so a pass added again after a move replaces the old.
func (k lessonKind) passes(ctx context.Context, s *Server, o order) ([]wallet.Pass, error) {
	l := o.wire.(gateway.LessonOrder)
	first, err := s.firstID(ctx, k, o.id)
	if err != nil {
		s.log.Warn("moves store", "err", err)
		return nil, web.ErrStoreDown
	}
	start := s.providerTime(l.DateBeg)
	sport := cmp.Or(l.KindOfSport, "Занятие № "+l.DocID)
	return []wallet.Pass{{
		Serial: "glk-" + first, Style: wallet.EventTicket,
		Description: "Занятие с инструктором: " + sport + ", " + views.DateTime(start),
		Header:      []wallet.Field{{Key: "date", Label: "Дата", Value: views.Date(start)}},
		Primary:     []wallet.Field{{Key: "sport", Label: "Занятие с инструктором", Value: sport}},
		Secondary:   []wallet.Field{{Key: "time", Label: "Время", Value: views.Clock(start)}, {Key: "trainer", Label: "Инструктор", Value: l.TrainerName}},
		Auxiliary:   []wallet.Field{{Key: "exercise", Label: "Занятие", Value: l.ExerciseSort}, {Key: "meet", Label: "Место встречи", Value: cmp.Or(s.passes.MeetingPoint, o.event.Place)}},
		Back:        []wallet.Field{{Key: "order", Label: "Запись", Value: "№ " + l.DocID}},
	}}, nil
}

// A lesson moves to one of a day's lessons, up to a month ahead, of the
// booking's instructor, sport and age group with a free place.

var lessonDays = &dayWording{
	heading: "Перенести запись", lead: "Выберите день и занятие, на которое перенести запись.",
	button: "Перенести запись", show: "Показать занятия", legend: "Занятия на",
	choose: "Выберите занятие.", empty: msgNoLessons, fetchFailed: msgTimetable,
	field: "lessonId", pick: "Выбрать",
	moveTexts: moveTexts{refused: msgLessonMoveFail, unreachable: web.MsgRequestFailed, done: msgMoved},
}

func (k lessonKind) movePage(s *Server, c *echo.Context, o order) error { return showDays(s, c, o, k) }
func (k lessonKind) moveForm(s *Server, c *echo.Context) actionForm     { return readDayMove(s, c, k) }
func (lessonKind) wording() *dayWording                                 { return lessonDays }
func (lessonKind) window(now time.Time) (time.Time, time.Time)          { return gateway.TransferWindow(now) }
func (lessonKind) dayRule(*Server, order, time.Time) error              { return nil }
func (lessonKind) original(order) string                                { return "" }

func (lessonKind) firstDay(s *Server, o order) time.Time {
	from, to := gateway.TransferWindow(s.now())
	if d := o.ref.Start; gateway.InWindow(d, from, to) {
		return d
	}
	return from
}

func (k lessonKind) options(ctx context.Context, s *Server, o order, d time.Time) ([]option, error) {
	l := o.wire.(gateway.LessonOrder)
	list, err := k.p.Timetable(ctx, gateway.TimetableQuery{TrainerID: l.TrainerID, Date: d, Age: l.AgeGroupHigh, Amount: 1})
	if err != nil {
		return nil, err
	}
	out := make([]option, 0, len(list))
	now := s.now()
	for _, x := range gateway.TransferLessons(l, list) {
		var why error
		if t := s.providerTime(x.DateBeg); !t.IsZero() && !t.After(now) { // today's that has begun
			why = errLessonStarted
		}
		out = append(out, s.lessonOption(x, why))
	}
	// The rest are there so that a posted one is refused with its reason.
	for _, x := range list {
		if err := gateway.CheckLesson(l, x); err != nil {
			out = append(out, s.lessonOption(x, err))
		}
	}
	return out, nil
}

func (k lessonKind) change(ctx context.Context, s *Server, sess *web.Session, o order, a *dayAnswers) (string, string, error) {
	l, to := o.wire.(gateway.LessonOrder), a.chosen.wire.(gateway.Lesson)
	newID, err := k.p.ChangeLesson(ctx, gateway.ChangeLessonRequest{
		ClientID: sess.GUID, LessonID: l.DocID, NewLessonID: to.LessonID, Amount: l.Cost,
		NewLessonDate: gateway.FormatDateTime(s.providerTime(to.DateBeg), s.loc), AgeGroupCode: l.AgeGroupHigh, ChildrenID: l.ChildID,
	})
	if err != nil || newID == "" { // the provider did not say where the booking went
		return views.PathOrders, "", err
	}
	s.movedTo(ctx, sess.GUID, o, newID, s.providerTime(to.DateBeg))
	return views.OrderPath(string(lessonInfo.id), newID), "", nil
}

func (s *Server) lessonOption(l gateway.Lesson, why error) option {
	start := s.providerTime(l.DateBeg)
	lines := []string{l.TrainerName, l.ExerciseSort}
	if l.FreePlaces > 0 {
		lines = append(lines, "Свободных мест: "+strconv.Itoa(l.FreePlaces))
	}
	return option{
		choice: views.TransferChoice{Value: l.LessonID, Title: views.Clock(start) + " · " + l.KindOfSport, Lines: lines},
		why:    why, wire: l,
	}
}
