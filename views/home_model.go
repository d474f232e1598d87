package views

// Home is the account's first page.
type Home struct {
	Name         string
	Profile      *Profile // nil when it could not be loaded
	ProfileError string
	Active       []OrderCard
	Failed       bool
	AllFailed    bool
	Problems     []string
}

// Profile is the personal data card, formatted for people.
type Profile struct {
	FIO       string
	Phone     string // +7 (900) 000-00-00
	Email     string
	Birthdate string // 15.03.1985
	Gender    string // Мужской, Женский
}

// Greeting is 'Здравствуйте, {name}' or 'Здравствуйте!'.
func (h Home) Greeting() string {
	if h.Name == "" {
		return "Здравствуйте!"
	}
	return "Здравствуйте, " + h.Name
}

func orDash(s string) string {
	if s == "" {
		return "Не указано"
	}
	return s
}
