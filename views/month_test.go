package views

import (
	"testing"
	"time"
)

func TestDayNameAndThousands(t *testing.T) {
	msk := time.FixedZone("MSK", 3*3600)
	d := time.Date(2026, 12, 2, 0, 0, 0, 0, msk)
	if got, want := DayName(d, "6 500 ₽", "", Booked), "2 декабря 2026, среда, 6 500 ₽, сейчас в заказе"; got != want {
		t.Errorf("DayName: %q, want %q", got, want)
	}
	for v, want := range map[float64]string{16300: "16,3к", 16000: "16к", 950: "1к", 6500: "6,5к", 1234567: "1\u202f234,6к"} {
		if got := Thousands(v); got != want {
			t.Errorf("Thousands(%v) = %q, want %q", v, got, want)
		}
	}
}

// A month starts in its weekday's column, Monday first, and spans the
// weeks it needs: February 2027 starts on a Monday and fills four.
func TestMonthGrid(t *testing.T) {
	msk := time.FixedZone("MSK", 3*3600)
	for _, c := range []struct {
		month      time.Time
		col, rows  int
		caption    string
		lastRow    int
		lastColumn int
	}{
		{time.Date(2027, 2, 10, 0, 0, 0, 0, msk), 0, 4, "Февраль 2027", 3, 6},
		{time.Date(2026, 11, 28, 0, 0, 0, 0, msk), 6, 6, "Ноябрь 2026", 5, 0},
		{time.Date(2026, 12, 1, 0, 0, 0, 0, msk), 1, 5, "Декабрь 2026", 4, 3},
	} {
		g := NewMonthGrid(c.month, func(d time.Time) MonthDay { return MonthDay{Name: DayName(d)} })
		if g.Caption != c.caption || g.Rows != c.rows || g.Weeks[0][c.col].N != 1 || (c.col > 0 && g.Weeks[0][c.col-1].N != 0) {
			t.Errorf("%s: caption %q, rows %d, first row %+v", c.caption, g.Caption, g.Rows, g.Weeks[0])
		}
		if last := g.Weeks[c.lastRow][c.lastColumn]; last.N != MonthStart(c.month).AddDate(0, 1, -1).Day() {
			t.Errorf("%s: the last day at %d,%d is %d", c.caption, c.lastRow, c.lastColumn, last.N)
		}
	}
}
