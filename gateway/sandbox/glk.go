package sandbox

import (
	"context"
	"database/sql"
	"errors"
	"net/http"
	"strconv"
	"time"

	"lk/gateway"
)

// takeLesson takes n places of a lesson (n < 0 gives them back).
func (s *Sandbox) takeLesson(ctx context.Context, q querier, lessonID string, n int) error {
	if lessonID == "" {
		return nil
	}
	var l gateway.Lesson
	err := getRow(ctx, q, &l, `SELECT data FROM lessons WHERE id = ?`, lessonID)
	if errors.Is(err, errNotFound) {
		return nil // a past lesson
	}
	if err != nil {
		return err
	}
	l.FreePlaces = max(0, l.FreePlaces-n)
	_, err = q.ExecContext(ctx, `UPDATE lessons SET data = ? WHERE id = ?`, mustJSON(l), lessonID)
	return err
}

func lessonsAnswer(a gateway.Answer, list []gateway.LessonOrder) gateway.LessonsAnswer {
	if list == nil {
		list = []gateway.LessonOrder{}
	}
	return gateway.LessonsAnswer{Answer: a, Timetable: list}
}

// handleLessonOrders serves GLK/getTimetableForCurrentClient: the client's
// live bookings (canceled and moved-away ones are gone), or one with
// single=true&lessonId=<doc_ID>.
func (s *Sandbox) handleLessonOrders(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	client, id := q.Get("clientId"), q.Get("lessonId")
	if client == "" {
		writeJSON(w, http.StatusOK, lessonsAnswer(gateway.Answer{ErrorMessage: msgNoClient}, nil))
		return
	}
	if isTrue(q.Get("single")) || id != "" {
		var o gateway.LessonOrder
		m, err := getOrder(r.Context(), s.db, kindLesson, id, &o)
		if errors.Is(err, errNotFound) || err == nil && (m.Client != client || m.Canceled) {
			writeJSON(w, http.StatusOK, lessonsAnswer(gateway.Answer{ErrorMessage: msgNotFound}, nil))
			return
		}
		if err != nil {
			s.internal(w, r, err)
			return
		}
		writeJSON(w, http.StatusOK, lessonsAnswer(gateway.Answer{Success: true}, []gateway.LessonOrder{o}))
		return
	}
	list, err := listOrders[gateway.LessonOrder](r.Context(), s.db, kindLesson, client)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	var out []gateway.LessonOrder
	for _, o := range list {
		if !o.Meta.Canceled {
			out = append(out, o.Order)
		}
	}
	writeJSON(w, http.StatusOK, lessonsAnswer(gateway.Answer{Success: true}, out))
}

// handleLessonTimetable serves GLK/getTimetable: an instructor's lessons on
// a date (all remaining days of the window without a date), optionally only
// an age group (age = ageGroup_High, "ADULT" or "CHILD"; other values are
// ignored) and lessons with at least amount free
// places (amount read as a number of places when it is 1..50).
func (s *Sandbox) handleLessonTimetable(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	empty := gateway.TimetableAnswer{Timetable: []gateway.Lesson{}}
	tid := q.Get("trainerId")
	if _, found := trainerByID(tid); !found {
		empty.ErrorMessage = "Инструктор не найден"
		writeJSON(w, http.StatusOK, empty)
		return
	}
	var list []gateway.Lesson
	var err error
	if d := q.Get("date"); d != "" {
		day, okDay := s.parseAny(d)
		if !okDay {
			empty.ErrorMessage = "Некорректная дата"
			writeJSON(w, http.StatusOK, empty)
			return
		}
		list, err = getRows[gateway.Lesson](r.Context(), s.db, `SELECT data FROM lessons WHERE trainer = ? AND day = ? ORDER BY id`, tid, fmtDay(day))
	} else {
		list, err = getRows[gateway.Lesson](r.Context(), s.db, `SELECT data FROM lessons WHERE trainer = ? ORDER BY day, id`, tid)
	}
	if err != nil {
		s.internal(w, r, err)
		return
	}
	need := 0
	if n, err := strconv.Atoi(q.Get("amount")); err == nil && n >= 1 && n <= 50 {
		need = n
	}
	age := q.Get("age")
	if age != ageAdult && age != ageChild {
		age = "" // not one of our age-group codes: no filter
	}
	out := []gateway.Lesson{}
	for _, l := range list {
		if age != "" && l.AgeGroupHigh != age || need > 0 && l.FreePlaces < need {
			continue
		}
		out = append(out, l)
	}
	writeJSON(w, http.StatusOK, gateway.TimetableAnswer{Answer: gateway.Answer{Success: true}, Timetable: out})
}

// loadBooking loads a client's live booking; msg is set when there is none.
func loadBooking(ctx context.Context, q querier, client, docID string) (gateway.LessonOrder, orderMeta, string, error) {
	var o gateway.LessonOrder
	m, err := getOrder(ctx, q, kindLesson, docID, &o)
	if errors.Is(err, errNotFound) || err == nil && (m.Client != client || m.Canceled) {
		return o, m, msgNotFound, nil
	}
	return o, m, "", err
}

// bookingTx runs f in a transaction on the client's live booking; none is
// the refusal loadBooking names.
func (s *Sandbox) bookingTx(ctx context.Context, client, docID string, f func(tx *sql.Tx, m orderMeta, o gateway.LessonOrder) error) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		o, m, notFound, err := loadBooking(ctx, tx, client, docID)
		if err != nil {
			return err
		}
		if notFound != "" {
			return refusal(notFound)
		}
		return f(tx, m, o)
	})
}

func (s *Sandbox) handleConfirmLesson(w http.ResponseWriter, r *http.Request, in gateway.ConfirmLessonRequest) {
	err := s.bookingTx(r.Context(), in.ClientID, in.LessonID, func(tx *sql.Tx, m orderMeta, o gateway.LessonOrder) error {
		if !o.CanConfirm {
			return refusal("Подтверждение записи недоступно")
		}
		o.CanConfirm = false
		return putOrder(r.Context(), tx, m, o)
	})
	s.answerTx(w, r, err, gateway.Answer{Success: true, Message: "Запись подтверждена"})
}

func (s *Sandbox) handleCancelLesson(w http.ResponseWriter, r *http.Request, in gateway.CancelLessonRequest) {
	err := s.bookingTx(r.Context(), in.ClientID, in.LessonID, func(tx *sql.Tx, m orderMeta, o gateway.LessonOrder) error {
		if !o.CanCancel {
			return refusal("Отмена записи недоступна")
		}
		o.CanConfirm, o.CanTransfer, o.CanCancel = false, false, false
		m.Canceled = true
		if err := putOrder(r.Context(), tx, m, o); err != nil {
			return err
		}
		return s.takeLesson(r.Context(), tx, m.Ref, -1)
	})
	s.answerTx(w, r, err, gateway.Answer{Success: true, Message: "Запись отменена"})
}

// handleChangeLesson serves GLK/changeLessonPeriod: the booking moves to
// another lesson of the same kind of sport and age group with a free place;
// the new booking has a new doc_ID, the old one is gone.
func (s *Sandbox) handleChangeLesson(w http.ResponseWriter, r *http.Request, in gateway.ChangeLessonRequest) {
	var newID string
	ctx := r.Context()
	err := s.bookingTx(ctx, in.ClientID, in.LessonID, func(tx *sql.Tx, m orderMeta, o gateway.LessonOrder) error {
		if !o.CanTransfer {
			return refusal("Перенос записи недоступен")
		}
		var l gateway.Lesson
		err := getRow(ctx, tx, &l, `SELECT data FROM lessons WHERE id = ?`, in.NewLessonID)
		if errors.Is(err, errNotFound) {
			return refusal("Занятие не найдено")
		}
		if err != nil {
			return err
		}
		start := s.parseDT(l.DateBeg)
		var msg string
		switch {
		case l.LessonID == m.Ref:
			msg = "Вы уже записаны на это занятие"
		case l.KindOfSport != o.KindOfSport:
			msg = "Перенос возможен только на занятие того же вида спорта"
		case l.AgeGroupHigh != o.AgeGroupHigh:
			msg = "Занятие предназначено для другой возрастной группы"
		case !start.After(s.nowLocal()):
			msg = "Занятие уже началось"
		case l.FreePlaces < 1:
			msg = "На занятии нет свободных мест"
		}
		if msg != "" {
			return refusal(msg)
		}
		if d, ok := s.parseAny(in.NewLessonDate); ok && in.NewLessonDate != "" && !d.Equal(start) && !d.Equal(dayOf(start)) {
			return refusal("Дата занятия не совпадает с расписанием")
		}
		if err := s.takeLesson(ctx, tx, m.Ref, -1); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM orders WHERE kind = ? AND id = ?`, kindLesson, o.DocID); err != nil {
			return err
		}
		if newID, err = nextID(ctx, tx); err != nil {
			return err
		}
		child := o.ChildID
		if in.ChildrenID != "" {
			child = in.ChildrenID
		}
		n := gateway.LessonOrder{
			DocID: newID, ClientID: o.ClientID, TrainerID: l.TrainerID, TrainerName: l.TrainerName,
			ExerciseSort: l.ExerciseSort, KindOfSport: l.KindOfSport, DateBeg: l.DateBeg, RegDate: fmtDT(s.nowLocal()),
			Cost: o.Cost, AgeGroupHigh: l.AgeGroupHigh, ChildID: child,
			CanConfirm: true, CanTransfer: true, CanCancel: o.CanCancel,
		}
		nm := orderMeta{Kind: kindLesson, ID: newID, Client: m.Client, Start: fmtISO(start), End: fmtISO(start.Add(90 * time.Minute)), Ref: l.LessonID}
		if err := putOrder(ctx, tx, nm, n); err != nil {
			return err
		}
		return s.takeLesson(ctx, tx, l.LessonID, 1)
	})
	// A refusal keeps this call's answer type rather than answerTx's bare one.
	var ref refusal
	if errors.As(err, &ref) {
		writeJSON(w, http.StatusOK, gateway.ChangeLessonAnswer{Answer: gateway.Answer{ErrorMessage: string(ref)}})
		return
	}
	s.answerTx(w, r, err, gateway.ChangeLessonAnswer{Answer: gateway.Answer{Success: true, Message: "Перенос выполнен успешно"}, NewLessonID: newID})
}
