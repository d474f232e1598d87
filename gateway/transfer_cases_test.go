package gateway

import (
	"encoding/json"
	"errors"
	"os"
	"testing"
	"time"
)

// transferCases are the cases the calendar island's Vitest reads too
// (islands/calendar/rules.test.ts): one file, so the two cannot drift.
type transferCases struct {
	Windows []struct {
		Name, Now      string
		Transfer, Aqua [2]string
	}
	AquaDates []struct {
		Name, Now, Original, Candidate, Want string
	}
	HotelDays []struct {
		Name          string
		Day           HotelDay
		Rooms, Family int
		Want          bool
	}
	ParseDay []struct{ In, Want string }
}

// sharedCases reads testdata/file, cases an island's Vitest reads too.
func sharedCases[C any](t *testing.T, file string) C {
	t.Helper()
	raw, err := os.ReadFile("testdata/" + file)
	if err != nil {
		t.Fatal(err)
	}
	var c C
	if err := json.Unmarshal(raw, &c); err != nil {
		t.Fatal(err)
	}
	return c
}

func caseDay(t *testing.T, s string) time.Time {
	t.Helper()
	if s == "" {
		return time.Time{}
	}
	d, err := time.ParseInLocation(LayoutISODate, s, ResortLocation())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func caseNow(t *testing.T, s string) time.Time {
	t.Helper()
	d, err := time.ParseInLocation("2006-01-02T15:04", s, ResortLocation())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestSharedTransferCases(t *testing.T) {
	c := sharedCases[transferCases](t, "transfer_cases.json")
	iso := func(d time.Time) string { return FormatISODate(d, nil) }
	for _, w := range c.Windows {
		now := caseNow(t, w.Now)
		if from, to := TransferWindow(now); iso(from) != w.Transfer[0] || iso(to) != w.Transfer[1] {
			t.Errorf("%s: TransferWindow %s..%s, want %v", w.Name, iso(from), iso(to), w.Transfer)
		}
		if from, to := AquaTransferWindow(now); iso(from) != w.Aqua[0] || iso(to) != w.Aqua[1] {
			t.Errorf("%s: AquaTransferWindow %s..%s, want %v", w.Name, iso(from), iso(to), w.Aqua)
		}
	}
	for _, a := range c.AquaDates {
		err := CheckAquaDate(caseDay(t, a.Original), caseDay(t, a.Candidate), caseNow(t, a.Now))
		var we *WindowError
		got := ""
		switch {
		case errors.Is(err, ErrWeekdayOnly):
			got = "weekdayOnly"
		case errors.Is(err, ErrWeekendOnly):
			got = "weekendOnly"
		case errors.As(err, &we):
			got = "window"
		case err != nil:
			got = err.Error()
		}
		if got != a.Want {
			t.Errorf("aqua %s: %q, want %q", a.Name, got, a.Want)
		}
	}
	for _, h := range c.HotelDays {
		if got := HotelDayAvailable(h.Day, h.Rooms, h.Family); got != h.Want {
			t.Errorf("hotel day %s: %v", h.Name, got)
		}
	}
	for _, d := range c.ParseDay {
		got, err := ParseDay(d.In, nil)
		if (err != nil) != (d.Want == "") || err == nil && iso(got) != d.Want {
			t.Errorf("ParseDay(%q) = %v, %v; want %q", d.In, got, err, d.Want)
		}
	}
}
