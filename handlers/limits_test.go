package handlers

import (
	"testing"
	"time"
)

func TestLimiterWrongEntriesPerDay(t *testing.T) {
	l := NewMemoryLimiter(0)
	now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	const phone = "79000000000"
	for i := 0; i < 10; i++ {
		if i%3 == 0 { // a new code every three wrong entries, as the per-code limit demands
			now = now.Add(2 * time.Minute)
			if r := l.AllowCode(phone, "10.0.0.1", now); r != nil && r.Limit != "phone_window" {
				t.Fatalf("code %d: %+v", i, r)
			}
		}
		if r := l.AllowVerify(phone, now); r != nil && r.Limit != "code_attempts" {
			t.Fatalf("entry %d refused: %+v", i+1, r)
		}
		l.Wrong(phone, now)
	}
	r := l.AllowVerify(phone, now)
	if r == nil || r.Limit != "phone_wrong" || r.RetryAfter <= 0 {
		t.Fatalf("11th entry in a day: %+v", r)
	}
	if r := l.AllowVerify(phone, now.Add(25*time.Hour)); r != nil && r.Limit == "phone_wrong" {
		t.Errorf("still refused a day later: %+v", r)
	}
}

func TestAfter(t *testing.T) {
	for d, want := range map[time.Duration]string{
		40 * time.Second:                            "через 40 с",
		500 * time.Millisecond:                      "через 1 с",
		5 * time.Minute:                             "через 5 мин",
		2*time.Hour + 10*time.Minute:                "через 2 ч 10 мин",
		time.Hour + 59*time.Minute + 59*time.Second: "через 2 ч",
	} {
		if got := after(d); got != want {
			t.Errorf("after(%v) = %q, want %q", d, got, want)
		}
	}
}
