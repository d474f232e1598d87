package sandbox

import (
	"context"
	"database/sql"
	"fmt"

	"lk/gateway"
)

// MaxPast bounds how many past orders one call adds.
const MaxPast = 1000

// SeedPast gives client n more past orders, the kinds in turn, one every
// three days back from the day before yesterday (300 orders reach about
// two and a half years back), as a customer of many seasons has. A water-park
// order in ten is cancelled. They last until the demo is seeded again.
func (s *Sandbox) SeedPast(ctx context.Context, client string, n int) error {
	if n < 0 || n > MaxPast {
		return fmt.Errorf("sandbox: past orders: %d is not 0..%d", n, MaxPast)
	}
	if err := s.refresh(ctx); err != nil { // a later reseed would drop them
		return err
	}
	return s.inTx(ctx, func(tx *sql.Tx) error {
		b := &seeder{s: s, ctx: ctx, tx: tx, today: s.today()}
		guest := []gateway.Room{{Number: "210", Title: "Стандарт, двухместный",
			Guests: []gateway.Guest{{Family: "Иванов", Name: "Иван", SecondName: "Иванович"}}, Childrens: []gateway.Guest{}}}
		for i := range n {
			id, err := nextID(ctx, tx)
			if err != nil {
				return err
			}
			off := -2 - 3*i
			switch i % 5 {
			case 0:
				b.lesson(id, client, trainers[i/5%len(trainers)], off, lessonHours[i/5%len(lessonHours)], flags{}, "")
			case 1:
				b.rent(kindPavilion, id, client, pavilions[i/5%len(pavilions)], off, 12, 14, flags{})
			case 2:
				st := aquaState{paid: true}
				tickets := []tk{{adult, gateway.TicketPaid}, {child, gateway.TicketPaid}}
				if i/5%10 == 3 {
					st.canceled = true
					tickets = []tk{{adult, gateway.TicketRefunded}, {child, gateway.TicketRefunded}}
				}
				b.aqua(id, client, addDays(b.today, off), 1, tickets, st)
			case 3:
				b.hotel(id, client, off-2, 2, guest, nil, 0, hotelState{paid: true})
			default:
				b.rent(kindRoom, id, client, celRooms[i/5%len(celRooms)], off, 15, 17, flags{})
			}
			if b.err != nil {
				return b.err
			}
		}
		return nil
	})
}

// SeedToday gives client a paid water-park visit of today, as DemoAquaToday,
// until the demo is seeded again.
func (s *Sandbox) SeedToday(ctx context.Context, client string) error {
	if err := s.refresh(ctx); err != nil { // a later reseed would drop it
		return err
	}
	return s.inTx(ctx, func(tx *sql.Tx) error {
		b := &seeder{s: s, ctx: ctx, tx: tx, today: s.today()}
		id, err := nextID(ctx, tx)
		if err != nil {
			return err
		}
		b.aqua(id, client, b.today, 2, []tk{{adult, gateway.TicketPaid}}, aquaState{paid: true, flags: flags{cancel: true}})
		return b.err
	})
}
