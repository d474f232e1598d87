package sandbox

// Seeded data. Every date is relative to D = "today" in the resort's zone
// (Europe/Moscow unless configured). The demo customers' orders are seeded
// with the fixed ids below and re-seeded (same ids, dates moved) when the
// sandbox first runs on a later day; registered customers and their orders
// are never touched. Reference data (lessons, pavilion and room hours, hotel
// nights, water-park sessions) covers D .. D+Window-1 (hotel nights
// D .. D+HotelWindow-1) and grows day by day; rows
// already created keep their state (busy hours, free places, availability).
//
// Demo customer: DemoPhone 79000000000, 'Иванов Иван Иванович', guid DemoGUID.
//
//	lessons (GLK, doc_ID)
//	  100001 D+1 10:00 Смирнова Анна, Горные лыжи     canConfirm
//	  100002 D+3 10:00 Смирнова Анна, Горные лыжи     canConfirm, canTransfer
//	  100003 D+5 16:00 Кузнецов Олег, Сноуборд        canConfirm, canCancel
//	  100004 D+2 12:00 Попова Мария, children's group  (confirmed) canTransfer, canCancel; child_ID CH-0001
//	  100005 D-10, 100006 D-45                         past, no flags
//	pavilion rents (iD_Rent)
//	  200001 'Беседка №3' D+4 12:00–15:00, 3 h × 2000 ₽  canTransfer, canCancel
//	  200002 'Беседка №1' D+9 18:00–20:00, 2 h × 1500 ₽  canCancel
//	  200003 'Беседка №3' D-15                           past
//	celebration-room rents (iD_Rent)
//	  210001 'Банкетный зал «Снежинка»' D+6 14:00–18:00, 4 h × 5000 ₽  canTransfer, canCancel
//	  210002 'Детская комната «Ёлочка»' D+12 11:00–13:00               no flags
//	  210003 'Банкетный зал «Снежинка»' D-20                            past
//	water park (orderId)
//	  300001 first weekday after D, 'Дневной': 2 adults + 1 child, paid   canTransfer, canCancel
//	  300002 D+3 'Дневной': 2 tickets waitingForPaymant, paid:false
//	  300003 D+5 'Вечерний': canceled, tickets refunded
//	  300004 first weekend day after D, 'VIP дневной': 2 VIP adults (one refunded) + 1 VIP child  canTransfer, canCancel
//	  300005 D (today) 'Вечерний': 1 adult, paid  canCancel (refund needs reason and documents)
//	  300006 D-7 'Дневной', 300007 D-30 'VIP вечерний'  past, paid
//	hotel (orderId)
//	  400001 D+10 16:00 → D+13 14:00, standard room + family room, 5 guests, paid  canTransfer, canCancel
//	  400002 D+20 → D+22, 1 room, unpaid  canCancel
//	  400003 D+15 → D+16, canceled
//	  400004 D-60 → D-57, paid, past
//
// Other customer: OtherPhone 79000000001, 'Петров Пётр', guid OtherGUID, with
// lesson 110001, pavilion rent 200101, room rent 210101, water park 300101 and
// hotel 400101, all active with every flag set.
//
// Ids created later (new bookings, moved rents, registered customers' orders)
// come from one sequence starting at 500001.

import (
	"context"
	"database/sql"
	"fmt"
	"hash/fnv"
	"strings"
	"time"

	"lk/gateway"
)

// Seeded customers.
const (
	DemoPhone  = "79000000000"
	DemoGUID   = "6f1e2d3c-4b5a-4c7d-9e8f-0a1b2c3d4e5f"
	DemoFIO    = "Иванов Иван Иванович"
	DemoEmail  = "ivanov@example.ru"
	OtherPhone = "79000000001"
	OtherGUID  = "0b9a8c7d-6e5f-4a3b-8c2d-1e0f9a8b7c6d"
	OtherFIO   = "Петров Пётр"
)

// Seeded orders of the demo customer (see the table above).
const (
	DemoLessonConfirmable  = "100001"
	DemoLessonTransferable = "100002"
	DemoLessonCancelable   = "100003"
	DemoLessonChild        = "100004"
	DemoLessonPast         = "100005"

	DemoPavilionRent       = "200001" // movable and cancelable
	DemoPavilionCancelOnly = "200002"
	DemoPavilionPast       = "200003"

	DemoRoomRent  = "210001" // movable and cancelable
	DemoRoomFixed = "210002"
	DemoRoomPast  = "210003"

	DemoAquaPaid        = "300001" // weekday, regular tickets
	DemoAquaUnpaid      = "300002"
	DemoAquaCanceled    = "300003"
	DemoAquaVIPRefunded = "300004" // weekend, VIP, one ticket refunded
	DemoAquaToday       = "300005"
	DemoAquaPast        = "300006"

	DemoHotelPaid     = "400001"
	DemoHotelUnpaid   = "400002"
	DemoHotelCanceled = "400003"
	DemoHotelPast     = "400004"
)

// Seeded orders of the other customer.
const (
	OtherLesson       = "110001"
	OtherPavilionRent = "200101"
	OtherRoomRent     = "210101"
	OtherAqua         = "300101"
	OtherHotel        = "400101"
)

// Reference data ids.
const (
	TrainerSmirnova  = "TR01" // Смирнова Анна, Горные лыжи (14:00 Сноуборд)
	TrainerKuznetsov = "TR02" // Кузнецов Олег, Сноуборд (14:00 Горные лыжи)
	TrainerPopova    = "TR03" // Попова Мария, Горные лыжи (14:00 Сноуборд)
	TrainerVolkov    = "TR04" // Волков Дмитрий, Сноуборд (14:00 Горные лыжи)

	PavilionNo1    = "PV01"
	PavilionNo2    = "PV02"
	PavilionNo3    = "PV03"
	PavilionChalet = "PV04"

	RoomSnowflake = "CR01"
	RoomFirTree   = "CR02"
)

// Window is how many days of lessons, rent hours and water-park sessions
// exist from today on: every day a booking can move to, up to a month ahead
// (31.12 → 31.01 is 31 days on) and the water park's 30 days.
const Window = 32

// HotelWindow is how many days of hotel nights exist from today on: the
// hotel calendar runs to the end of next month, and a stay that checks in on
// the window's last day may last a month more.
const HotelWindow = 2*Window - 1

const (
	sportSki   = "Горные лыжи"
	sportBoard = "Сноуборд"

	ageAdult = "ADULT"
	ageChild = "CHILD"

	hotelPrice         = 6500.0  // a standard room, per weekday night
	hotelPriceFamily   = 9800.0  // a family room, per weekday night
	hotelPriceWeekend  = 8000.0  // a standard room, Friday and Saturday nights
	hotelFamilyWeekend = 12000.0 // a family room, Friday and Saturday nights
	hotelAddPlace      = 1500.0  // an extra place, per night
	hotelChild         = 1200.0  // a child, per night
)

// hotelRates are a night's prices: Friday and Saturday nights are dearer,
// so two stays of the same length can cost differently (the summed
// price rule then matters).
func hotelRates(night time.Time) (price, family float64) {
	if wd := night.Weekday(); wd == time.Friday || wd == time.Saturday {
		return hotelPriceWeekend, hotelFamilyWeekend
	}
	return hotelPrice, hotelPriceFamily
}

type trainer struct{ ID, Name, Primary, Secondary string }

var trainers = []trainer{
	{TrainerSmirnova, "Смирнова Анна", sportSki, sportBoard},
	{TrainerKuznetsov, "Кузнецов Олег", sportBoard, sportSki},
	{TrainerPopova, "Попова Мария", sportSki, sportBoard},
	{TrainerVolkov, "Волков Дмитрий", sportBoard, sportSki},
}

func trainerByID(id string) (trainer, bool) {
	for _, t := range trainers {
		if t.ID == id {
			return t, true
		}
	}
	return trainer{}, false
}

var lessonHours = []int{10, 12, 14, 16, 18}

// lessonAt describes the lesson a trainer gives at an hour.
func lessonAt(tr trainer, hour int) (sport, sort, age string, cost float64) {
	sport, sort, age, cost = tr.Primary, "Групповое занятие, начинающие", ageAdult, 2500
	switch hour {
	case 12:
		sort, age, cost = "Детская группа, 7–12 лет", ageChild, 2000
	case 14:
		sport = tr.Secondary
	case 16, 18:
		sort, cost = "Групповое занятие, продолжающие", 2800
	}
	return
}

func lessonID(tr string, day time.Time, hour int) string {
	return fmt.Sprintf("L%s-%s-%02d", day.Format("20060102"), tr, hour)
}

type facility struct {
	ID   string
	Name string
	Cost float64 // per hour
}

var pavilions = []facility{
	{PavilionNo1, "Беседка №1", 1500},
	{PavilionNo2, "Беседка №2", 1500},
	{PavilionNo3, "Беседка №3", 2000},
	{PavilionChalet, "Беседка «Шале»", 3500},
}

var celRooms = []facility{
	{RoomSnowflake, "Банкетный зал «Снежинка»", 5000},
	{RoomFirTree, "Детская комната «Ёлочка»", 3000},
}

// Hours of pavilions and rooms: the first starts at 09:00, the last ends at 22:00.
const (
	firstHour = 9
	closeHour = 22
)

// Water-park sessions of a day, by number.
type aquaKind struct {
	N          int
	Name       string
	From, To   string
	VIP        bool
	Begin, End int
}

var aquaKinds = []aquaKind{
	{1, "Дневной", "10:00", "16:00", false, 10, 16},
	{2, "Вечерний", "16:00", "22:00", false, 16, 22},
	{3, "VIP дневной", "10:00", "16:00", true, 10, 16},
	{4, "VIP вечерний", "16:00", "22:00", true, 16, 22},
}

func sessionID(day time.Time, n int) string {
	return fmt.Sprintf("S%s-%d", day.Format("20060102"), n)
}

func sessionLabel(k aquaKind) string { return k.Name + " " + k.From + "–" + k.To }

func hash(parts ...string) uint32 {
	h := fnv.New32a()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return h.Sum32()
}

// refresh re-seeds when the day has changed since the last seeding.
func (s *Sandbox) refresh(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.seedDay == fmtDay(s.today()) {
		return nil
	}
	return s.refreshLocked(ctx)
}

func (s *Sandbox) refreshLocked(ctx context.Context) error {
	today := s.today()
	day := fmtDay(today)
	err := s.inTxLocked(ctx, func(tx *sql.Tx) error {
		if err := s.ensureWindow(ctx, tx, today); err != nil {
			return err
		}
		seeded, err := getMeta(ctx, tx, "seed_day")
		if err != nil {
			return err
		}
		if seeded != day {
			if err := s.reseedDemo(ctx, tx, today); err != nil {
				return err
			}
			if err := setMeta(ctx, tx, "seed_day", day); err != nil {
				return err
			}
			s.log.Info("sandbox: demo data seeded", "day", day)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("sandbox: seed: %w", err)
	}
	s.seedDay = day
	return nil
}

// ensureWindow creates the reference data of the days D .. D+Window-1 (hotel
// nights: D+HotelWindow-1) that do not exist yet and drops days before D.
func (s *Sandbox) ensureWindow(ctx context.Context, tx *sql.Tx, today time.Time) error {
	old := fmtDay(today)
	for _, q := range []string{
		`DELETE FROM lessons WHERE day < ?`, `DELETE FROM schedules WHERE day < ?`,
		`DELETE FROM hotel_days WHERE day < ?`, `DELETE FROM aqua_sessions WHERE day < ?`,
	} {
		if _, err := tx.ExecContext(ctx, q, old); err != nil {
			return err
		}
	}
	// Each statement is parsed once for the whole window: parsing it for
	// every row cost more than the rows themselves.
	st, err := prepare(ctx, tx,
		`SELECT count(*) FROM aqua_sessions WHERE day = ?`,
		`INSERT OR IGNORE INTO lessons(id, trainer, day, data) VALUES(?, ?, ?, ?)`,
		`INSERT OR IGNORE INTO schedules(kind, facility, day, data) VALUES(?, ?, ?, ?)`,
		`INSERT OR IGNORE INTO aqua_sessions(id, day, data) VALUES(?, ?, ?)`,
		`INSERT OR IGNORE INTO hotel_days(day, data) VALUES(?, ?)`,
		`SELECT count(*) FROM hotel_days WHERE day = ?`)
	if err != nil {
		return err
	}
	defer func() {
		for _, s := range st {
			s.Close()
		}
	}()
	for i := range HotelWindow {
		d := addDays(today, i)
		dk := fmtDay(d)
		if i < Window {
			if err := seedDay(ctx, st, d, dk); err != nil {
				return err
			}
		}
		if done, err := seeded(ctx, st[5], dk); err != nil {
			return err
		} else if done {
			continue
		}
		hv := hash("hotel", dk)
		price, family := hotelRates(d)
		hd := gateway.HotelDay{Period: dk, Vacant: 2 + int(hv>>3)%12, Family: 1 + int(hv>>7)%3, Price: price, PriceFamily: family}
		if hv%8 == 0 {
			hd.Vacant, hd.Family = 0, 0 // fully booked
		}
		if _, err := st[4].ExecContext(ctx, dk, mustJSON(hd)); err != nil {
			return err
		}
	}
	return nil
}

// seedDay creates the lessons, rent hours and water-park sessions of day d
// (dk) unless it has them already.
func seedDay(ctx context.Context, st []*sql.Stmt, d time.Time, dk string) error {
	if done, err := seeded(ctx, st[0], dk); err != nil {
		return err
	} else if done {
		return nil // this day exists with its current state
	}
	for _, tr := range trainers {
		for _, h := range lessonHours {
			sport, sort, age, cost := lessonAt(tr, h)
			id := lessonID(tr.ID, d, h)
			l := gateway.Lesson{
				LessonID: id, TrainerID: tr.ID, TrainerName: tr.Name, ExerciseSort: sort,
				KindOfSport: sport, DateBeg: fmtDT(at(d, h, 0)), AgeGroupHigh: age,
				FreePlaces: int(hash(id) % 9), Cost: cost,
			}
			if _, err := st[1].ExecContext(ctx, id, tr.ID, dk, mustJSON(l)); err != nil {
				return err
			}
		}
	}
	for kind, list := range map[string][]facility{kindPavilion: pavilions, kindRoom: celRooms} {
		for _, f := range list {
			sch := gateway.Schedule{HourEnd: fmtISO(at(d, closeHour, 0)), Cost: f.Cost}
			hv := hash(kind, f.ID, dk)
			busyFrom, busyLen := firstHour+int(hv%12), 1+int(hv>>4)%3
			if (hv>>8)%3 == 0 {
				busyLen = 0 // a free day
			}
			for h := firstHour; h < closeHour; h++ {
				st := 0
				if h >= busyFrom && h < busyFrom+busyLen {
					st = 1
				}
				sch.Details = append(sch.Details, gateway.TimetableHour{Hour: fmtISO(at(d, h, 0)), Status: st})
			}
			if _, err := st[2].ExecContext(ctx, kind, f.ID, dk, mustJSON(sch)); err != nil {
				return err
			}
		}
	}
	for _, k := range aquaKinds {
		id := sessionID(d, k.N)
		hv := hash(id)
		count := 40 + int(hv%160)
		if hv%11 == 0 {
			count = 0
		}
		if k.VIP {
			count = 1 + int(hv%12)
			if hv%5 == 0 {
				count = 0
			}
		}
		a := gateway.AquaSession{SessionID: id, SessionTime: k.From, AvailableCount: count, Name: k.Name, EndTime: k.To}
		if _, err := st[3].ExecContext(ctx, id, dk, mustJSON(a)); err != nil {
			return err
		}
	}
	return nil
}

// seeded tells whether count, a query of a day's rows, finds any for the
// day dk: a day that exists keeps its state.
func seeded(ctx context.Context, count *sql.Stmt, dk string) (bool, error) {
	var n int
	err := count.QueryRowContext(ctx, dk).Scan(&n)
	return n > 0, err
}

// prepare prepares queries in tx, in their order; on an error none stays open.
func prepare(ctx context.Context, tx *sql.Tx, queries ...string) ([]*sql.Stmt, error) {
	var st []*sql.Stmt
	for _, q := range queries {
		s, err := tx.PrepareContext(ctx, q)
		if err != nil {
			for _, s := range st {
				s.Close()
			}
			return nil, err
		}
		st = append(st, s)
	}
	return st, nil
}

// reseedDemo replaces the two seeded customers' orders by fresh ones
// relative to today, releasing what the old ones held.
func (s *Sandbox) reseedDemo(ctx context.Context, tx *sql.Tx, today time.Time) error {
	for _, c := range []string{DemoGUID, OtherGUID} {
		if err := s.releaseAll(ctx, tx, c); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM orders WHERE client = ?`, c); err != nil {
			return err
		}
	}
	now := s.nowLocal()
	for _, c := range []struct{ guid, phone, fio, email, birth, gender string }{
		{DemoGUID, DemoPhone, DemoFIO, DemoEmail, "15_03_1985", "MALE"},
		{OtherGUID, OtherPhone, OtherFIO, "petrov@example.ru", "02_11_1979", "MALE"},
	} {
		if _, err := tx.ExecContext(ctx, `INSERT INTO clients(guid, phone, fio, email, birthdate, gender, created_at, demo)
			VALUES(?, ?, ?, ?, ?, ?, ?, 1)
			ON CONFLICT(guid) DO UPDATE SET phone = excluded.phone, fio = excluded.fio, email = excluded.email,
				birthdate = excluded.birthdate, gender = excluded.gender`,
			c.guid, c.phone, c.fio, c.email, c.birth, c.gender, now.Format(time.RFC3339)); err != nil {
			return err
		}
	}

	b := &seeder{s: s, ctx: ctx, tx: tx, today: today}
	smirnova, _ := trainerByID(TrainerSmirnova)
	kuznetsov, _ := trainerByID(TrainerKuznetsov)
	popova, _ := trainerByID(TrainerPopova)
	volkov, _ := trainerByID(TrainerVolkov)

	// Demo customer.
	c := DemoGUID
	b.lesson(DemoLessonConfirmable, c, smirnova, 1, 10, flags{confirm: true}, "")
	b.lesson(DemoLessonTransferable, c, smirnova, 3, 10, flags{confirm: true, transfer: true}, "")
	b.lesson(DemoLessonCancelable, c, kuznetsov, 5, 16, flags{confirm: true, cancel: true}, "")
	b.lesson(DemoLessonChild, c, popova, 2, 12, flags{transfer: true, cancel: true}, "CH-0001")
	b.lesson(DemoLessonPast, c, smirnova, -10, 10, flags{}, "")
	b.lesson("100006", c, kuznetsov, -45, 14, flags{}, "")

	b.rent(kindPavilion, DemoPavilionRent, c, pavilions[2], 4, 12, 15, flags{transfer: true, cancel: true})
	b.rent(kindPavilion, DemoPavilionCancelOnly, c, pavilions[0], 9, 18, 20, flags{cancel: true})
	b.rent(kindPavilion, DemoPavilionPast, c, pavilions[2], -15, 14, 17, flags{})

	b.rent(kindRoom, DemoRoomRent, c, celRooms[0], 6, 14, 18, flags{transfer: true, cancel: true})
	b.rent(kindRoom, DemoRoomFixed, c, celRooms[1], 12, 11, 13, flags{})
	b.rent(kindRoom, DemoRoomPast, c, celRooms[0], -20, 18, 22, flags{})

	weekday, weekend := addDays(today, 1), addDays(today, 1)
	for gateway.IsWeekend(weekday) {
		weekday = addDays(weekday, 1)
	}
	for !gateway.IsWeekend(weekend) {
		weekend = addDays(weekend, 1)
	}
	b.aqua(DemoAquaPaid, c, weekday, 1, []tk{{adult, gateway.TicketPaid}, {adult, gateway.TicketPaid}, {child, gateway.TicketPaid}},
		aquaState{paid: true, flags: flags{transfer: true, cancel: true}})
	b.aqua(DemoAquaUnpaid, c, addDays(today, 3), 1, []tk{{adult, gateway.TicketWaiting}, {child, gateway.TicketWaiting}},
		aquaState{})
	b.aqua(DemoAquaCanceled, c, addDays(today, 5), 2, []tk{{adult, gateway.TicketRefunded}, {adult, gateway.TicketRefunded}},
		aquaState{paid: true, canceled: true})
	b.aqua(DemoAquaVIPRefunded, c, weekend, 3, []tk{{adult, gateway.TicketPaid}, {adult, gateway.TicketRefunded}, {child, gateway.TicketPaid}},
		aquaState{paid: true, flags: flags{transfer: true, cancel: true}})
	b.aqua(DemoAquaToday, c, today, 2, []tk{{adult, gateway.TicketPaid}},
		aquaState{paid: true, flags: flags{cancel: true}})
	b.aqua(DemoAquaPast, c, addDays(today, -7), 1, []tk{{adult, gateway.TicketPaid}, {adult, gateway.TicketPaid}},
		aquaState{paid: true})
	b.aqua("300007", c, addDays(today, -30), 4, []tk{{adult, gateway.TicketPaid}},
		aquaState{paid: true})

	ivanov := []gateway.Guest{{Family: "Иванов", Name: "Иван", SecondName: "Иванович"}, {Family: "Иванова", Name: "Мария", SecondName: "Петровна"}}
	b.hotel(DemoHotelPaid, c, 10, 3, []gateway.Room{{Number: "214", Title: "Стандарт, двухместный", Guests: ivanov, Childrens: []gateway.Guest{}}},
		[]gateway.Room{{Number: "305", Title: "Семейный номер", Guests: []gateway.Guest{{Family: "Иванова", Name: "Елена", SecondName: "Сергеевна"}},
			Childrens: []gateway.Guest{{Family: "Иванов", Name: "Артём", SecondName: "Иванович"}, {Family: "Иванова", Name: "София", SecondName: "Ивановна"}}}},
		1, hotelState{paid: true, flags: flags{transfer: true, cancel: true}})
	b.hotel(DemoHotelUnpaid, c, 20, 2, []gateway.Room{{Number: "118", Title: "Стандарт, двухместный", Guests: ivanov, Childrens: []gateway.Guest{}}},
		nil, 0, hotelState{flags: flags{cancel: true}})
	b.hotel(DemoHotelCanceled, c, 15, 1, []gateway.Room{{Number: "120", Title: "Стандарт, одноместный", Guests: ivanov[:1], Childrens: []gateway.Guest{}}},
		nil, 0, hotelState{paid: true, canceled: true})
	b.hotel(DemoHotelPast, c, -60, 3, []gateway.Room{{Number: "207", Title: "Стандарт, двухместный", Guests: ivanov, Childrens: []gateway.Guest{}}},
		nil, 0, hotelState{paid: true})

	// Other customer.
	c = OtherGUID
	all := flags{confirm: true, transfer: true, cancel: true}
	petrov := []gateway.Guest{{Family: "Петров", Name: "Пётр", SecondName: ""}}
	b.lesson(OtherLesson, c, popova, 2, 16, all, "")
	b.lesson("110002", c, volkov, -5, 10, flags{}, "")
	b.rent(kindPavilion, OtherPavilionRent, c, pavilions[1], 6, 10, 12, all)
	b.rent(kindRoom, OtherRoomRent, c, celRooms[1], 8, 15, 17, all)
	b.aqua(OtherAqua, c, addDays(today, 4), 1, []tk{{adult, gateway.TicketPaid}}, aquaState{paid: true, flags: all})
	b.hotel(OtherHotel, c, 12, 2, []gateway.Room{{Number: "101", Title: "Стандарт, одноместный", Guests: petrov, Childrens: []gateway.Guest{}}},
		nil, 0, hotelState{paid: true, flags: all})
	return b.err
}

// seedSample gives a newly registered customer a sample set of orders.
func (s *Sandbox) seedSample(ctx context.Context, tx *sql.Tx, client string, guest gateway.Guest) error {
	today := s.today()
	b := &seeder{s: s, ctx: ctx, tx: tx, today: today}
	id := func() string {
		if b.err != nil {
			return ""
		}
		v, err := nextID(ctx, tx)
		b.err = err
		return v
	}
	all := flags{confirm: true, transfer: true, cancel: true}
	popova, _ := trainerByID(TrainerPopova)
	b.lesson(id(), client, popova, 3, 10, all, "")
	b.rent(kindPavilion, id(), client, pavilions[1], 5, 12, 14, flags{transfer: true, cancel: true})
	b.rent(kindRoom, id(), client, celRooms[1], 10, 12, 14, flags{transfer: true, cancel: true})
	b.aqua(id(), client, addDays(today, 4), 1, []tk{{adult, gateway.TicketPaid}, {adult, gateway.TicketPaid}},
		aquaState{paid: true, flags: flags{transfer: true, cancel: true}})
	b.aqua(id(), client, addDays(today, -20), 2, []tk{{adult, gateway.TicketPaid}}, aquaState{paid: true})
	b.hotel(id(), client, 14, 2, []gateway.Room{{Number: "112", Title: "Стандарт, одноместный", Guests: []gateway.Guest{guest}, Childrens: []gateway.Guest{}}},
		nil, 0, hotelState{paid: true, flags: flags{transfer: true, cancel: true}})
	return b.err
}

type flags struct{ confirm, transfer, cancel bool }

// seeder inserts orders and takes the resources they hold; it stops at the
// first error, kept in err.
type seeder struct {
	s     *Sandbox
	ctx   context.Context
	tx    *sql.Tx
	today time.Time
	err   error
}

func (b *seeder) regDate(start time.Time) string {
	reg := addDays(b.today, -3)
	if start.Before(reg) {
		reg = addDays(start, -14)
	}
	return fmtDT(reg.Add(11*time.Hour + 23*time.Minute))
}

func (b *seeder) lesson(docID, client string, tr trainer, dayOff, hour int, f flags, childID string) {
	if b.err != nil {
		return
	}
	day := addDays(b.today, dayOff)
	sport, sort, age, cost := lessonAt(tr, hour)
	start := at(day, hour, 0)
	o := gateway.LessonOrder{
		DocID: docID, ClientID: client, TrainerID: tr.ID, TrainerName: tr.Name, ExerciseSort: sort,
		KindOfSport: sport, DateBeg: fmtDT(start), RegDate: b.regDate(start), Cost: cost, AgeGroupHigh: age,
		ChildID: childID, CanConfirm: f.confirm, CanTransfer: f.transfer, CanCancel: f.cancel,
	}
	ref := lessonID(tr.ID, day, hour)
	b.err = putOrder(b.ctx, b.tx, orderMeta{Kind: kindLesson, ID: docID, Client: client, Start: fmtISO(start), End: fmtISO(start.Add(90 * time.Minute)), Ref: ref}, o)
	if b.err == nil {
		b.err = b.s.takeLesson(b.ctx, b.tx, ref, 1)
	}
}

func (b *seeder) rent(kind, rentID, client string, fac facility, dayOff, from, to int, f flags) {
	if b.err != nil {
		return
	}
	day := addDays(b.today, dayOff)
	o := makeRent(fac, client, rentID, at(day, from, 0), to-from, b.regDate(at(day, from, 0)))
	o.CanTransfer, o.CanCancel = f.transfer, f.cancel
	b.err = b.s.putRent(b.ctx, b.tx, kind, o, false)
	if b.err == nil {
		b.err = b.s.markHours(b.ctx, b.tx, kind, o, 1)
	}
}

type ticketKind int

const (
	adult ticketKind = iota
	child
)

type tk struct {
	kind   ticketKind
	status string
}

type aquaState struct {
	paid, canceled bool
	flags          flags
}

func ticketPrice(vip, isChild, weekend bool) (string, float64) {
	switch {
	case vip && isChild:
		return "VIP детский", pick(weekend, 3500, 3000)
	case vip:
		return "VIP взрослый", pick(weekend, 5200, 4500)
	case isChild:
		return "Детский (до 14 лет)", pick(weekend, 1800, 1500)
	default:
		return "Взрослый", pick(weekend, 2600, 2200)
	}
}

func pick(c bool, a, b float64) float64 {
	if c {
		return a
	}
	return b
}

func (b *seeder) aqua(orderID, client string, day time.Time, session int, tickets []tk, st aquaState) {
	if b.err != nil {
		return
	}
	k := aquaKinds[session-1]
	start := at(day, k.Begin, 0)
	o := gateway.AquaOrder{
		OrderID: orderID, DateBeg: fmtDT(start), RegDate: b.regDate(start),
		Canceled: st.canceled, Paid: st.paid, CanTransfer: st.flags.transfer, CanCancel: st.flags.cancel,
	}
	for i, t := range tickets {
		title, price := ticketPrice(k.VIP, t.kind == child, gateway.IsWeekend(day))
		n := i + 1
		o.Tickets = append(o.Tickets, gateway.Ticket{
			ID:           fmt.Sprintf("%s-%d", orderID, n),
			TicketNumber: fmt.Sprintf("AQ-%s-%02d", orderID, n),
			Title:        title, Price: price, IsChild: t.kind == child, Status: t.status,
			Session:    sessionLabel(k),
			ProductUID: fmt.Sprintf("a9c1%04x-%04x-4%03x-8%03x-%012x", hash(orderID)&0xffff, n, hash(title)&0xfff, n, hash(orderID, title, fmt.Sprint(n))),
			Barcode:    fmt.Sprintf("46%08s%03d", strings.TrimLeft(orderID, "0"), n),
			EventDate:  fmtDT(start),
		})
	}
	recountAqua(&o)
	m := orderMeta{Kind: kindAqua, ID: orderID, Client: client, Start: fmtISO(start), End: fmtISO(at(day, k.End, 0)),
		Ref: sessionID(day, session), Canceled: st.canceled, Refunded: st.canceled}
	b.err = putOrder(b.ctx, b.tx, m, o)
	if b.err == nil && !st.canceled {
		b.err = b.s.takeSession(b.ctx, b.tx, m.Ref, activeTickets(o))
	}
}

type hotelState struct {
	paid, canceled bool
	flags          flags
}

func (b *seeder) hotel(orderID, client string, inOff, nights int, rooms, family []gateway.Room, addPlaces int, st hotelState) {
	if b.err != nil {
		return
	}
	in := at(addDays(b.today, inOff), 16, 0)
	out := at(addDays(b.today, inOff+nights), 14, 0)
	if rooms == nil {
		rooms = []gateway.Room{}
	}
	if family == nil {
		family = []gateway.Room{}
	}
	o := gateway.HotelOrder{
		OrderID: orderID, HourBeg: fmtDT(in), HourEnd: fmtDT(out), RegDate: b.regDate(in),
		Canceled: st.canceled, Paid: st.paid, CanTransfer: st.flags.transfer, CanCancel: st.flags.cancel,
		Rooms: rooms, FamilyRooms: family,
	}
	adults, children := 0, 0
	for _, r := range append(append([]gateway.Room{}, rooms...), family...) {
		adults += len(r.Guests)
		children += len(r.Childrens)
	}
	n := float64(nights)
	for d := dayOf(in); d.Before(dayOf(out)); d = addDays(d, 1) {
		price, fam := hotelRates(d)
		o.AmountRooms += price*float64(len(rooms)) + fam*float64(len(family))
	}
	o.AmountAddPlaces = n * hotelAddPlace * float64(addPlaces)
	o.AmountChildren = n * hotelChild * float64(children)
	o.AmountAdult = float64(adults)
	o.TotalGuestsCount = adults + children
	o.Amount = o.AmountRooms + o.AmountAddPlaces + o.AmountChildren
	b.err = putOrder(b.ctx, b.tx, hotelMeta(o, client, st.canceled, st.canceled), o)
	if b.err == nil && !st.canceled {
		b.err = b.s.takeNights(b.ctx, b.tx, in, out, len(rooms), len(family), 1)
	}
}

// releaseAll gives back what a client's live orders hold.
func (s *Sandbox) releaseAll(ctx context.Context, tx *sql.Tx, client string) error {
	err := eachLive(ctx, tx, kindLesson, client, func(l stored[gateway.LessonOrder]) error {
		return s.takeLesson(ctx, tx, l.Meta.Ref, -1)
	})
	if err != nil {
		return err
	}
	for _, kind := range []string{kindPavilion, kindRoom} {
		rents, err := s.listRents(ctx, tx, kind, client)
		if err != nil {
			return err
		}
		for _, r := range rents {
			if !r.Meta.Canceled {
				if err := s.markHours(ctx, tx, kind, r.Order, 0); err != nil {
					return err
				}
			}
		}
	}
	err = eachLive(ctx, tx, kindAqua, client, func(a stored[gateway.AquaOrder]) error {
		return s.takeSession(ctx, tx, a.Meta.Ref, -activeTickets(a.Order))
	})
	if err != nil {
		return err
	}
	return eachLive(ctx, tx, kindHotel, client, func(h stored[gateway.HotelOrder]) error {
		return s.takeNights(ctx, tx, s.parseDT(h.Order.HourBeg), s.parseDT(h.Order.HourEnd),
			len(h.Order.Rooms), len(h.Order.FamilyRooms), -1)
	})
}

// eachLive calls f on every order of kind of client that is not canceled,
// in listOrders' order, and stops at its first error.
func eachLive[O any](ctx context.Context, q querier, kind, client string, f func(stored[O]) error) error {
	list, err := listOrders[O](ctx, q, kind, client)
	if err != nil {
		return err
	}
	for _, o := range list {
		if !o.Meta.Canceled {
			if err := f(o); err != nil {
				return err
			}
		}
	}
	return nil
}
