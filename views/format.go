package views

import (
	"math"
	"strconv"
	"strings"
	"time"
)

// Formatting for people, in one place: money as "1 500 ₽" (narrow no-break
// space between thousands), dates as "21.11.2026", date-times as
// "21.11.2026 10:00", phones as "+7 (900) 000-00-00".

const nnbsp = "\u202f" // narrow no-break space

// Money formats roubles; kopecks are shown only when there are any.
func Money(v float64) string {
	neg := v < 0
	v = math.Abs(v)
	kop := int64(math.Round(v*100)) % 100
	rub := int64(math.Round(v*100)) / 100
	s := strconv.FormatInt(rub, 10)
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteString(nnbsp)
		}
		b.WriteRune(r)
	}
	out := b.String()
	if kop != 0 {
		out += "," + twoDigits(int(kop))
	}
	if neg {
		out = "−" + out
	}
	return out + "\u00a0₽"
}

func twoDigits(n int) string {
	if n < 10 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

// Date is "21.11.2026"; the zero time is "—".
func Date(t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	return t.Format("02.01.2006")
}

// DateTime is "21.11.2026 10:00".
func DateTime(t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	return t.Format("02.01.2006 15:04")
}

// Clock is "10:00".
func Clock(t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	return t.Format("15:04")
}

// Phone shows phone digits 79001234567 as +7 (900) 123-45-67.
func Phone(digits string) string {
	if len(digits) != 11 {
		return digits
	}
	return "+7 (" + digits[1:4] + ") " + digits[4:7] + "-" + digits[7:9] + "-" + digits[9:11]
}

// MaskedPhone hides the middle of a phone: +7 (900) ***-**-67.
func MaskedPhone(digits string) string {
	if len(digits) != 11 {
		return "***"
	}
	return "+7 (" + digits[1:4] + ") ***-**-" + digits[9:11]
}
