package handlers

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"lk/views"
)

// cleanName drops what no name holds (invalid UTF-8, control and format
// characters such as U+202E, private use, line separators); ok is false
// when anything but spaces had to go.
func cleanName(v string) (clean string, ok bool) {
	ok = utf8.ValidString(v)
	var b strings.Builder
	for _, r := range strings.ToValidUTF8(v, "") {
		switch {
		case r == ' ':
		case unicode.IsSpace(r) && !unicode.IsControl(r) && !unicode.In(r, unicode.Zl, unicode.Zp):
			r = ' ' // a no-break space typed on a phone is a space
		case unicode.In(r, unicode.Cc, unicode.Cf, unicode.Co, unicode.Cs, unicode.Zl, unicode.Zp) || r == utf8.RuneError:
			ok = false
			continue
		}
		b.WriteRune(r)
	}
	return strings.Join(strings.Fields(b.String()), " "), ok
}

// splitFIO reads "Фамилия Имя Отчество" when a name may hold spaces ("Ван
// дер Берг Ян"): first (the session's name) anchors the split, else a
// patronymic's ending, else the provider's order.
func splitFIO(fio, first string) (last, name, middle string) {
	w := strings.Fields(fio)
	if len(w) == 0 {
		return "", "", ""
	}
	if fw := strings.Fields(first); len(fw) > 0 {
		for i := 1; i+len(fw) <= len(w); i++ {
			if strings.Join(w[i:i+len(fw)], " ") == strings.Join(fw, " ") {
				return strings.Join(w[:i], " "), strings.Join(fw, " "), strings.Join(w[i+len(fw):], " ")
			}
		}
	}
	if p := patronymicWords(w); p > 0 && len(w)-p >= 2 {
		n := len(w) - p - 1
		return strings.Join(w[:n], " "), w[n], strings.Join(w[n+1:], " ")
	}
	switch len(w) {
	case 1:
		return "", w[0], ""
	case 2:
		return w[0], w[1], ""
	}
	return w[0], w[1], strings.Join(w[2:], " ")
}

func patronymicWords(w []string) int {
	lastWord := strings.ToLower(w[len(w)-1])
	switch lastWord {
	case "оглы", "огли", "кызы", "гызы", "улы", "уулу", "кизи":
		return 2
	}
	for _, end := range []string{"вич", "вна", "ична", "инична"} {
		if strings.HasSuffix(lastWord, end) && utf8.RuneCountInString(lastWord) > 4 {
			return 1
		}
	}
	return 0
}

func firstName(fio string) string {
	_, name, _ := splitFIO(fio, "")
	return name
}

func checkName(errs *views.Errors, field string, v *string, emptyMsg, longMsg string) {
	clean, ok := cleanName(*v)
	*v = clean
	switch {
	case !ok:
		errs.Add(field, msgNameChars)
	case clean == "" && emptyMsg != "":
		errs.Add(field, emptyMsg)
	case utf8.RuneCountInString(clean) > maxNameLen:
		errs.Add(field, longMsg)
	}
}

const maxNameLen = 50
