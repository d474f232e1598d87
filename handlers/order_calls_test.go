package handlers_test

import (
	"maps"
	"net/http"
	"net/url"
	"slices"
	"testing"

	"lk/gateway/sandbox"
)

// Each action's successful POST asks the provider only what it needs:
// under the order's lease the order once (a refund also once before its
// body is read, to know the order is the customer's), the day's options
// once for a move, then the action.
func TestActionProviderCalls(t *testing.T) {
	a := signedIn(t)
	lesson := "/orders/glk/" + sandbox.DemoLessonTransferable + "/transfer"
	aqua := "/orders/aqua/" + sandbox.DemoAquaPaid + "/transfer"
	hotel := "/orders/hotel/" + sandbox.DemoHotelPaid + "/transfer"
	_, _, valid := hotelRanges(t, a)
	cases := []struct {
		name, page, action string
		form               func() url.Values
		want               map[string]int
	}{
		{"confirm", "/orders/glk/" + sandbox.DemoLessonConfirmable, "/orders/glk/" + sandbox.DemoLessonConfirmable + "/confirm", nil,
			map[string]int{"GLK/getTimetableForCurrentClient": 1, "GLK/confirmLesson": 1}},
		{"lesson move", lesson, lesson, func() url.Values {
			date, id := a.firstChoice(lesson, "lessonId", 1, 30)
			return url.Values{"date": {date}, "lessonId": {id}}
		}, map[string]int{"GLK/getTimetableForCurrentClient": 1, "GLK/getTimetable": 1, "GLK/changeLessonPeriod": 1}},
		{"water-park move", aqua, aqua, func() url.Values {
			date, id := a.firstChoice(aqua, "sessionId", 1, 30)
			return url.Values{"date": {date}, "sessionId": {id}}
		}, map[string]int{"aqua/getAquaOrders": 1, "aqua/getSessionsAqua": 1, "aqua/transferTicket": 1}},
		{"hotel move", hotel, hotel, func() url.Values {
			return url.Values{"dateIn": {valid[0]}, "dateOut": {valid[1]}}
		}, map[string]int{"hotel/getHotelOrders": 1, "hotel/getDates": 1, "hotel/pushReservation": 1}},
		{"cancel", "/orders/pavilion/" + sandbox.DemoPavilionCancelOnly + "/cancel", "/orders/pavilion/" + sandbox.DemoPavilionCancelOnly + "/cancel", nil,
			map[string]int{"Rent/getPavilionRentTimetableForCurrentClient": 1, "Rent/cancelPavilionRent": 1}},
	}
	one := map[string]string{"pavilion": "Rent/getPavilionRentTimetableForCurrentClient", "celRoom": "CelRooms/getCelRoomsTimetableForCurrentClient"}
	for _, rc := range rentCases {
		cases = append(cases, struct {
			name, page, action string
			form               func() url.Values
			want               map[string]int
		}{rc.kind + " move", rc.action(), rc.action(), func() url.Values {
			d := findSlotDay(t, a, rc)
			return url.Values{"date": {d.date}, "from": {d.freeFrom}, "to": {plus(d.freeFrom, rc.hours)}}
		}, map[string]int{one[rc.kind]: 1, rc.schedule: 1, rc.change: 1}})
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			extra := url.Values{}
			if tc.form != nil {
				extra = tc.form()
			}
			form := a.get(tc.page).formValues(tc.action)
			maps.Copy(form, extra)
			a.sb.Reset()
			if r := a.post(tc.action, form); r.StatusCode != http.StatusSeeOther {
				t.Fatalf("POST: %d %q", r.StatusCode, r.text(".notice-err, .summary"))
			}
			if got := a.sb.AllCalls(); !maps.Equal(got, tc.want) {
				t.Errorf("provider calls %v, want %v", sorted(got), sorted(tc.want))
			}
		})
	}
	t.Run("refund", func(t *testing.T) {
		a := signedIn(t)
		action := "/orders/pavilion/" + sandbox.DemoPavilionRent + "/refund"
		p := a.get(action)
		a.sb.Reset()
		if r := a.resubmit(a.client, p, action, nil, nil); r.StatusCode != http.StatusSeeOther {
			t.Fatalf("POST: %d %q", r.StatusCode, r.text(".notice-err, .summary"))
		}
		want := map[string]int{"Rent/getPavilionRentTimetableForCurrentClient": 2, "Rent/registerRefund": 1}
		if got := a.sb.AllCalls(); !maps.Equal(got, want) {
			t.Errorf("provider calls %v, want %v", sorted(got), sorted(want))
		}
	})
}

func sorted(m map[string]int) []string {
	var out []string
	for k, v := range m {
		out = append(out, k+"×"+string(rune('0'+v)))
	}
	slices.Sort(out)
	return out
}
