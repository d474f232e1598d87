package handlers

import (
	"context"
	"strconv"
	"time"

	"lk/gateway"
	"lk/views"
)

// aquaTransfer moves a water-park order's tickets to another day's session
// (SPEC §5): a day from today to +30 days of the order's weekday class (a
// weekday order only to weekdays, a weekend order only to weekends, held
// here on the server), the sessions of aqua/getSessionsAqua that fit its
// tickets; then aqua/transferTicket.
var aquaTransfer = &dayMove{
	heading: "Перенести билеты", lead: "Выберите день и сеанс, на которые перенести билеты.",
	button: "Перенести билеты", show: "Показать сеансы", legend: "Сеансы на",
	choose: "Выберите сеанс.", empty: msgNoSessions, fetchFailed: msgAquaFailed,
	field: "sessionId", window: gateway.AquaTransferWindow,
	day: func(s *Server, o order, d time.Time) error {
		return gateway.CheckAquaDate(o.ref.Start, d, s.now())
	},
	first: func(s *Server, o order) time.Time {
		from, to := gateway.AquaTransferWindow(s.now())
		if d := o.ref.Start; gateway.InWindow(d, from, to) {
			return d
		}
		for d := from; !d.After(to); d = d.AddDate(0, 0, 1) {
			if gateway.IsWeekend(d) == gateway.IsWeekend(o.ref.Start) {
				return d
			}
		}
		return from
	},
	options: func(ctx context.Context, s *Server, o order, d time.Time) ([]option, error) {
		list, err := s.gw.AquaSessions(ctx, d)
		if err != nil {
			return nil, err
		}
		aq := o.wire.(gateway.AquaOrder)
		tickets := gateway.MovableTickets(aq.Tickets)
		vip, now := gateway.TicketsVIP(tickets), s.now()
		out := make([]option, 0, len(list))
		for _, x := range list {
			why := gateway.CheckSession(x, vip, d, now, len(tickets))
			if why == nil && gateway.SameSession(aq, x, d) {
				why = gateway.ErrSameSession
			}
			out = append(out, option{
				choice: views.TransferChoice{Value: x.SessionID, Title: x.Name + " " + x.SessionTime + "–" + x.EndTime,
					Lines: []string{"Свободных мест: " + strconv.Itoa(x.AvailableCount)}},
				why: why, wire: x,
			})
		}
		return out, nil
	},
	move: func(ctx context.Context, s *Server, _ *Session, o order, d time.Time, chosen option) (string, error) {
		err := s.gw.TransferTickets(ctx, gateway.TransferTicketRequest{
			OrderID: o.id, Date: gateway.FormatDate(d, s.loc), SessionID: chosen.wire.(gateway.AquaSession).SessionID,
		})
		return views.OrderPath(string(gateway.KindAqua), o.id), err
	},
	refused: msgAquaFailed, unreachable: msgAquaFailed, done: msgAquaMoved,
	original: func(o order) string { return iso(o.ref.Start) },
}
