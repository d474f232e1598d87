package handlers

import (
	"net/http"
	"strings"
	"time"

	ics "github.com/arran4/golang-ical"
	"github.com/labstack/echo/v5"

	"lk/gateway"
	"lk/views"
)

// 'Добавить в календарь': an active booking as an iCalendar file (RFC 5545)
// the phone's calendar imports, at /orders/{type}/{id}/calendar.ics.

const (
	calendarFile  = "calendar.ics"
	calendarLabel = "Добавить в календарь"
	resortName    = "Курорт" // as the header and the PDFs name it
)

// sequenceEpoch is where SEQUENCE counts from (see orderCalendar).
var sequenceEpoch = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// calEvent is what a booking puts in a calendar; its kind's builder fills it
// from what the order's page shows. Summary defaults to "{kind}: {title}".
type calEvent struct {
	Summary string
	Start   time.Time
	End     time.Time
	Place   string // after the resort's name: "Беседка №3"
	Notes   []string
}

// inCalendar tells whether o may go to a calendar: a booking still ahead
// (or under way), not cancelled, with a known start.
func (s *Server) inCalendar(o order) bool {
	if o.event.Start.IsZero() || o.ref.Canceled {
		return false
	}
	active, _ := gateway.SplitActiveHistory([]gateway.OrderRef{o.ref}, s.now())
	return len(active) == 1
}

// calendarAction is the button of an order that may go to a calendar: a
// plain link, not a download, so that a phone opens the file in its
// calendar (see orderCalendar).
func (s *Server) calendarAction(o order) (views.Action, bool) {
	if !s.inCalendar(o) {
		return views.Action{}, false
	}
	return views.Action{Name: "calendar", Label: calendarLabel, URL: o.url(calendarFile), Style: "btn-2"}, true
}

// orderCalendar is /orders/{type}/{id}/calendar.ics: after fetching the order
// with the session's client id (anyone else's is not found), one VEVENT.
//
// UID is "{kind}-{id}@lk" of the booking's first id: the same order gives
// the same event, so importing the file again after a move updates the
// event. A water-park or hotel move keeps the order's id; a lesson or a
// rent moved gets a new id from the provider, and Moves keeps the first
// one along any chain of moves.
//
// SEQUENCE is the minutes from 2024 to the file's DTSTAMP: it never
// decreases, needs no state shared between instances, and a file fetched
// after a move always outranks the one fetched before it, which is what a
// calendar checks before it replaces an event of the same UID. Fetching
// an unchanged booking again raises it too, harmlessly: same content.
func (s *Server) orderCalendar(c *echo.Context) error {
	k, id, err := orderParams(c)
	if err != nil {
		return err
	}
	o, err := s.ownOrder(c.Request().Context(), session(c), k, id)
	if err != nil {
		return err
	}
	if !s.inCalendar(o) {
		return &httpError{http.StatusConflict, calendarLabel, msgNoCalendar}
	}
	first, err := s.firstID(c.Request().Context(), k, o.id)
	if err != nil { // a second event in the customer's calendar is worse than a wait
		s.log.Warn("moves store", "err", err)
		return errStoreDown
	}
	page := s.absolute(o.url())
	body := s.calendar(o, movedKey(k, first)+"@lk", page).Serialize(ics.WithNewLineWindows)
	name := string(k.info().id) + "-" + o.id + ".ics" // id is checked by validID
	// inline: iPhones offer to add a text/calendar they open to the
	// calendar, but save an attachment to Files; browsers that cannot show
	// it save it under this name.
	c.Response().Header().Set(echo.HeaderContentDisposition, `inline; filename="`+name+`"`)
	return c.Blob(http.StatusOK, "text/calendar; charset=utf-8", []byte(body))
}

// calendar is o as an iCalendar object with one event; times in UTC, so no
// VTIMEZONE is needed and every calendar shows them in its own zone.
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
	ev.SetSummary(e.Summary)
	ev.SetStartAt(e.Start)
	if e.End.After(e.Start) {
		ev.SetEndAt(e.End)
	}
	ev.SetLocation(place)
	ev.SetURL(page)
	ev.SetDescription(strings.Join(append(e.Notes, "Заказ в личном кабинете: "+page), "\n"))
	return cal
}
