package handlers

import (
	"strings"
	"testing"
	"time"
)

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

func TestSplitFIO(t *testing.T) {
	for _, tc := range []struct{ fio, hint, last, first, middle string }{
		{"Иванов Иван Иванович", "", "Иванов", "Иван", "Иванович"},
		{"  Иванов\u00a0 Иван  ", "", "Иванов", "Иван", ""},
		{"Ван дер Берг Ян", "Ян", "Ван дер Берг", "Ян", ""},
		{"Ван дер Берг Ян Петрович", "", "Ван дер Берг", "Ян", "Петрович"},
		{"Мамедов Рашид Ахмед оглы", "", "Мамедов", "Рашид", "Ахмед оглы"},
		{"Де ла Круз Анна Мария Петровна", "Анна Мария", "Де ла Круз", "Анна Мария", "Петровна"},
		{"Петрова Мария Ивановна", "", "Петрова", "Мария", "Ивановна"},
		{"Смит Джон", "", "Смит", "Джон", ""},
		{"Джон", "", "", "Джон", ""},
		{"", "", "", "", ""},
	} {
		last, first, middle := splitFIO(tc.fio, tc.hint)
		if last != tc.last || first != tc.first || middle != tc.middle {
			t.Errorf("splitFIO(%q, %q) = %q %q %q", tc.fio, tc.hint, last, first, middle)
		}
	}
}

func TestCleanName(t *testing.T) {
	for in, want := range map[string]struct {
		out string
		ok  bool
	}{
		"Мария":                 {"Мария", true},
		" Анна  Мария ":         {"Анна Мария", true},
		"Анна\u00a0Мария":       {"Анна Мария", true},
		"Д'Артаньян-Гасконский": {"Д'Артаньян-Гасконский", true},
		"Мария\x00":             {"Мария", false},
		"Ма\u202eрия":           {"Мария", false},
		"Ма\u2066рия":           {"Мария", false},
		"Мария\xff":             {"Мария", false},
		"Мария\u2028":           {"Мария", false},
	} {
		if out, ok := cleanName(in); out != want.out || ok != want.ok {
			t.Errorf("cleanName(%q) = %q %v", in, out, ok)
		}
	}
}

// The code field takes what people paste: the SMS whole, the code with
// spaces; the four digits are taken out, and anything with more or fewer
// digits is refused.
func TestParseCodeTakesThePastedSMS(t *testing.T) {
	for in, want := range map[string]string{
		"1234": "1234", " 1234 ": "1234", "12 34": "1234", "12-34": "1234", "Ваш код: 1234": "1234",
		"Код 7599": "7599", "Ваш код: 0042. Никому его не сообщайте.": "0042", "1\u00a02\u00a03\u00a04": "1234",
	} {
		if got, ok := parseCode(in); !ok || got != want {
			t.Errorf("parseCode(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "123", "12345", "12a4", "Код 1234, действует до 12:30", "код", "١٢٣٤",
		"Ваш код: 1234" + strings.Repeat(" ", 60)} {
		if got, ok := parseCode(in); ok {
			t.Errorf("parseCode(%q) = %q, taken", in, got)
		}
	}
}

// A kept form leads back only to a form page of this site.
func TestKeptPageOK(t *testing.T) {
	for page, want := range map[string]bool{
		"/orders/aqua/300001/transfer?date=2026-12-03&sessionId=S1": true,
		"/orders/glk/100001":                          true,
		"/orders/hotel/400001/refund":                 true,
		"/profile/edit":                               true,
		"//evil.example/orders/aqua/1":                false,
		"https://evil.example/profile/edit":           false,
		"/orders/aqua/1/transfer?next=//evil.example": false,
		"/login":                    false,
		"/orders/aqua/1/ticket.pdf": false,
		"/orders/aqua/1/transfer#x": false,
		"/orders/aqua/../../x":      false,
		"/\\evil.example":           false,
		"":                          false,
	} {
		if got := keptPageOK(page); got != want {
			t.Errorf("keptPageOK(%q) = %v", page, got)
		}
	}
}
