package views

import (
	"context"
	"html"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/a-h/templ"
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

// noBreak writes text so that a line never breaks inside a number: every run
// of words made of digits and signs only ("21.11.2026 10:00", "12:00–15:00",
// "+7 (900) 000-00-00") is one unbreakable span; words with letters wrap as
// usual, so a long value still fits a narrow screen.
func noBreak(text string) templ.Component {
	return templ.ComponentFunc(func(_ context.Context, w io.Writer) error {
		var b strings.Builder
		open := false
		for i, word := range strings.Split(text, " ") {
			num := numeric(word)
			switch {
			case num && !open:
				if i > 0 {
					b.WriteByte(' ')
				}
				b.WriteString(`<span class="nw">`)
				open = true
			case !num && open:
				b.WriteString("</span> ")
				open = false
			case i > 0:
				b.WriteByte(' ')
			}
			b.WriteString(html.EscapeString(word))
		}
		if open {
			b.WriteString("</span>")
		}
		_, err := io.WriteString(w, b.String())
		return err
	})
}

// numeric tells a word of digits and signs, with no letter: a date, a time,
// an amount, a part of a phone.
func numeric(word string) bool {
	digit := false
	for _, r := range word {
		if unicode.IsLetter(r) {
			return false
		}
		digit = digit || unicode.IsDigit(r)
	}
	return digit
}
