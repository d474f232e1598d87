package gateway

import (
	"testing"
	"time"
)

// slotCases is testdata/slot_cases.json, the time-slot cases the slot-picker
// island's Vitest reads too.
type slotCases struct {
	Schedules map[string]struct {
		Cost  float64  `json:"cost"`
		Hours [][2]any `json:"hours"` // ["10:00", 0]: the hour's start and status
	} `json:"schedules"`
	Cases []struct {
		Name, Schedule, From, To, Want string
		Amount                         float64
	} `json:"cases"`
}

func TestCheckSlotMoveSharedCases(t *testing.T) {
	sc := sharedCases[slotCases](t, "slot_cases.json")
	day := at(2026, 11, 21, 0, 0)
	clock := func(s string) time.Time {
		c, err := time.Parse("15:04", s)
		if err != nil {
			t.Fatalf("case time %q: %v", s, err)
		}
		return day.Add(time.Duration(c.Hour())*time.Hour + time.Duration(c.Minute())*time.Minute)
	}
	if len(sc.Cases) < 10 {
		t.Fatalf("only %d cases read", len(sc.Cases))
	}
	for _, c := range sc.Cases {
		d, ok := sc.Schedules[c.Schedule]
		if !ok {
			t.Fatalf("%s: no schedule %q", c.Name, c.Schedule)
		}
		s := Schedule{Cost: d.Cost}
		for _, h := range d.Hours {
			s.Details = append(s.Details, TimetableHour{Hour: FormatISO(clock(h[0].(string)), nil), Status: int(h[1].(float64))})
		}
		got := ""
		if err := CheckSlotMove(s, clock(c.From), clock(c.To), c.Amount); err != nil {
			got = err.Error()
		}
		if got != c.Want {
			t.Errorf("%s: %q, want %q", c.Name, got, c.Want)
		}
	}
}
