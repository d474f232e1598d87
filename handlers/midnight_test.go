package handlers_test

import (
	"strings"
	"testing"
	"time"

	"lk/gateway/sandbox"
)

// The pages that depend on today, with the server and the sandbox on one
// clock standing a minute before and a minute after midnight at the resort,
// in Moscow and in another zone (the configured one decides, LK_TIMEZONE):
// the windows start today, today's order is active and refunded by
// moderation, tomorrow's directly. So the suite passes at any hour.
func TestAroundMidnight(t *testing.T) {
	zone := func(name string) *time.Location {
		loc, err := time.LoadLocation(name)
		if err != nil {
			t.Fatal(err)
		}
		return loc
	}
	msk, vvo := zone("Europe/Moscow"), zone("Asia/Vladivostok")
	for _, tc := range []struct {
		name string
		at   time.Time
	}{
		{"23:59 Moscow", time.Date(2026, 11, 23, 23, 59, 0, 0, msk)},
		{"00:01 Moscow", time.Date(2026, 11, 24, 0, 1, 0, 0, msk)},
		// 16:59 and 17:01 in Moscow, the day before: a rule that read
		// Moscow's day would be a day behind.
		{"23:59 Vladivostok", time.Date(2026, 11, 23, 23, 59, 0, 0, vvo)},
		{"00:01 Vladivostok", time.Date(2026, 11, 24, 0, 1, 0, 0, vvo)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := newAppAt(t, tc.at.Add(-61*time.Second))
			a.signIn(a.client, demoPhone) // moves the clock on by 61 s, to tc.at
			if now := a.clock.Now(); !now.Equal(tc.at) {
				t.Fatalf("clock at %v", now)
			}
			y, m, d := tc.at.Date()
			today := time.Date(y, m, d, 0, 0, 0, 0, tc.at.Location())
			iso := func(t time.Time) string { return t.Format("2006-01-02") }

			orders := a.get("/orders")
			for sel, id := range map[string]string{
				`section[aria-labelledby="active-h"]`:  "/orders/aqua/" + sandbox.DemoAquaToday,
				`section[aria-labelledby="history-h"]`: "/orders/glk/" + sandbox.DemoLessonPast,
			} {
				if orders.doc.Find(sel+` a[href="`+id+`"]`).Length() == 0 {
					t.Errorf("/orders: %s not in %s", id, sel)
				}
			}

			for _, w := range []struct {
				page, form string
				last       time.Time
			}{
				{"/orders/glk/" + sandbox.DemoLessonTransferable + "/transfer", "#transfer-day", today.AddDate(0, 1, 0)},
				{"/orders/aqua/" + sandbox.DemoAquaPaid + "/transfer", "#transfer-day", today.AddDate(0, 0, 30)},
				{"/orders/pavilion/" + sandbox.DemoPavilionRent + "/transfer", "form#rent-day", today.AddDate(0, 1, 0)},
			} {
				in := a.get(w.page).doc.Find(w.form + ` input[type="date"][name="date"]`)
				if got, want := in.AttrOr("min", "")+".."+in.AttrOr("max", ""), iso(today)+".."+iso(w.last); got != want {
					t.Errorf("%s: window %s, want %s", w.page, got, want)
				}
			}

			hotel := a.get("/orders/hotel/" + sandbox.DemoHotelPaid + "/transfer")
			var props struct{ Min string }
			if err := hotel.props("calendar-props", &props); err != nil || props.Min != iso(today) {
				t.Errorf("hotel calendar min %q (%v), want %s", props.Min, err, iso(today))
			}

			for id, moderation := range map[string]bool{sandbox.DemoAquaToday: true, sandbox.DemoAquaPaid: false} {
				p := a.get("/orders/aqua/" + id + "/refund")
				if got := p.doc.Find(`textarea[name="comment"]`).Length() == 1; got != moderation {
					t.Errorf("refund of %s asks for a reason: %v, want %v\n%s", id, got, moderation, strings.TrimSpace(p.text("main")))
				}
			}
		})
	}
}
