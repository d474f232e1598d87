package handlers

import "strings"

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

// parseCode reads an SMS code typed with spaces or hyphens: exactly 4 digits.
func parseCode(s string) (string, bool) {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			b.WriteRune(r)
		case r == ' ' || r == '-' || r == '\u00a0':
		default:
			return "", false
		}
	}
	return b.String(), b.Len() == 4
}
