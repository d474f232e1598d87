package handlers

import (
	"net/http"
	"strings"
	"time"

	ics "github.com/arran4/golang-ical"
	"github.com/labstack/echo/v5"

	"lk/handlers/web"
	"lk/views"
)

var sequenceEpoch = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// UID is "{kind}-{id}@lk" of the booking's first id, so that importing the
// file again after a move updates the event. SEQUENCE is the minutes from
// 2024 to DTSTAMP: it never decreases and needs no shared state, so a file
// fetched after a move outranks the one before.
func (s *Server) orderCalendar(c *echo.Context) error {
	k, id, err := s.orderParams(c)
	if err != nil {
		return err
	}
	// The event added before a move links here with its old id.
	if moved, err := s.redirectMoved(c, k, id, calendarFile); moved {
		return err
	}
	o, err := s.ownOrder(c.Request().Context(), web.SessionOf(c), k, id)
	if err != nil {
		return err
	}
	if !s.inCalendar(o) {
		return backToOrder(k, id, &web.Error{Status: http.StatusConflict, Title: calendarLabel, Message: msgNoCalendar})
	}
	first, err := s.moves.firstID(c.Request().Context(), k, o.id)
	if err != nil { // a second event in the customer's calendar is worse than a wait
		s.log.WarnContext(c.Request().Context(), "moves store", "err", err)
		return web.ErrStoreDown
	}
	page := s.shell.absolute(o.url())
	body := s.calendar(o, movedKey(k, first)+"@lk", page).Serialize(ics.WithNewLineWindows)
	name := string(k.info().id) + "-" + o.id + ".ics" // id is checked by validID
	// inline: iPhones add a text/calendar they open, but save an attachment.
	c.Response().Header().Set(echo.HeaderContentDisposition, `inline; filename="`+name+`"`)
	return c.Blob(http.StatusOK, "text/calendar; charset=utf-8", []byte(body))
}

// Times in UTC, so no VTIMEZONE is needed.
func (s *Server) calendar(o order, uid, page string) *ics.Calendar {
	now := s.now()
	e := o.event
	if e.Summary == "" {
		e.Summary = o.kind.info().label + ": " + o.card.Title
	}
	place := resortName
	if e.Place != "" {
		place += ", " + e.Place
	}
	cal := ics.NewCalendar()
	cal.SetProductId("-//" + resortName + "//Личный кабинет//RU")
	cal.SetMethod(ics.MethodPublish)
	cal.SetCalscale("GREGORIAN")
	ev := cal.AddEvent(uid)
	ev.SetDtStampTime(now)
	ev.SetSequence(int(now.Sub(sequenceEpoch) / time.Minute))
	notes := append(e.Notes, "Заказ в личном кабинете: "+page)
	// An event of the demo, added to a real calendar or forwarded, must not
	// pass for a booking.
	if s.shell.site.Demo() {
		e.Summary = "(демо) " + e.Summary
		notes = append([]string{views.DemoNotice}, notes...)
	}
	ev.SetSummary(e.Summary)
	ev.SetStartAt(e.Start)
	if e.End.After(e.Start) {
		ev.SetEndAt(e.End)
	}
	ev.SetLocation(place)
	ev.SetURL(page)
	ev.SetDescription(strings.Join(notes, "\n"))
	return cal
}
