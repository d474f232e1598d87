package handlers

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"

	"github.com/labstack/echo/v5"

	"lk/gateway"
	"lk/views"
)

// routeOrder is the detail page of an order; its actions and documents hang
// under it (DESIGN "Orders and ownership").
const routeOrder = "/orders/:type/:id"

// Why a document cannot be opened.
const (
	msgDocTitle      = "Документ недоступен"
	msgDocCanceled   = "Заказ отменён, поэтому документ недоступен."
	msgDocUnpaid     = "Билет будет доступен после оплаты всех билетов заказа."
	msgDocFailed     = "Не удалось получить документ. Попробуйте позже."
	msgCannotConfirm = "Эту запись уже подтвердили или её нельзя подтвердить."
)

// shown is one order of the signed-in customer as its page shows it.
type shown struct {
	detail  views.OrderDetail
	refusal string // why the ticket or voucher may not be opened; "" when it may
}

// loadOrder fetches one order with the session's own client id (never an id
// from the request: a stranger's order is simply not found) and builds its
// page.
func (s *Server) loadOrder(ctx context.Context, guid string, kind gateway.Kind, id string) (shown, error) {
	var out shown
	switch kind {
	case gateway.KindLesson:
		o, err := s.gw.LessonOrder(ctx, guid, id)
		if err != nil {
			return out, err
		}
		out.detail = s.lessonDetail(o)
	case gateway.KindPavilion:
		o, err := s.gw.PavilionOrder(ctx, guid, id)
		if err != nil {
			return out, err
		}
		out.detail = s.rentDetail(kind, id, o.PavilionName, o.HourBeg, o.HourEnd, o.Amount)
	case gateway.KindRoom:
		o, err := s.gw.RoomOrder(ctx, guid, id)
		if err != nil {
			return out, err
		}
		out.detail = s.rentDetail(kind, id, o.RoomName, o.HourBeg, o.HourEnd, o.Amount)
	case gateway.KindAqua:
		o, err := s.gw.AquaOrder(ctx, guid, id)
		if err != nil {
			return out, err
		}
		out.detail = s.aquaDetail(o)
		switch {
		case o.Canceled:
			out.refusal = msgDocCanceled
		case !gateway.CanShowDocument(o.Canceled, o.Tickets):
			out.refusal = msgDocUnpaid
		default:
			out.detail.DocumentURL = views.OrderPath(string(kind), id, "ticket.pdf")
			out.detail.DocumentLabel = "Мой билет"
		}
	case gateway.KindHotel:
		o, err := s.gw.HotelOrder(ctx, guid, id)
		if err != nil {
			return out, err
		}
		out.detail = s.hotelDetail(o)
		if gateway.CanShowDocument(o.Canceled, nil) {
			out.detail.DocumentURL = views.OrderPath(string(kind), id, "voucher.pdf")
			out.detail.DocumentLabel = "Мой ваучер"
		} else {
			out.refusal = msgDocCanceled
		}
	default:
		return out, gateway.ErrNotFound
	}
	return out, nil
}

// orderParams reads and checks the type and id of an order URL.
func orderParams(c *echo.Context) (gateway.Kind, string, error) {
	kind, ok := gateway.ParseKind(c.Param("type"))
	id := c.Param("id")
	if !ok || !validID(id) {
		return "", "", errNotFound
	}
	return kind, id, nil
}

func (s *Server) orderPage(c *echo.Context, d views.OrderDetail) views.Page {
	title := d.Title
	if title == "" {
		title = d.KindLabel + ": заказ № " + d.ID
	}
	p := s.page(c, title, "Заказ в личном кабинете курорта.")
	p.Nav = views.NavOrders
	return p
}

// order is /orders/{type}/{id}. On a provider failure its message replaces
// the order (SPEC §2).
func (s *Server) order(c *echo.Context) error {
	kind, id, err := orderParams(c)
	if err != nil {
		return err
	}
	o, err := s.loadOrder(c.Request().Context(), session(c).GUID, kind, id)
	if err != nil {
		status, msg := orderFailure(kind, err)
		if status == http.StatusNotFound {
			return errNotFound
		}
		d := views.OrderDetail{Kind: string(kind), KindLabel: kindLabels[kind], ID: id, Error: msg}
		return render(c, status, views.OrderPage(s.orderPage(c, d), d))
	}
	if kind == gateway.KindLesson && c.QueryParam("confirmed") == "1" {
		o.detail.Notice = msgConfirmed
	}
	return render(c, http.StatusOK, views.OrderPage(s.orderPage(c, o.detail), o.detail))
}

// confirmLesson is 'Подтвердить запись' (GLK/confirmLesson). The lesson is
// fetched again with the session's client id and canConfirm checked anew,
// whatever the page that posted showed.
func (s *Server) confirmLesson(c *echo.Context) error {
	kind, id, err := orderParams(c)
	if err != nil {
		return err
	}
	if kind != gateway.KindLesson {
		return errNotFound
	}
	ctx := c.Request().Context()
	guid := session(c).GUID
	o, err := s.gw.LessonOrder(ctx, guid, id)
	if err != nil {
		return fetchError(kind, err)
	}
	d := s.lessonDetail(o)
	if !o.CanConfirm {
		d.Error = msgCannotConfirm
		return render(c, http.StatusConflict, views.OrderPage(s.orderPage(c, d), d))
	}
	if err := s.gw.ConfirmLesson(ctx, guid, id); err != nil {
		s.log.Warn("lesson not confirmed", "id", id, "err", err)
		status := http.StatusBadGateway
		if pe, ok := errors.AsType[*gateway.ProviderError](err); ok && pe.Status < 500 {
			status = http.StatusConflict
		}
		d.Error = msgConfirmFailed
		return render(c, status, views.OrderPage(s.orderPage(c, d), d))
	}
	return seeOther(c, views.OrderPath(string(kind), id)+"?confirmed=1")
}

// orderDocument streams 'Мой билет' (aqua) or 'Мой ваучер' (hotel) after
// fetching the order with the session's client id: the provider's PDF call
// takes only an order id, so ownership is checked here.
func (s *Server) orderDocument(c *echo.Context) error {
	kind, id, err := orderParams(c)
	if err != nil {
		return err
	}
	doc := strings.TrimPrefix(c.Path(), routeOrder+"/")
	if !(kind == gateway.KindAqua && doc == "ticket.pdf" || kind == gateway.KindHotel && doc == "voucher.pdf") {
		return errNotFound
	}
	ctx := c.Request().Context()
	o, err := s.loadOrder(ctx, session(c).GUID, kind, id)
	if err != nil {
		return fetchError(kind, err)
	}
	if o.refusal != "" {
		return &httpError{http.StatusConflict, msgDocTitle, o.refusal}
	}
	var pdf []byte
	if kind == gateway.KindAqua {
		pdf, err = s.gw.AquaTicketPDF(ctx, id)
	} else {
		pdf, err = s.gw.HotelVoucherPDF(ctx, id)
	}
	if err != nil {
		s.log.Warn("document not fetched", "kind", kind, "id", id, "err", err)
		return &httpError{http.StatusBadGateway, msgDocTitle, msgDocFailed}
	}
	name := string(kind) + "-" + id + ".pdf" // id is checked by validID
	c.Response().Header().Set(echo.HeaderContentDisposition, `attachment; filename="`+name+`"`)
	return c.Blob(http.StatusOK, "application/pdf", pdf)
}

// ---- detail view models (SPEC §2, every field of each kind) ----

func (s *Server) lessonDetail(o gateway.LessonOrder) views.OrderDetail {
	d := views.OrderDetail{
		Kind: string(gateway.KindLesson), KindLabel: kindLabels[gateway.KindLesson], ID: o.DocID, Title: lessonTitle(o),
		Lines: []views.KV{
			{Key: "Дата оформления", Value: views.DateTime(s.when(o.RegDate))},
			{Key: "Занятие", Value: o.ExerciseSort},
			{Key: "Дата и время", Value: views.DateTime(s.when(o.DateBeg))},
			{Key: "Инструктор", Value: o.TrainerName},
			{Key: "Способ оплаты", Value: msgPayOnSite},
			total(o.Cost),
		},
	}
	if o.CanConfirm {
		d.ConfirmURL = views.OrderPath(string(gateway.KindLesson), o.DocID, "confirm")
	}
	return d
}

func (s *Server) rentDetail(kind gateway.Kind, id, name, beg, end string, amount float64) views.OrderDetail {
	from, to := s.when(beg), s.when(end)
	return views.OrderDetail{
		Kind: string(kind), KindLabel: kindLabels[kind], ID: id, Title: name,
		Lines: []views.KV{
			{Key: "Название", Value: name},
			{Key: "Дата", Value: views.Date(from)},
			{Key: "Время аренды", Value: span(from, to)},
			total(amount),
		},
	}
}

func (s *Server) aquaDetail(o gateway.AquaOrder) views.OrderDetail {
	start := s.when(o.DateBeg)
	var refunded float64
	tickets := make([]views.TicketLine, 0, len(o.Tickets))
	for _, t := range o.Tickets {
		title := t.Title
		if suffix := gateway.TicketStatusSuffix(t.Status); suffix != "" {
			title += " " + suffix
		}
		if t.Status == gateway.TicketRefunded {
			refunded += t.Price
		}
		tickets = append(tickets, views.TicketLine{Number: t.TicketNumber, Title: title, Price: views.Money(t.Price), Status: t.Status})
	}
	return views.OrderDetail{
		Kind: string(gateway.KindAqua), KindLabel: kindLabels[gateway.KindAqua], ID: o.OrderID,
		Title: "Заказ № " + o.OrderID, Tickets: tickets,
		Lines: []views.KV{
			{Key: "Дата оформления", Value: views.DateTime(s.when(o.RegDate))},
			{Key: "Дата", Value: views.Date(start)},
			{Key: "Время посещения", Value: visitTime(o, start)},
			status(o.Canceled, o.Paid),
			{Key: "К оплате", Value: views.Money(o.PaymentAmount)},
			{Key: "Возвращено", Value: views.Money(refunded)},
			total(o.Amount),
		},
	}
}

func (s *Server) hotelDetail(o gateway.HotelOrder) views.OrderDetail {
	var rooms []views.RoomGuests
	for _, r := range slices.Concat(o.Rooms, o.FamilyRooms) {
		g := views.RoomGuests{Title: strings.TrimSpace("№ " + r.Number + ", " + r.Title)}
		for _, p := range r.Guests {
			g.Guests = append(g.Guests, fullName(p))
		}
		for _, p := range r.Childrens {
			g.Guests = append(g.Guests, fullName(p)+" (ребёнок)")
		}
		rooms = append(rooms, g)
	}
	return views.OrderDetail{
		Kind: string(gateway.KindHotel), KindLabel: kindLabels[gateway.KindHotel], ID: o.OrderID,
		Title: "Заказ № " + o.OrderID, Rooms: rooms,
		Lines: []views.KV{
			{Key: "Период проживания", Value: views.DateTime(s.when(o.HourBeg)) + " — " + views.DateTime(s.when(o.HourEnd))},
			status(o.Canceled, o.Paid),
			{Key: "Проживание в номерах", Value: views.Money(o.AmountRooms)},
			{Key: "Дополнительные места", Value: views.Money(o.AmountAddPlaces)},
			{Key: "Дети", Value: views.Money(o.AmountChildren)},
			total(o.Amount),
		},
	}
}

func fullName(g gateway.Guest) string {
	return strings.Join(strings.Fields(g.Family+" "+g.Name+" "+g.SecondName), " ")
}
