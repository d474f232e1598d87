package handlers

import (
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
