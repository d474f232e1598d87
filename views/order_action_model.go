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
	// NothingToSubmit hides the button while there is nothing to choose
	// (a day without sessions); an island shows it once there is.
	NothingToSubmit bool
	Danger          bool   // the action cannot be undone
	Multipart       bool   // the form sends files
	Error           string // why the last attempt failed
	Errors          Errors // rules broken by the answers, for the summary
	// Intro comes before the form: what the form offers may depend on it
	// (a GET form choosing the day of a transfer); nil when none.
	Intro templ.Component
	// After comes after the form: a fallback an island takes over and hides
	// (a transfer's GET form of days), placed below so that hiding it moves
	// nothing the customer is looking at; nil when none.
	After templ.Component
}
