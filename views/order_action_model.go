package views

import "github.com/a-h/templ"

// ActionView is an order action's own page (a page, not a modal, so that it
// works without JavaScript): what the action is about, and its form.
type ActionView struct {
	Order   OrderCard // the order as its card shows it
	Heading string    // 'Оформить возврат'
	Lead    string    // 'Вы уверены что хотите оформить возврат?'
	Notes   []string  // what happens to the money, …
	URL     string    // where the form posts
	Token   string    // the form's one-time token
	Submit  string    // the button; "" when each choice is a button of its own
	// NothingToSubmit hides and disables the button while there is nothing
	// to choose (a day without sessions), so that it cannot be pressed even
	// where the stylesheet is not applied; an island shows it once there is.
	NothingToSubmit bool
	Danger          bool   // the action cannot be undone
	Multipart       bool   // the form sends files
	Error           string // why the last attempt failed
	Errors          Errors // rules broken by the answers, for the summary
	// Intro comes before the form: what the form offers may depend on it
	// (the month choosing a rent's day); nil when none.
	Intro templ.Component
	// After comes after the form: another way to the same choice (a GET
	// form of a typed day); nil when none.
	After templ.Component
}
