package main

import (
	"fmt"
	"log/slog"
	"strings"

	"lk/gateway"
)

// redactPhones is the log's last guard: whatever a line carries (an error
// of Redis or of the provider that names a key or a URL with a phone in
// it), a whole phone number leaves the process masked.
func redactPhones(_ []string, a slog.Attr) slog.Attr {
	switch a.Value.Kind() {
	case slog.KindString:
		if s := a.Value.String(); hasPhone(s) {
			a.Value = slog.StringValue(maskPhones(s))
		}
	case slog.KindAny:
		var s string
		switch v := a.Value.Any().(type) {
		case error:
			s = v.Error()
		case fmt.Stringer:
			s = v.String()
		default:
			return a
		}
		if hasPhone(s) {
			a.Value = slog.StringValue(maskPhones(s))
		}
	}
	return a
}

// A phone is a run of 11 digits starting with 7 or 8, or of 10 starting
// with 9, with no digit on either side.
func isPhone(run string) bool {
	return len(run) == 11 && (run[0] == '7' || run[0] == '8') || len(run) == 10 && run[0] == '9'
}

// A run of digits inside a longer word of hex digits (a build's commit,
// a digest) is part of that word, not a phone: masking it would make the
// commit in the first log line unreadable.
func inHexWord(s string, i, j int) bool {
	a, b := i, j
	for a > 0 && isAlnum(s[a-1]) {
		a--
	}
	for b < len(s) && isAlnum(s[b]) {
		b++
	}
	if b-a == j-i || b-a < 16 {
		return false
	}
	for k := a; k < b; k++ {
		if !isHex(s[k]) {
			return false
		}
	}
	return true
}

func isAlnum(c byte) bool { return isHex(c) || c >= 'g' && c <= 'z' || c >= 'G' && c <= 'Z' }

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

func phoneAt(s string, i, j int) bool { return isPhone(s[i:j]) && !inHexWord(s, i, j) }

func hasPhone(s string) bool {
	found := false
	digitRuns(s, func(i, j int) { found = found || phoneAt(s, i, j) })
	return found
}

func maskPhones(s string) string {
	var b strings.Builder
	last := 0
	digitRuns(s, func(i, j int) {
		if phoneAt(s, i, j) {
			b.WriteString(s[last:i])
			b.WriteString(gateway.MaskPhone(s[i:j]))
			last = j
		}
	})
	b.WriteString(s[last:])
	return b.String()
}

// digitRuns calls f with the bounds of every maximal run of ASCII digits
// in s.
func digitRuns(s string, f func(i, j int)) {
	for i := 0; i < len(s); {
		if s[i] < '0' || s[i] > '9' {
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		f(i, j)
		i = j
	}
}
