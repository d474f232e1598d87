package views

// BirthdayIsland is the manifest key of the birth-date enhancement (dots
// typed in after the day and the month).
const BirthdayIsland = "enhance/birthday.ts"

// ProfileForm is /profile/edit: the raw answers and their problems.
type ProfileForm struct {
	LastName   string
	FirstName  string
	MiddleName string
	Gender     string // MALE, FEMALE or ""
	Birthday   string // дд.мм.гггг as typed
	Phone      string // +7 (900) 000-00-00, not editable
	Errors     Errors
	Error      string // the save failed through no fault of the answers
	Owner      string // sealed: whose form it is, should it be sent after the session ended
}
