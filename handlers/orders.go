package handlers

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v5"

	"lk/gateway"
	"lk/views"
)

// Texts of the order pages (SPEC §2, §8).
const (
	msgOrdersFailed  = "Не удалось загрузить заказы. Попробуйте позже."
	msgHotelFailed   = "Ошибка при получении информации о заказах в отеле"
	msgOrderFailed   = "Не удалось загрузить заказ. Попробуйте позже."
	msgConfirmFailed = "Не удалось подтвердить запись"
	msgConfirmed     = "Запись подтверждена"
	msgPayOnSite     = "Оплата на сайте"
)

// kindLabels name the order kinds for customers.
var kindLabels = map[gateway.Kind]string{
	gateway.KindLesson:   "Занятие с инструктором",
	gateway.KindPavilion: "Аренда беседки",
	gateway.KindAqua:     "Аквапарк",
	gateway.KindHotel:    "Отель",
	gateway.KindRoom:     "Аренда зала",
}

// orderSet is the customer's orders of every kind and the kinds that failed.
type orderSet struct {
	lessons   []gateway.LessonOrder
	pavilions []gateway.PavilionOrder
	rooms     []gateway.RoomOrder
	aqua      []gateway.AquaOrder
	hotel     []gateway.HotelOrder
	failed    map[gateway.Kind]error
}

// fetchOrders asks for the five kinds at once (DESIGN "Budgets": the list
// needs five answers, so they are fetched in parallel). A kind that fails
// does not stop the others: the page shows what did load.
func (s *Server) fetchOrders(ctx context.Context, guid string) orderSet {
	var (
		set                          orderSet
		errL, errP, errR, errA, errH error
		aquaActive, aquaHist         []gateway.AquaOrder
		hotelActive, hotelHist       []gateway.HotelOrder
		wg                           sync.WaitGroup
	)
	wg.Go(func() { set.lessons, errL = s.gw.LessonOrders(ctx, guid) })
	wg.Go(func() { set.pavilions, errP = s.gw.PavilionOrders(ctx, guid) })
	wg.Go(func() { aquaActive, aquaHist, errA = s.gw.AquaOrders(ctx, guid) })
	wg.Go(func() { hotelActive, hotelHist, errH = s.gw.HotelOrders(ctx, guid) })
	wg.Go(func() { set.rooms, errR = s.gw.RoomOrders(ctx, guid) })
	wg.Wait()
	set.aqua = append(aquaActive, aquaHist...)
	set.hotel = append(hotelActive, hotelHist...)
	set.failed = map[gateway.Kind]error{}
	for k, err := range map[gateway.Kind]error{
		gateway.KindLesson: errL, gateway.KindPavilion: errP, gateway.KindAqua: errA,
		gateway.KindHotel: errH, gateway.KindRoom: errR,
	} {
		if err != nil {
			set.failed[k] = err
			s.log.Warn("orders not loaded", "kind", k, "err", err)
		}
	}
	return set
}

// problems says, kind by kind in page order, what failed: the provider's
// own message when it gave one, else SPEC §8's text where it has one.
func (set orderSet) problems() []string {
	var out []string
	for _, k := range gateway.Kinds() {
		err, ok := set.failed[k]
		if !ok {
			continue
		}
		msg := gateway.Message(err)
		switch {
		case k == gateway.KindHotel:
			if msg == "" {
				msg = msgHotelFailed
			} else {
				msg = msgHotelFailed + ": " + msg
			}
		case msg == "":
			msg = "не загрузились"
		}
		out = append(out, kindLabels[k]+" — "+msg)
	}
	return out
}

// split sorts every loaded order into active (soonest first) and history
// (latest first) with the one rule of gateway.SplitActiveHistory. Only
// active lessons offer 'Подтвердить запись'.
func (s *Server) split(set orderSet) (active, history []views.OrderCard) {
	var refs []gateway.OrderRef
	var cards []views.OrderCard
	add := func(r gateway.OrderRef, c views.OrderCard) {
		r.ID = strconv.Itoa(len(cards)) // the position, to find the card again
		refs = append(refs, r)
		cards = append(cards, c)
	}
	for _, o := range set.lessons {
		add(o.Ref(s.loc), s.lessonCard(o))
	}
	for _, o := range set.pavilions {
		add(o.Ref(s.loc), s.rentCard(gateway.KindPavilion, o.RentID(), o.PavilionName, o.HourBeg, o.HourEnd, o.Amount))
	}
	for _, o := range set.aqua {
		add(o.Ref(s.loc), s.aquaCard(o))
	}
	for _, o := range set.hotel {
		add(o.Ref(s.loc), s.hotelCard(o))
	}
	for _, o := range set.rooms {
		add(o.Ref(s.loc), s.rentCard(gateway.KindRoom, o.RentID(), o.RoomName, o.HourBeg, o.HourEnd, o.Amount))
	}
	a, h := gateway.SplitActiveHistory(refs, s.now())
	for _, r := range a {
		i, _ := strconv.Atoi(r.ID)
		active = append(active, cards[i])
	}
	for _, r := range h {
		i, _ := strconv.Atoi(r.ID)
		c := cards[i]
		c.ConfirmURL = ""
		history = append(history, c)
	}
	return active, history
}

// orders is /orders: 'Активные заказы' and 'История заказов'.
func (s *Server) orders(c *echo.Context) error {
	set := s.fetchOrders(c.Request().Context(), session(c).GUID)
	active, history := s.split(set)
	p := s.page(c, "Заказы", "Ваши заказы: активные и история.")
	p.Nav = views.NavOrders
	status := http.StatusOK
	if len(set.failed) == len(gateway.Kinds()) {
		status = http.StatusServiceUnavailable
	}
	return render(c, status, views.OrdersPage(p, views.Orders{
		Active: active, History: history, Failed: len(set.failed) > 0, Problems: set.problems(),
	}))
}

// ---- view models of every kind ----

func (s *Server) when(raw string) time.Time {
	t, _ := gateway.ParseDateTime(raw, s.loc)
	return t
}

// span is "12:00–15:00".
func span(from, to time.Time) string {
	return views.Clock(from) + "–" + views.Clock(to)
}

func total(v float64) views.KV { return views.KV{Key: "Итого", Value: views.Money(v)} }

func status(canceled, paid bool) views.KV {
	class := "badge-err"
	if paid && !canceled {
		class = "badge-ok"
	}
	return views.KV{Key: "Статус", Value: gateway.StatusLabel(canceled, paid), Class: class}
}

func lessonTitle(o gateway.LessonOrder) string {
	if o.KindOfSport == "" {
		return "Занятие № " + o.DocID
	}
	return o.KindOfSport
}

func (s *Server) lessonCard(o gateway.LessonOrder) views.OrderCard {
	c := views.OrderCard{
		Kind: string(gateway.KindLesson), KindLabel: kindLabels[gateway.KindLesson], ID: o.DocID,
		Title: lessonTitle(o), URL: views.OrderPath(string(gateway.KindLesson), o.DocID),
		Lines: []views.KV{
			{Key: "Занятие", Value: o.ExerciseSort},
			{Key: "Дата и время", Value: views.DateTime(s.when(o.DateBeg))},
			{Key: "Инструктор", Value: o.TrainerName},
			total(o.Cost),
		},
	}
	if o.CanConfirm {
		c.ConfirmURL = views.OrderPath(string(gateway.KindLesson), o.DocID, "confirm")
	}
	return c
}

func (s *Server) rentCard(kind gateway.Kind, id, name, beg, end string, amount float64) views.OrderCard {
	from, to := s.when(beg), s.when(end)
	return views.OrderCard{
		Kind: string(kind), KindLabel: kindLabels[kind], ID: id, Title: name,
		URL: views.OrderPath(string(kind), id),
		Lines: []views.KV{
			{Key: "Дата", Value: views.Date(from)},
			{Key: "Время аренды", Value: span(from, to)},
			total(amount),
		},
	}
}

func (s *Server) aquaCard(o gateway.AquaOrder) views.OrderCard {
	return views.OrderCard{
		Kind: string(gateway.KindAqua), KindLabel: kindLabels[gateway.KindAqua], ID: o.OrderID,
		Title: "Заказ № " + o.OrderID, URL: views.OrderPath(string(gateway.KindAqua), o.OrderID),
		Lines: []views.KV{
			{Key: "Дата", Value: views.Date(s.when(o.DateBeg))},
			{Key: "Время посещения", Value: visitTime(o, s.when(o.DateBeg))},
			{Key: "Билетов", Value: strconv.Itoa(len(o.Tickets))},
			status(o.Canceled, o.Paid),
			total(o.Amount),
		},
	}
}

// visitTime is the session of the tickets ("Дневной 10:00–16:00"), or the
// visit's start when the tickets do not name one.
func visitTime(o gateway.AquaOrder, start time.Time) string {
	for _, t := range o.Tickets {
		if t.Session != "" {
			return t.Session
		}
	}
	return views.Clock(start)
}

func (s *Server) hotelCard(o gateway.HotelOrder) views.OrderCard {
	return views.OrderCard{
		Kind: string(gateway.KindHotel), KindLabel: kindLabels[gateway.KindHotel], ID: o.OrderID,
		Title: "Заказ № " + o.OrderID, URL: views.OrderPath(string(gateway.KindHotel), o.OrderID),
		Lines: []views.KV{
			{Key: "Период проживания", Value: views.Date(s.when(o.HourBeg)) + " — " + views.Date(s.when(o.HourEnd))},
			status(o.Canceled, o.Paid),
			total(o.Amount),
		},
	}
}

// ---- one order ----

// orderFailure is how a failed fetch of one order reads: 404 when the
// provider says there is no such order for this customer (another
// customer's order included), else its message or SPEC §8's with 502/503.
func orderFailure(kind gateway.Kind, err error) (status int, msg string) {
	var pe *gateway.ProviderError
	switch {
	case errors.Is(err, gateway.ErrNotFound):
		return http.StatusNotFound, ""
	case errors.As(err, &pe) && pe.Status < 500:
		// success:false on a fetch by the customer's own id: the order is
		// not theirs or not there. Either way, nothing to show.
		return http.StatusNotFound, ""
	}
	status = http.StatusBadGateway
	if errors.Is(err, gateway.ErrUnavailable) {
		status = http.StatusServiceUnavailable
	}
	msg = gateway.Message(err)
	if msg == "" {
		msg = msgOrderFailed
		if kind == gateway.KindHotel {
			msg = msgHotelFailed
		}
	}
	return status, msg
}

// fetchError is orderFailure as an error for the error page.
func fetchError(kind gateway.Kind, err error) error {
	status, msg := orderFailure(kind, err)
	if status == http.StatusNotFound {
		return errNotFound
	}
	return &httpError{status, "Заказ недоступен", msg}
}

// validID keeps ids to what the provider issues, so that they are safe in a
// file name and a header.
func validID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	return strings.IndexFunc(id, func(r rune) bool {
		return !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '-' || r == '_' || r == '.')
	}) < 0
}
