package handlers

import (
	"context"
	"strconv"
	"time"

	"lk/gateway"
	"lk/views"
)

// lessonTransfer moves a lesson booking to another lesson of the same sport
// (SPEC §4, §5): a day from today to one month ahead, that day's lessons of
// the booking's instructor (GLK/getTimetable) of the same sport and age
// group with a free place, the booking's own lesson hidden; then
// GLK/changeLessonPeriod, and the customer lands on the new booking.
var lessonTransfer = &dayMove{
	heading: "Перенести запись", lead: "Выберите день и занятие, на которое перенести запись.",
	button: "Перенести запись", show: "Показать занятия", legend: "Занятия на",
	choose: "Выберите занятие.", empty: msgNoLessons, fetchFailed: msgTimetable,
	field: "lessonId", window: gateway.TransferWindow,
	first: func(s *Server, o order) time.Time {
		from, to := gateway.TransferWindow(s.now())
		if d := o.ref.Start; gateway.InWindow(d, from, to) {
			return d
		}
		return from
	},
	options: func(ctx context.Context, s *Server, o order, d time.Time) ([]option, error) {
		l := o.wire.(gateway.LessonOrder)
		list, err := s.gw.Timetable(ctx, gateway.TimetableQuery{TrainerID: l.TrainerID, Date: d, Age: l.AgeGroupHigh, Amount: 1})
		if err != nil {
			return nil, err
		}
		out := make([]option, 0, len(list))
		for _, x := range gateway.TransferLessons(l, list) {
			out = append(out, s.lessonOption(x, nil))
		}
		// The rest are there so that a posted one is refused with its reason.
		for _, x := range list {
			if err := gateway.CheckLesson(l, x); err != nil {
				out = append(out, s.lessonOption(x, err))
			}
		}
		return out, nil
	},
	move: func(ctx context.Context, s *Server, sess *Session, o order, _ time.Time, chosen option) (string, error) {
		l, to := o.wire.(gateway.LessonOrder), chosen.wire.(gateway.Lesson)
		newID, err := s.gw.ChangeLesson(ctx, gateway.ChangeLessonRequest{
			ClientID: sess.GUID, LessonID: l.DocID, NewLessonID: to.LessonID, Amount: l.Cost,
			NewLessonDate: gateway.FormatDateTime(s.providerTime(to.DateBeg), s.loc), AgeGroupCode: l.AgeGroupHigh, ChildrenID: l.ChildID,
		})
		if err != nil {
			return "", err
		}
		if newID == "" {
			return views.PathOrders, nil // the provider did not say where the booking went
		}
		s.movedTo(ctx, o, newID, s.providerTime(to.DateBeg))
		return views.OrderPath(string(gateway.KindLesson), newID), nil
	},
	refused: msgLessonMoveFail, unreachable: msgServer, done: msgLessonMoved,
}

// lessonOption shows a lesson: its time, instructor, level and free places.
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
