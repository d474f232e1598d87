package handlers

import "strings"

// splitFIO reads the provider's fio, "Фамилия Имя Отчество": the surname,
// the first name, and the rest as the patronymic.
func splitFIO(fio string) (surname, name, patronymic string) {
	parts := strings.Fields(fio)
	if len(parts) > 0 {
		surname = parts[0]
	}
	if len(parts) > 1 {
		name = parts[1]
	}
	if len(parts) > 2 {
		patronymic = strings.Join(parts[2:], " ")
	}
	return surname, name, patronymic
}
