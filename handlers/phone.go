package handlers

import (
	"strings"
	"unicode/utf8"
)

// parsePhone reads a Russian mobile number in any usual spelling
// (+7 (900) 000-00-00, 8 900 000 00 00, 9000000000) and gives its digits,
// 79000000000. ok is false when it is not a Russian mobile (+7 9…).
func parsePhone(s string) (digits string, ok bool) {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			b.WriteRune(r)
		case r == '+' || r == '(' || r == ')' || r == '-' || r == ' ' || r == '\u00a0' || r == '.':
		default:
			return "", false
		}
	}
	d := b.String()
	switch {
	case len(d) == 10:
		d = "7" + d
	case len(d) == 11 && (d[0] == '7' || d[0] == '8'):
		d = "7" + d[1:]
	default:
		return "", false
	}
	return d, d[1] == '9'
}

// codeMaxTyped bounds what the code field takes: an SMS pasted whole
// ('Ваш код: 1234') fits, a page of text does not.
const codeMaxTyped = 64

// parseCode reads an SMS code as people paste it: the code alone, with
// spaces or hyphens, or the whole SMS ('Ваш код: 1234', 'Код 7599'). What
// is left once everything but the digits 0–9 is taken out must be exactly
// 4 digits; a text with more digits than the code's is refused rather than
// guessed at.
func parseCode(s string) (string, bool) {
	if utf8.RuneCountInString(s) > codeMaxTyped {
		return "", false
	}
	var b strings.Builder
	for _, r := range s {
		if r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	return b.String(), b.Len() == 4
}
