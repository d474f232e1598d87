package sandbox

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"lk/gateway"
	"lk/internal/testkit"
)

func TestSignInThroughOutbox(t *testing.T) {
	e := newEnv(t)
	token := e.signIn(DemoPhone)
	if !regexp.MustCompile(`^[0-9a-f]{64}$`).MatchString(token) {
		t.Fatalf("token %q: want 64 hex digits", token)
	}
	var info gateway.ClientInfoAnswer
	if st := e.do(http.MethodGet, "/v1/auth/getClientInfo", nil, "", token, &info); st != http.StatusOK {
		t.Fatalf("getClientInfo: status %d", st)
	}
	if info.HasErrors || info.ClientInfo == nil {
		t.Fatalf("getClientInfo: %+v", info)
	}
	p := info.ClientInfo.PersonalInfo
	want := gateway.PersonalInfo{FIO: DemoFIO, Email: DemoEmail, Tel: DemoPhone, Birthdate: "15_03_1985", GUID: DemoGUID, Gender: "MALE"}
	if p != want {
		t.Fatalf("personal info %+v, want %+v", p, want)
	}
}

func TestCodeRules(t *testing.T) {
	e := newEnv(t)
	login := func() gateway.Answer {
		var a gateway.Answer
		e.post("/v1/auth/login2f", gateway.LoginRequest{Login: DemoPhone, TypeLogin: 1, TypeCode: 1}, &a)
		return a
	}
	confirm := func(code string) gateway.LoginConfirmAnswer {
		var a gateway.LoginConfirmAnswer
		e.post("/v1/auth/loginConfirm", gateway.LoginConfirmRequest{Login: DemoPhone, VerifyCode: code}, &a)
		return a
	}
	wrongOf := func(code string) string {
		if code == "0000" {
			return "0001"
		}
		return "0000"
	}

	// Unknown phone.
	var a gateway.Answer
	e.post("/v1/auth/login2f", gateway.LoginRequest{Login: "79990001122", TypeLogin: 1, TypeCode: 1}, &a)
	if a.Success || a.ErrorMessage != "Пользователь с таким номером не найден. Зарегистрируйтесь." {
		t.Fatalf("unknown phone: %+v", a)
	}
	if _, found := e.sb.LastCode("79990001122"); found {
		t.Fatal("a code was sent to an unknown phone")
	}
	var nf map[string]any
	if st := e.get("/sandbox/sms/79990001122", nil, &nf); st != http.StatusNotFound {
		t.Fatalf("outbox of an unknown phone: status %d", st)
	}

	// Wrong code refused, the right one still works, and only once.
	mustOK(t, "login2f", login())
	code, found := e.sb.LastCode(DemoPhone)
	if !found || !regexp.MustCompile(`^\d{4}$`).MatchString(code) {
		t.Fatalf("LastCode = %q, %v", code, found)
	}
	if c := confirm(wrongOf(code)); c.Success || c.ErrorMessage != "Неверный код" || c.Token != "" {
		t.Fatalf("wrong code: %+v", c)
	}
	if c := confirm(code); !c.Success || c.Token == "" {
		t.Fatalf("right code: %+v", c)
	}
	if c := confirm(code); c.Success || c.ErrorMessage != "Неверный код" {
		t.Fatalf("reused code: %+v", c)
	}

	// A new code replaces the old one.
	mustOK(t, "login2f", login())
	first, _ := e.sb.LastCode(DemoPhone)
	mustOK(t, "login2f resend", login())
	second, _ := e.sb.LastCode(DemoPhone)
	if first != second {
		if c := confirm(first); c.Success {
			t.Fatal("a replaced code was accepted")
		}
	}
	if c := confirm(second); !c.Success {
		t.Fatalf("latest code: %+v", c)
	}

	// A code expires after 10 minutes.
	mustOK(t, "login2f", login())
	code, _ = e.sb.LastCode(DemoPhone)
	e.clock.Add(10*time.Minute + time.Second)
	if c := confirm(code); c.Success {
		t.Fatal("an expired code was accepted")
	}

	// The code is stored hashed: the codes table has no plaintext.
	mustOK(t, "login2f", login())
	code, _ = e.sb.LastCode(DemoPhone)
	var n int
	if err := e.sb.db.QueryRow(`SELECT count(*) FROM codes WHERE CAST(hash AS TEXT) LIKE '%' || ? || '%'`, code).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Fatal("the codes table holds the plaintext code")
	}

	// Too many wrong entries void the code.
	for range maxCodeAttempts {
		confirm(wrongOf(code))
	}
	if c := confirm(code); c.Success {
		t.Fatal("a code was accepted after too many wrong entries")
	}
}

func TestBearerChecked(t *testing.T) {
	e := newEnv(t)
	for _, token := range []string{"", "nonsense", strings.Repeat("ab", 32)} {
		var info gateway.ClientInfoAnswer
		if st := e.do(http.MethodGet, "/v1/auth/getClientInfo", nil, "", token, &info); st != http.StatusUnauthorized {
			t.Fatalf("getClientInfo with %q: status %d", token, st)
		}
		if !info.HasErrors || info.ResponseDescription != "Сессия истекла. Войдите снова." {
			t.Fatalf("getClientInfo with %q: %+v", token, info)
		}
		var a gateway.Answer
		body := `{"firstName":"А","lastName":"Б","gender":"MALE","birthday":"01.01.1990","userId":"` + DemoGUID + `"}`
		if st := e.do(http.MethodPut, "/v1/auth/clientEditInfo", strings.NewReader(body), "application/json", token, &a); st != http.StatusUnauthorized {
			t.Fatalf("clientEditInfo with %q: status %d", token, st)
		}
		mustFail(t, "clientEditInfo without a session", a)
	}

	token := e.signIn(DemoPhone)
	edit := func(u gateway.ProfileUpdate) gateway.Answer {
		b, _ := json.Marshal(u)
		var a gateway.Answer
		e.do(http.MethodPut, "/v1/auth/clientEditInfo", bytes.NewReader(b), "application/json", token, &a)
		return a
	}
	u := gateway.ProfileUpdate{FirstName: "Иван", LastName: "Сидоров", MiddleName: "Петрович", Gender: "MALE",
		Birthday: "01.02.1990", PhoneNumber: DemoPhone, UserID: OtherGUID}
	mustFail(t, "editing another client", edit(u))
	u.UserID = DemoGUID
	u.Birthday = "31.02.1990"
	mustFail(t, "an impossible birthday", edit(u))
	u.Birthday = "01.02.1990"
	mustOK(t, "clientEditInfo", edit(u))

	var info gateway.ClientInfoAnswer
	e.do(http.MethodGet, "/v1/auth/getClientInfo", nil, "", token, &info)
	if p := info.ClientInfo.PersonalInfo; p.FIO != "Сидоров Иван Петрович" || p.Birthdate != "01_02_1990" || p.Gender != "MALE" {
		t.Fatalf("after edit: %+v", p)
	}

	// Petrov's data did not change.
	other := e.signIn(OtherPhone)
	e.do(http.MethodGet, "/v1/auth/getClientInfo", nil, "", other, &info)
	if info.ClientInfo.PersonalInfo.FIO != OtherFIO {
		t.Fatalf("other client: %+v", info.ClientInfo.PersonalInfo)
	}

	// Tokens last 7 days.
	e.clock.Add(7*24*time.Hour + time.Minute)
	if st := e.do(http.MethodGet, "/v1/auth/getClientInfo", nil, "", token, &info); st != http.StatusUnauthorized {
		t.Fatalf("expired token: status %d", st)
	}
}

func TestRegistrationSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	c := newClock()
	sb, err := New(Config{DataDir: dir, Now: c.Now, Logger: quietLogger()})
	if err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, sb: sb, clock: c}
	e.srv = newServer(t, sb)

	var a gateway.Answer
	reg := gateway.Registration{PhoneNumber: "+7 (901) 111-22-33", FirstName: "Семён", LastName: "Сидоров", TypeCode: 1}
	e.post("/v1/reg/registration", reg, &a)
	mustOK(t, "registration", a)
	e.post("/v1/reg/registration", reg, &a)
	if a.Success || a.ErrorMessage != "Пользователь с таким номером уже зарегистрирован" {
		t.Fatalf("second registration: %+v", a)
	}
	e.post("/v1/reg/registration", gateway.Registration{PhoneNumber: "79012223344", FirstName: "Семён", TypeCode: 1}, &a)
	mustFail(t, "registration without a last name", a)

	e.srv.Close()
	if err := sb.Close(); err != nil {
		t.Fatal(err)
	}

	c.Add(24 * time.Hour) // and a day later
	sb, err = New(Config{DataDir: dir, Now: c.Now, Logger: quietLogger()})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	e.sb = sb
	e.srv = newServer(t, sb)

	token := e.signIn("79011112233")
	var info gateway.ClientInfoAnswer
	e.do(http.MethodGet, "/v1/auth/getClientInfo", nil, "", token, &info)
	p := info.ClientInfo.PersonalInfo
	if p.FIO != "Сидоров Семён" || p.Tel != "79011112233" || len(p.GUID) != 36 {
		t.Fatalf("registered client after restart: %+v", p)
	}
	// The sample orders are there, of all five kinds.
	if len(e.lessons(p.GUID)) == 0 {
		t.Fatal("no sample lessons")
	}
	for _, rp := range []rentPaths{pavilionPaths, roomPaths} {
		if r := e.rents(rp, p.GUID, ""); len(r.Timetable) == 0 {
			t.Fatalf("no sample %s rents", rp.kind)
		}
	}
	var aq gateway.AquaOrdersAnswer
	e.get("/v1/aqua/getAquaOrders", url.Values{"userId": {p.GUID}}, &aq)
	if len(aq.ActiveOrders) == 0 || len(aq.HistoryOrders) == 0 {
		t.Fatalf("sample water-park orders: %+v", aq)
	}
	var h gateway.HotelOrdersAnswer
	e.get("/v1/hotel/getHotelOrders", url.Values{"userId": {p.GUID}}, &h)
	if len(h.ActiveOrders) == 0 {
		t.Fatal("no sample hotel order")
	}
}

func newServer(t *testing.T, sb *Sandbox) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(sb.Handler())
	t.Cleanup(srv.Close)
	return srv
}

func TestDemoOrdersAllKinds(t *testing.T) {
	e := newEnv(t)
	ls := e.lessons(DemoGUID)
	var confirm, transfer, cancel, past, child bool
	sports := map[string]bool{}
	for _, l := range ls {
		if l.ClientID != DemoGUID {
			t.Fatalf("lesson %s of %s", l.DocID, l.ClientID)
		}
		sports[l.KindOfSport] = true
		confirm = confirm || l.CanConfirm
		transfer = transfer || l.CanTransfer
		cancel = cancel || l.CanCancel
		child = child || l.ChildID != ""
		start, _ := time.ParseInLocation(gateway.LayoutDateTime, l.DateBeg, msk)
		past = past || start.Before(e.day(0))
	}
	if !confirm || !transfer || !cancel || !past || !child || !sports["Горные лыжи"] || !sports["Сноуборд"] {
		t.Fatalf("lessons do not cover every flag: %+v", ls)
	}

	for _, rp := range []rentPaths{pavilionPaths, roomPaths} {
		r := e.rents(rp, DemoGUID, "")
		mustOK(t, rp.orders, r.Answer)
		var movable, past bool
		for _, o := range r.Timetable {
			movable = movable || o.CanTransfer && o.CanCancel
			beg, _ := time.ParseInLocation(gateway.LayoutDateTime, o.HourBeg, msk)
			past = past || beg.Before(e.day(0))
			if float64(len(o.Details))*o.Cost != o.Amount {
				t.Fatalf("%s rent %+v: hours × cost ≠ amount", rp.kind, o)
			}
		}
		if len(r.Timetable) < 3 || !movable || !past {
			t.Fatalf("%s rents: %+v", rp.kind, r.Timetable)
		}
	}
	if r := e.rents(pavilionPaths, DemoGUID, DemoPavilionRent); len(r.Timetable) != 1 || r.Timetable[0].PavilionID != PavilionNo3 {
		t.Fatalf("pavilion rent %s: %+v", DemoPavilionRent, r)
	}

	var aq gateway.AquaOrdersAnswer
	e.get("/v1/aqua/getAquaOrders", url.Values{"userId": {DemoGUID}}, &aq)
	mustOK(t, "aqua orders", aq.Answer)
	ids := func(list []gateway.AquaOrder) []string {
		var out []string
		for _, o := range list {
			out = append(out, o.OrderID)
		}
		return out
	}
	active, history := ids(aq.ActiveOrders), ids(aq.HistoryOrders)
	for _, id := range []string{DemoAquaPaid, DemoAquaUnpaid, DemoAquaVIPRefunded, DemoAquaToday} {
		if !slices.Contains(active, id) {
			t.Fatalf("active water-park orders %v lack %s", active, id)
		}
	}
	for _, id := range []string{DemoAquaCanceled, DemoAquaPast} {
		if !slices.Contains(history, id) {
			t.Fatalf("water-park history %v lacks %s", history, id)
		}
	}
	statuses := map[string]bool{}
	var vip, regular, childTicket, weekday, weekend bool
	for _, o := range append(aq.ActiveOrders, aq.HistoryOrders...) {
		for _, tk := range o.Tickets {
			statuses[tk.Status] = true
			vip = vip || strings.HasPrefix(tk.Title, "VIP")
			regular = regular || !strings.HasPrefix(tk.Title, "VIP")
			childTicket = childTicket || tk.IsChild
		}
	}
	for _, o := range aq.ActiveOrders {
		d, _ := time.ParseInLocation(gateway.LayoutDateTime, o.DateBeg, msk)
		weekday = weekday || !gateway.IsWeekend(d)
		weekend = weekend || gateway.IsWeekend(d)
	}
	if len(statuses) != 3 || !vip || !regular || !childTicket || !weekday || !weekend {
		t.Fatalf("water-park tickets do not cover every case: %v vip=%v regular=%v child=%v weekday=%v weekend=%v",
			statuses, vip, regular, childTicket, weekday, weekend)
	}
	unpaid := e.aquaOrder(DemoGUID, DemoAquaUnpaid).CurrentOrder
	if unpaid.Paid || unpaid.PaymentAmount <= 0 || unpaid.PaymentAmount != unpaid.Amount {
		t.Fatalf("unpaid order: %+v", unpaid)
	}
	// Active orders soonest first, history latest first.
	if aq.ActiveOrders[0].OrderID != DemoAquaToday {
		t.Fatalf("first active order %s, want today's %s", aq.ActiveOrders[0].OrderID, DemoAquaToday)
	}

	var h gateway.HotelOrdersAnswer
	e.get("/v1/hotel/getHotelOrders", url.Values{"userId": {DemoGUID}}, &h)
	mustOK(t, "hotel orders", h.Answer)
	if len(h.ActiveOrders) != 2 || len(h.HistoryOrders) != 2 {
		t.Fatalf("hotel: %d active, %d history", len(h.ActiveOrders), len(h.HistoryOrders))
	}
	paid := e.hotelOrder(DemoGUID, DemoHotelPaid).CurrentOrder
	if paid == nil || len(paid.Rooms) == 0 || len(paid.FamilyRooms) == 0 || len(paid.FamilyRooms[0].Childrens) == 0 ||
		paid.Amount != paid.AmountRooms+paid.AmountAddPlaces+paid.AmountChildren || !paid.Paid {
		t.Fatalf("paid hotel order: %+v", paid)
	}
}

func TestOwnership(t *testing.T) {
	e := newEnv(t)
	if a := e.lesson(OtherGUID, DemoLessonConfirmable); a.Success || a.ErrorMessage != "Заказ не найден" || len(a.Timetable) != 0 {
		t.Fatalf("Petrov fetching Ivanov's lesson: %+v", a)
	}
	if a := e.lesson(OtherGUID, OtherLesson); !a.Success || len(a.Timetable) != 1 {
		t.Fatalf("Petrov's own lesson: %+v", a)
	}
	for _, rp := range []rentPaths{pavilionPaths, roomPaths} {
		id := DemoPavilionRent
		if rp.kind == kindRoom {
			id = DemoRoomRent
		}
		if a := e.rents(rp, OtherGUID, id); a.Success || a.ErrorMessage != "Заказ не найден" || len(a.Timetable) != 0 {
			t.Fatalf("Petrov fetching Ivanov's %s: %+v", rp.kind, a)
		}
	}
	if a := e.aquaOrder(OtherGUID, DemoAquaPaid); a.Success || a.ErrorMessage != "Заказ не найден" || a.CurrentOrder != nil {
		t.Fatalf("Petrov fetching Ivanov's water-park order: %+v", a)
	}
	if a := e.aquaOrder(OtherGUID, OtherAqua); !a.Success || a.CurrentOrder == nil || a.CurrentOrder.OrderID != OtherAqua {
		t.Fatalf("Petrov's own water-park order: %+v", a)
	}
	if a := e.hotelOrder(OtherGUID, DemoHotelPaid); a.Success || a.CurrentOrder != nil {
		t.Fatalf("Petrov fetching Ivanov's hotel order: %+v", a)
	}
	// Lists are per client.
	var aq gateway.AquaOrdersAnswer
	e.get("/v1/aqua/getAquaOrders", url.Values{"userId": {OtherGUID}}, &aq)
	for _, o := range append(aq.ActiveOrders, aq.HistoryOrders...) {
		if strings.HasPrefix(o.OrderID, "3000") {
			t.Fatalf("Petrov's list holds Ivanov's order %s", o.OrderID)
		}
	}
	// Actions on another client's booking are refused.
	var a gateway.Answer
	e.post("/v1/GLK/confirmLesson", gateway.ConfirmLessonRequest{ClientID: OtherGUID, LessonID: DemoLessonConfirmable}, &a)
	mustFail(t, "Petrov confirming Ivanov's lesson", a)
	e.post("/v1/Rent/cancelPavilionRent", gateway.CancelRentRequest{ClientID: OtherGUID, RentID: DemoPavilionRent, Amount: 6000}, &a)
	mustFail(t, "Petrov canceling Ivanov's rent", a)
}

func TestLessonActions(t *testing.T) {
	e := newEnv(t)
	var a gateway.Answer

	// Confirm.
	e.post("/v1/GLK/confirmLesson", gateway.ConfirmLessonRequest{ClientID: DemoGUID, LessonID: DemoLessonConfirmable}, &a)
	mustOK(t, "confirmLesson", a)
	if l := e.lesson(DemoGUID, DemoLessonConfirmable).Timetable[0]; l.CanConfirm {
		t.Fatal("canConfirm still true after confirming")
	}
	e.post("/v1/GLK/confirmLesson", gateway.ConfirmLessonRequest{ClientID: DemoGUID, LessonID: DemoLessonConfirmable}, &a)
	mustFail(t, "confirming twice", a)

	// Cancel.
	e.post("/v1/GLK/cancelRegistration", gateway.CancelLessonRequest{ClientID: DemoGUID, LessonID: DemoLessonConfirmable, Sum: 2500}, &a)
	mustFail(t, "canceling a lesson without canCancel", a)
	e.post("/v1/GLK/cancelRegistration", gateway.CancelLessonRequest{ClientID: DemoGUID, LessonID: DemoLessonCancelable, Sum: 2800}, &a)
	mustOK(t, "cancelRegistration", a)
	if l := e.lesson(DemoGUID, DemoLessonCancelable); l.Success {
		t.Fatal("a canceled lesson is still found")
	}
	for _, l := range e.lessons(DemoGUID) {
		if l.DocID == DemoLessonCancelable {
			t.Fatal("a canceled lesson is still listed")
		}
	}

	// Transfer to another lesson of the same sport and age group.
	old := e.lesson(DemoGUID, DemoLessonTransferable).Timetable[0]
	var target, otherSport gateway.Lesson
	for d := 1; d < Window && (target.LessonID == "" || otherSport.LessonID == ""); d++ {
		var tt gateway.TimetableAnswer
		e.get("/v1/GLK/getTimetable", url.Values{"trainerId": {old.TrainerID}, "date": {e.day(d).Format(gateway.LayoutDate)}}, &tt)
		mustOK(t, "getTimetable", tt.Answer)
		for _, l := range tt.Timetable {
			switch {
			case l.KindOfSport == old.KindOfSport && l.AgeGroupHigh == old.AgeGroupHigh && l.FreePlaces > 1 &&
				l.DateBeg != old.DateBeg && target.LessonID == "":
				target = l
			case l.KindOfSport != old.KindOfSport && l.FreePlaces > 0:
				otherSport = l
			}
		}
	}
	if target.LessonID == "" || otherSport.LessonID == "" {
		t.Fatal("no lessons to move to")
	}
	var ch gateway.ChangeLessonAnswer
	e.post("/v1/GLK/changeLessonPeriod", gateway.ChangeLessonRequest{ClientID: DemoGUID, LessonID: old.DocID,
		NewLessonID: otherSport.LessonID, Amount: old.Cost, NewLessonDate: otherSport.DateBeg, AgeGroupCode: old.AgeGroupHigh}, &ch)
	mustFail(t, "moving to another sport", ch.Answer)
	e.post("/v1/GLK/changeLessonPeriod", gateway.ChangeLessonRequest{ClientID: DemoGUID, LessonID: DemoLessonConfirmable,
		NewLessonID: target.LessonID, Amount: old.Cost, NewLessonDate: target.DateBeg, AgeGroupCode: old.AgeGroupHigh}, &ch)
	mustFail(t, "moving a lesson without canTransfer", ch.Answer)

	e.post("/v1/GLK/changeLessonPeriod", gateway.ChangeLessonRequest{ClientID: DemoGUID, LessonID: old.DocID,
		NewLessonID: target.LessonID, Amount: old.Cost, NewLessonDate: target.DateBeg, AgeGroupCode: old.AgeGroupHigh}, &ch)
	mustOK(t, "changeLessonPeriod", ch.Answer)
	if ch.NewLessonID == "" || ch.NewLessonID == old.DocID {
		t.Fatalf("newLessonId %q", ch.NewLessonID)
	}
	if l := e.lesson(DemoGUID, old.DocID); l.Success {
		t.Fatal("the old booking still exists")
	}
	moved := e.lesson(DemoGUID, ch.NewLessonID)
	if !moved.Success || moved.Timetable[0].DateBeg != target.DateBeg || moved.Timetable[0].TrainerID != target.TrainerID {
		t.Fatalf("moved booking: %+v", moved)
	}
	var tt gateway.TimetableAnswer
	targetDay, _ := time.ParseInLocation(gateway.LayoutDateTime, target.DateBeg, msk)
	e.get("/v1/GLK/getTimetable", url.Values{"trainerId": {target.TrainerID}, "date": {targetDay.Format(gateway.LayoutDate)}}, &tt)
	for _, l := range tt.Timetable {
		if l.LessonID == target.LessonID && l.FreePlaces != target.FreePlaces-1 {
			t.Fatalf("free places %d → %d, want one fewer", target.FreePlaces, l.FreePlaces)
		}
	}
}

// freeBlock finds a day and start hour where n hours are free, skipping skipDay.
func (e *env) freeBlock(p rentPaths, facility string, n int, skipDay string) (time.Time, bool) {
	for d := 1; d < Window; d++ {
		day := e.day(d)
		if day.Format(gateway.LayoutDate) == skipDay {
			continue
		}
		sch := e.schedule(p, facility, day)
		for _, h := range sch.Details {
			t, _ := time.ParseInLocation(gateway.LayoutISO, h.Hour, msk)
			if gateway.CheckSlotPeriod(sch, t, t.Add(time.Duration(n-1)*time.Hour), float64(n)*sch.Cost) == nil {
				return t, true
			}
		}
	}
	return time.Time{}, false
}

func TestRentActions(t *testing.T) {
	for _, p := range []rentPaths{pavilionPaths, roomPaths} {
		t.Run(p.kind, func(t *testing.T) {
			e := newEnv(t)
			movable, fixed := DemoPavilionRent, DemoPavilionCancelOnly
			if p.kind == kindRoom {
				movable, fixed = DemoRoomRent, DemoRoomFixed
			}
			old := e.rents(p, DemoGUID, movable).Timetable[0]
			fac := old.PavilionID + old.RoomID
			hours := len(old.Details)
			oldBeg, _ := time.ParseInLocation(gateway.LayoutDateTime, old.HourBeg, msk)

			change := func(id string, beg, end time.Time, amount float64) gateway.ChangeRentAnswer {
				body := map[string]any{"clientId": DemoGUID, "rentId": id, "newRentDateBeg": beg.Format(gateway.LayoutISO),
					"newRentDateEnd": end.Format(gateway.LayoutISO), "amount": amount}
				if p.kind == kindRoom {
					body["celRoomId"], body["celRoomName"] = fac, "зал"
				} else {
					body["pavilionId"], body["pavilionName"] = fac, "беседка"
				}
				var a gateway.ChangeRentAnswer
				e.post("/v1/"+p.change, body, &a)
				return a
			}

			beg, found := e.freeBlock(p, fac, hours, oldBeg.Format(gateway.LayoutDate))
			if !found {
				t.Fatal("no free block")
			}
			end := beg.Add(time.Duration(hours) * time.Hour)
			mustFail(t, "a period of the wrong length", change(movable, beg, end.Add(-time.Hour), old.Amount).Answer)
			mustFail(t, "a wrong amount", change(movable, beg, end, old.Amount+old.Cost).Answer)
			mustFail(t, "a rent without canTransfer", change(fixed, beg, end, old.Amount).Answer)
			// A period with a busy hour is refused.
			for d := 1; d < Window; d++ {
				sch := e.schedule(p, fac, e.day(d))
				for _, h := range sch.Details[:len(sch.Details)-hours+1] {
					hb, _ := time.ParseInLocation(gateway.LayoutISO, h.Hour, msk)
					if h.Status == 1 && hb.Format(gateway.LayoutDate) != oldBeg.Format(gateway.LayoutDate) {
						mustFail(t, "a period with busy hours", change(movable, hb, hb.Add(time.Duration(hours)*time.Hour), old.Amount).Answer)
						d = Window
						break
					}
				}
			}

			a := change(movable, beg, end, old.Amount)
			mustOK(t, p.change, a.Answer)
			if a.NewRentID == "" || a.NewRentID == movable {
				t.Fatalf("newRentId %q", a.NewRentID)
			}
			if r := e.rents(p, DemoGUID, movable); r.Success {
				t.Fatal("the old rent is still found")
			}
			moved := e.rents(p, DemoGUID, a.NewRentID)
			if !moved.Success || moved.Timetable[0].HourBeg != beg.Format(gateway.LayoutDateTime) ||
				moved.Timetable[0].Details[0].RentID != a.NewRentID || moved.Timetable[0].Amount != old.Amount {
				t.Fatalf("moved rent: %+v", moved)
			}
			for _, h := range e.schedule(p, fac, beg).Details {
				hb, _ := time.ParseInLocation(gateway.LayoutISO, h.Hour, msk)
				if !hb.Before(beg) && hb.Before(end) && h.Status != 1 {
					t.Fatalf("hour %s of the new rent is not busy", h.Hour)
				}
			}
			for _, h := range e.schedule(p, fac, oldBeg).Details {
				if h.Hour == oldBeg.Format(gateway.LayoutISO) && h.Status != 0 {
					t.Fatalf("hour %s of the old rent is still busy", h.Hour)
				}
			}

			// Cancel.
			var c gateway.Answer
			e.post("/v1/"+p.cancel, gateway.CancelRentRequest{ClientID: DemoGUID, RentID: a.NewRentID, Amount: old.Amount}, &c)
			mustOK(t, p.cancel, c)
			if r := e.rents(p, DemoGUID, a.NewRentID); r.Success {
				t.Fatal("a canceled rent is still found")
			}
			e.post("/v1/"+p.cancel, gateway.CancelRentRequest{ClientID: DemoGUID, RentID: a.NewRentID, Amount: old.Amount}, &c)
			mustFail(t, "canceling twice", c)
		})
	}
}

func TestRentRefundStored(t *testing.T) {
	e := newEnv(t)
	item := e.rents(pavilionPaths, DemoGUID, DemoPavilionRent).Timetable[0]
	pdf := []byte("%PDF-1.4 справка")
	body := map[string]any{
		"documents":  []gateway.File{{FileName: "справка", FileExtension: "pdf", File: base64.StdEncoding.EncodeToString(pdf)}},
		"rentItem":   item,
		"formRefund": gateway.RefundForm{Name: "Иван", Surname: "Иванов", Email: DemoEmail, Phone: DemoPhone, OrderID: DemoPavilionRent, Comment: "Болезнь"},
	}
	var a gateway.Answer
	e.post("/v1/Rent/registerRefund", body, &a)
	mustOK(t, "Rent/registerRefund", a)
	if a.Message != msgRefundOK {
		t.Fatalf("message %q", a.Message)
	}
	e.post("/v1/Rent/registerRefund", body, &a)
	mustFail(t, "refunding twice", a)
	past := e.rents(pavilionPaths, DemoGUID, DemoPavilionPast).Timetable[0]
	e.post("/v1/Rent/registerRefund", map[string]any{"documents": body["documents"], "rentItem": past, "formRefund": body["formRefund"]}, &a)
	mustFail(t, "refunding a past rent", a)
	if r := e.rents(pavilionPaths, DemoGUID, DemoPavilionRent); r.Success {
		t.Fatal("a refunded rent is still live")
	}
	refunds := e.sb.Refunds()
	if len(refunds) != 1 {
		t.Fatalf("%d refunds stored", len(refunds))
	}
	r := refunds[0]
	if r.Path != "Rent/registerRefund" || r.OrderID != DemoPavilionRent || r.Form == nil || r.Form.Comment != "Болезнь" ||
		len(r.Documents) != 1 || r.Documents[0].Size != len(pdf) || r.Documents[0].Extension != "pdf" {
		t.Fatalf("stored refund: %+v", r)
	}
	if bytes.Contains(r.Body, []byte(base64.StdEncoding.EncodeToString(pdf))) {
		t.Fatal("the stored body keeps the file content")
	}
	// The same list over HTTP.
	var list []StoredRefund
	e.get("/sandbox/refunds", nil, &list)
	if len(list) != 1 || list[0].Documents[0].Size != len(pdf) {
		t.Fatalf("/sandbox/refunds: %+v", list)
	}
}

func TestAquaActions(t *testing.T) {
	e := newEnv(t)
	o := e.aquaOrder(DemoGUID, DemoAquaPaid).CurrentOrder
	visit, _ := time.ParseInLocation(gateway.LayoutDateTime, o.DateBeg, msk)
	if gateway.IsWeekend(visit) {
		t.Fatalf("%s is on a weekend", DemoAquaPaid)
	}
	sessions := func(day time.Time) []gateway.AquaSession {
		var a gateway.AquaSessionsAnswer
		e.get("/v1/aqua/getSessionsAqua", url.Values{"date": {day.Format(gateway.LayoutDate)}}, &a)
		mustOK(t, "getSessionsAqua", a.Answer)
		return a.Result
	}
	if s := sessions(e.day(0)); len(s) != 4 {
		t.Fatalf("sessions today: %+v", s)
	}
	transfer := func(day time.Time, sid string) gateway.Answer {
		var a gateway.Answer
		e.post("/v1/aqua/transferTicket", gateway.TransferTicketRequest{OrderID: DemoAquaPaid, Date: day.Format(gateway.LayoutDate), SessionID: sid}, &a)
		return a
	}
	var weekend, weekday time.Time
	var weekendSess, weekdaySess, vipSess string
	for d := 1; d <= 30; d++ {
		day := e.day(d)
		for _, s := range sessions(day) {
			vip := strings.HasPrefix(s.Name, "VIP")
			switch {
			case vip && s.AvailableCount >= 3 && !gateway.IsWeekend(day) && vipSess == "":
				vipSess = s.SessionID
			case !vip && s.AvailableCount >= 3 && gateway.IsWeekend(day) && weekendSess == "":
				weekend, weekendSess = day, s.SessionID
			case !vip && s.AvailableCount >= 3 && !gateway.IsWeekend(day) && weekdaySess == "" && day.Format(gateway.LayoutDate) != visit.Format(gateway.LayoutDate):
				weekday, weekdaySess = day, s.SessionID
			}
		}
	}
	if weekendSess == "" || weekdaySess == "" || vipSess == "" {
		t.Fatal("no sessions to move to")
	}
	mustFail(t, "a weekday ticket to a weekend", transfer(weekend, weekendSess))
	mustFail(t, "regular tickets to a VIP session", transfer(weekday, vipSess))
	mustFail(t, "a session of another day", transfer(weekday, weekendSess))
	mustFail(t, "beyond 30 days", transfer(e.day(31), weekdaySess))
	before := 0
	for _, s := range sessions(weekday) {
		if s.SessionID == weekdaySess {
			before = s.AvailableCount
		}
	}
	mustOK(t, "transferTicket", transfer(weekday, weekdaySess))
	moved := e.aquaOrder(DemoGUID, DemoAquaPaid).CurrentOrder
	if !strings.HasPrefix(moved.DateBeg, weekday.Format(gateway.LayoutDate)) {
		t.Fatalf("moved order date %s, want %s", moved.DateBeg, weekday.Format(gateway.LayoutDate))
	}
	for _, s := range sessions(weekday) {
		if s.SessionID == weekdaySess && s.AvailableCount != before-len(o.Tickets) {
			t.Fatalf("available %d → %d for %d tickets", before, s.AvailableCount, len(o.Tickets))
		}
		if s.SessionID == weekdaySess && !strings.HasPrefix(moved.Tickets[0].Session, s.Name+" ") {
			t.Fatalf("ticket session %q, want %q", moved.Tickets[0].Session, s.Name)
		}
	}

	// Refund one ticket.
	tk := moved.Tickets[0]
	product := gateway.RefundProduct{ProductID: tk.ProductUID, Barcode: tk.Barcode, Price: tk.Price, Name: tk.Title,
		EventDate: "Дата: " + weekday.Format(gateway.LayoutDate), PositionNumber: tk.TicketNumber}
	var a gateway.Answer
	e.post("/v1/aqua/registerRefund1C", gateway.AquaRefundRequest{ReturnOrderID: DemoAquaPaid, Products: []gateway.RefundProduct{product}}, &a)
	mustOK(t, "registerRefund1C", a)
	if a.Message != msgRefundOK {
		t.Fatalf("message %q", a.Message)
	}
	after := e.aquaOrder(DemoGUID, DemoAquaPaid).CurrentOrder
	if after.Tickets[0].Status != gateway.TicketRefunded || after.Amount != moved.Amount-tk.Price || after.Canceled {
		t.Fatalf("after refund: %+v", after)
	}
	e.post("/v1/aqua/registerRefund1C", gateway.AquaRefundRequest{ReturnOrderID: DemoAquaPaid, Products: []gateway.RefundProduct{product}}, &a)
	mustFail(t, "refunding a refunded ticket", a)

	// Waiting tickets cannot be refunded.
	unpaid := e.aquaOrder(DemoGUID, DemoAquaUnpaid).CurrentOrder
	e.post("/v1/aqua/registerRefund1C", gateway.AquaRefundRequest{ReturnOrderID: DemoAquaUnpaid,
		Products: []gateway.RefundProduct{{ProductID: unpaid.Tickets[0].ProductUID, Barcode: unpaid.Tickets[0].Barcode}}}, &a)
	mustFail(t, "refunding a ticket waiting for payment", a)

	// Today's visit needs a reason and documents; refunding its only ticket cancels it.
	today := e.aquaOrder(DemoGUID, DemoAquaToday).CurrentOrder
	req := gateway.AquaRefundRequest{ReturnOrderID: DemoAquaToday,
		Products: []gateway.RefundProduct{{ProductID: today.Tickets[0].ProductUID, Barcode: today.Tickets[0].Barcode, Price: today.Tickets[0].Price}}}
	e.post("/v1/aqua/registerRefund1C", req, &a)
	mustFail(t, "a same-day refund without documents", a)
	req.FormRefund = &gateway.RefundForm{Name: "Иван", Surname: "Иванов", Phone: DemoPhone, OrderID: DemoAquaToday, Comment: "Заболел ребёнок"}
	req.Documents = []gateway.File{{FileName: "больничный", FileExtension: "jpg", File: base64.StdEncoding.EncodeToString(make([]byte, 1234))}}
	e.post("/v1/aqua/registerRefund1C", req, &a)
	mustOK(t, "a same-day refund with documents", a)
	if c := e.aquaOrder(DemoGUID, DemoAquaToday).CurrentOrder; !c.Canceled || c.Amount != 0 || c.CanCancel {
		t.Fatalf("fully refunded order: %+v", c)
	}
	refunds := e.sb.Refunds()
	if len(refunds) != 2 || refunds[1].Documents[0].Size != 1234 || refunds[1].Products[0].ProductID != today.Tickets[0].ProductUID {
		t.Fatalf("stored refunds: %+v", refunds)
	}
}

func TestHotelActions(t *testing.T) {
	e := newEnv(t)
	o := e.hotelOrder(DemoGUID, DemoHotelPaid).CurrentOrder
	in, _ := time.ParseInLocation(gateway.LayoutDateTime, o.HourBeg, msk)
	out, _ := time.ParseInLocation(gateway.LayoutDateTime, o.HourEnd, msk)
	nights := int(dayOf(out).Sub(dayOf(in)).Hours() / 24)

	var dates gateway.HotelDatesAnswer
	e.postForm("/v1/hotel/getDates", url.Values{"dateIn": {e.day(0).Format(gateway.LayoutISODate)},
		"dateOut": {e.day(HotelWindow - 1).Format(gateway.LayoutISODate)}}, &dates)
	mustOK(t, "getDates", dates.Answer)
	if len(dates.DateList.Days) != HotelWindow {
		t.Fatalf("%d days listed", len(dates.DateList.Days))
	}
	ok := func(d gateway.HotelDay) bool {
		return d.Vacant >= len(o.Rooms) && d.Family >= len(o.FamilyRooms)
	}
	full := false
	start, dearer := -1, -1 // a free period at the order's price, and one at another price
	prices := map[float64]bool{}
	for i, d := range dates.DateList.Days {
		full = full || d.Vacant == 0 && d.Family == 0
		prices[d.Price] = true
		if i >= 1 && i+nights <= len(dates.DateList.Days) && d.Period != in.Format(gateway.LayoutISODate) {
			all, sum := true, 0.0
			for _, n := range dates.DateList.Days[i : i+nights] {
				all = all && ok(n)
				sum += n.Price*float64(len(o.Rooms)) + n.PriceFamily*float64(len(o.FamilyRooms))
			}
			switch {
			case all && sum == o.AmountRooms && start < 0:
				start = i
			case all && sum != o.AmountRooms && dearer < 0:
				dearer = i
			}
		}
	}
	if !full || start < 0 || dearer < 0 || len(prices) < 2 {
		t.Fatalf("availability: full day %v, a free period %v, one at another price %v, prices %v", full, start >= 0, dearer >= 0, prices)
	}
	push := func(id string, from time.Time, n int) gateway.Answer {
		var a gateway.Answer
		e.post("/v1/hotel/pushReservation", gateway.PushReservationRequest{OrderID: id,
			NewDateIn: at(from, 16, 0).Format(gateway.LayoutISO), NewDateOut: at(addDays(from, n), 14, 0).Format(gateway.LayoutISO)}, &a)
		return a
	}
	newIn, _ := time.ParseInLocation(gateway.LayoutISODate, dates.DateList.Days[start].Period, msk)
	mustFail(t, "a longer stay than paid", push(DemoHotelPaid, newIn, nights+1))
	otherIn, _ := time.ParseInLocation(gateway.LayoutISODate, dates.DateList.Days[dearer].Period, msk)
	mustFail(t, "a stay of the same length at another price", push(DemoHotelPaid, otherIn, nights))
	mustFail(t, "moving an unpaid order without canTransfer", push(DemoHotelUnpaid, newIn, 2))
	mustOK(t, "pushReservation", push(DemoHotelPaid, newIn, nights))
	if m := e.hotelOrder(DemoGUID, DemoHotelPaid).CurrentOrder; m.HourBeg != at(newIn, 16, 0).Format(gateway.LayoutDateTime) {
		t.Fatalf("moved stay begins %s", m.HourBeg)
	}

	// Cancel, then register the refund (the app's order of calls).
	var a gateway.Answer
	e.postForm("/v1/hotel/cancelOrder", url.Values{"OrderId": {DemoHotelUnpaid}}, &a)
	mustOK(t, "cancelOrder", a)
	if c := e.hotelOrder(DemoGUID, DemoHotelUnpaid).CurrentOrder; !c.Canceled || c.CanCancel || c.CanTransfer {
		t.Fatalf("canceled order: %+v", c)
	}
	e.postForm("/v1/hotel/cancelOrder", url.Values{"OrderId": {DemoHotelUnpaid}}, &a)
	mustFail(t, "canceling twice", a)
	ref := gateway.HotelRefundRequest{Documents: []gateway.File{}, OrderID: DemoHotelUnpaid,
		FormRefund: gateway.RefundForm{Name: "Иван", Surname: "Иванов", Email: DemoEmail, Phone: DemoPhone, OrderID: DemoHotelUnpaid}}
	e.post("/v1/hotel/registerRefund", ref, &a)
	mustOK(t, "hotel/registerRefund", a)
	e.post("/v1/hotel/registerRefund", ref, &a)
	mustFail(t, "refunding twice", a)
	if r := e.sb.Refunds(); len(r) != 1 || r[0].Path != "hotel/registerRefund" || r[0].OrderID != DemoHotelUnpaid || len(r[0].Documents) != 0 {
		t.Fatalf("stored refunds: %+v", r)
	}
	// A canceled stay is no longer active; a past one cannot be refunded.
	e.post("/v1/hotel/registerRefund", gateway.HotelRefundRequest{Documents: []gateway.File{}, OrderID: DemoHotelPast,
		FormRefund: gateway.RefundForm{Comment: "Не понравилось"}}, &a)
	mustFail(t, "refunding a past stay", a)
	var h gateway.HotelOrdersAnswer
	e.get("/v1/hotel/getHotelOrders", url.Values{"userId": {DemoGUID}}, &h)
	for _, o := range h.ActiveOrders {
		if o.OrderID == DemoHotelUnpaid {
			t.Fatal("a canceled stay is still active")
		}
	}
}

func TestPDFs(t *testing.T) {
	e := newEnv(t)
	for _, c := range []struct{ path, id string }{
		{"/v1/aqua/generatePdf", DemoAquaPaid},
		{"/v1/hotel/generatePdf", DemoHotelPaid},
	} {
		resp, err := http.Get(e.srv.URL + c.path + "?orderId=" + c.id)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/pdf" || !bytes.HasPrefix(body, []byte("%PDF-")) {
			t.Fatalf("%s: status %d, type %q, body %.20q", c.path, resp.StatusCode, resp.Header.Get("Content-Type"), body)
		}
		var a gateway.Answer
		if st := e.get(c.path, url.Values{"orderId": {"nope"}}, &a); st != http.StatusNotFound || a.Success {
			t.Fatalf("%s of an unknown order: status %d, %+v", c.path, st, a)
		}
	}
}

func TestFaults(t *testing.T) {
	e := newEnv(t)
	const path = "aqua/getAquaOrders"
	q := url.Values{"userId": {DemoGUID}}
	// No keep-alive: Go's transport silently retries an idempotent request
	// whose reused connection was closed, which would hide a one-time drop.
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	get := func() (int, []byte, error) {
		resp, err := client.Get(e.srv.URL + "/v1/" + path + "?" + q.Encode())
		if err != nil {
			return 0, nil, err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		return resp.StatusCode, b, err
	}

	e.sb.SetFault(path, Fault{Status: http.StatusInternalServerError, Times: 1})
	if st, _, err := get(); err != nil || st != http.StatusInternalServerError {
		t.Fatalf("status fault: %d, %v", st, err)
	}
	if st, _, err := get(); err != nil || st != http.StatusOK {
		t.Fatalf("after a one-time fault: %d, %v", st, err)
	}

	e.sb.SetFault("/v1/"+path, Fault{Malformed: true})
	for range 2 {
		st, body, err := get()
		if err != nil || st != http.StatusOK || json.Valid(body) {
			t.Fatalf("malformed fault: %d, %v, %s", st, err, body)
		}
	}

	e.sb.SetFault(path, Fault{Drop: true, Times: 1})
	if _, _, err := get(); err == nil {
		t.Fatal("drop fault: the call succeeded")
	}

	e.sb.SetFault(path, Fault{Delay: 20 * time.Millisecond, Times: 1})
	if st, body, err := get(); err != nil || st != http.StatusOK || !json.Valid(body) {
		t.Fatalf("delay fault: %d, %v", st, err)
	}

	if n := e.sb.AllCalls()[path]; n != 6 {
		t.Fatalf("Calls = %d, want 6", n)
	}
	e.sb.Reset()
	if n := e.sb.AllCalls()[path]; n != 0 {
		t.Fatalf("Calls after Reset = %d", n)
	}

	// The same over HTTP.
	var a map[string]any
	if st := e.post("/sandbox/faults", map[string]any{"path": path, "status": 503, "times": 2}, &a); st != http.StatusOK {
		t.Fatalf("POST /sandbox/faults: %d", st)
	}
	for range 2 {
		if st, _, _ := get(); st != http.StatusServiceUnavailable {
			t.Fatalf("fault set over HTTP: %d", st)
		}
	}
	if st, _, _ := get(); st != http.StatusOK {
		t.Fatalf("after two faulted calls: %d", st)
	}
	var calls map[string]int
	e.get("/sandbox/calls", nil, &calls)
	if calls[path] != 3 {
		t.Fatalf("/sandbox/calls: %v", calls)
	}
	e.post("/sandbox/faults", map[string]any{"path": path, "drop": true}, &a)
	e.post("/sandbox/reset", nil, &a)
	if st, _, err := get(); err != nil || st != http.StatusOK {
		t.Fatalf("after reset: %d, %v", st, err)
	}
}

func TestSeedFollowsToday(t *testing.T) {
	dir := t.TempDir()
	c := newClock()
	open := func() (*Sandbox, *env) {
		sb, err := New(Config{DataDir: dir, Now: c.Now, Logger: quietLogger()})
		if err != nil {
			t.Fatal(err)
		}
		e := &env{t: t, sb: sb, clock: c}
		e.srv = newServer(t, sb)
		return sb, e
	}
	sb, e := open()
	if d := e.aquaOrder(DemoGUID, DemoAquaToday).CurrentOrder.DateBeg; !strings.HasPrefix(d, "11.03.2026") {
		t.Fatalf("today's order on %s", d)
	}
	var a gateway.Answer
	e.post("/v1/reg/registration", gateway.Registration{PhoneNumber: "79015556677", FirstName: "Анна", LastName: "Орлова", TypeCode: 1}, &a)
	mustOK(t, "registration", a)
	var guid string
	if err := sb.db.QueryRow(`SELECT guid FROM clients WHERE phone = '79015556677'`).Scan(&guid); err != nil {
		t.Fatal(err)
	}
	var before gateway.AquaOrdersAnswer
	e.get("/v1/aqua/getAquaOrders", url.Values{"userId": {guid}}, &before)
	// A demo change that the next day's seeding undoes.
	e.post("/v1/GLK/confirmLesson", gateway.ConfirmLessonRequest{ClientID: DemoGUID, LessonID: DemoLessonConfirmable}, &a)
	mustOK(t, "confirmLesson", a)
	sb.Close()

	// The same day again: nothing is re-seeded.
	sb, e = open()
	if e.lesson(DemoGUID, DemoLessonConfirmable).Timetable[0].CanConfirm {
		t.Fatal("re-seeded on the same day")
	}
	sb.Close()

	c.Add(3 * 24 * time.Hour)
	sb, e = open()
	defer sb.Close()
	if d := e.aquaOrder(DemoGUID, DemoAquaToday).CurrentOrder.DateBeg; !strings.HasPrefix(d, "14.03.2026") {
		t.Fatalf("today's order on %s after three days", d)
	}
	if !e.lesson(DemoGUID, DemoLessonConfirmable).Timetable[0].CanConfirm {
		t.Fatal("the demo lesson was not re-seeded")
	}
	var after gateway.AquaOrdersAnswer
	e.get("/v1/aqua/getAquaOrders", url.Values{"userId": {guid}}, &after)
	if len(after.ActiveOrders)+len(after.HistoryOrders) != len(before.ActiveOrders)+len(before.HistoryOrders) ||
		after.ActiveOrders[0].DateBeg != before.ActiveOrders[0].DateBeg {
		t.Fatalf("the registered client's orders changed: %+v → %+v", before, after)
	}
	// The reference window moved too.
	last := e.day(Window - 1)
	var s gateway.AquaSessionsAnswer
	e.get("/v1/aqua/getSessionsAqua", url.Values{"date": {last.Format(gateway.LayoutDate)}}, &s)
	if len(s.Result) != 4 {
		t.Fatalf("sessions on the window's last day: %+v", s)
	}
	e.get("/v1/aqua/getSessionsAqua", url.Values{"date": {e.day(-1).Format(gateway.LayoutDate)}}, &s)
	if len(s.Result) != 0 {
		t.Fatalf("sessions yesterday: %+v", s)
	}

	// A running sandbox notices midnight too.
	c.Add(24 * time.Hour)
	if d := e.aquaOrder(DemoGUID, DemoAquaToday).CurrentOrder.DateBeg; !strings.HasPrefix(d, "15.03.2026") {
		t.Fatalf("today's order on %s after midnight", d)
	}
}

func TestConcurrentUse(t *testing.T) {
	e := newEnv(t)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequest(http.MethodGet, e.srv.URL+"/v1/aqua/getAquaOrders?userId="+DemoGUID, nil)
			if i%2 == 0 {
				b, _ := json.Marshal(gateway.LoginRequest{Login: DemoPhone, TypeLogin: 1, TypeCode: 1})
				req, _ = http.NewRequest(http.MethodPost, e.srv.URL+"/v1/auth/login2f", bytes.NewReader(b))
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Errorf("status %d", resp.StatusCode)
			}
		}()
	}
	wg.Wait()
	if n := e.sb.AllCalls()["auth/login2f"]; n != 4 {
		t.Fatalf("Calls = %d", n)
	}
}

func TestStart(t *testing.T) {
	sb, err := New(Config{Logger: quietLogger()})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	ctx, cancel := context.WithCancel(context.Background())
	srv, err := sb.Start(ctx, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get("http://" + srv.Addr + "/sandbox/calls")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	cancel()
}

// On New Year's Eve every day a booking can move to has its reference data:
// a month ahead is 31.01, the longest window, and the hotel's nights run to
// the end of February and a month's stay past the window.
func TestReferenceDataCoversTheLongestWindow(t *testing.T) {
	e := newEnvAt(t, testkit.NewClock(time.Date(2026, 12, 31, 23, 59, 0, 0, msk)))
	_, last := gateway.TransferWindow(e.clock.Now())
	if got := last.Format(gateway.LayoutDate); got != "31.01.2027" {
		t.Fatalf("the window ends on %s", got)
	}
	var s gateway.AquaSessionsAnswer
	if e.get("/v1/aqua/getSessionsAqua", url.Values{"date": {"31.01.2027"}}, &s); len(s.Result) != len(aquaKinds) {
		t.Errorf("water-park sessions on 31.01.2027: %d", len(s.Result))
	}
	var tt gateway.TimetableAnswer
	if e.get("/v1/GLK/getTimetable", url.Values{"trainerId": {TrainerSmirnova}, "date": {"31.01.2027"}}, &tt); len(tt.Timetable) != len(lessonHours) {
		t.Errorf("lessons on 31.01.2027: %d", len(tt.Timetable))
	}
	for _, rp := range []rentPaths{pavilionPaths, roomPaths} {
		if sch := e.schedule(rp, map[string]string{kindPavilion: PavilionNo1, kindRoom: RoomSnowflake}[rp.kind], last); len(sch.Details) != closeHour-firstHour {
			t.Errorf("%s hours on 31.01.2027: %d", rp.kind, len(sch.Details))
		}
	}
	var dates gateway.HotelDatesAnswer
	e.postForm("/v1/hotel/getDates", url.Values{"dateIn": {"2026-12-01"}, "dateOut": {"2027-03-03"}}, &dates)
	if n := len(dates.DateList.Days); n != 63 || dates.DateList.Days[n-1].Period != "2027-03-03" {
		t.Errorf("hotel nights from 31.12.2026: %d, the last %+v", n, dates.DateList.Days[n-1:])
	}
}
