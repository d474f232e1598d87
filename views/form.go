package views

// FieldError is one problem with a form: Field is the id of the input it
// concerns ("" for the whole form), Message the Russian text shown.
type FieldError struct {
	Field   string
	Message string
}

// Errors is a form's problems in the order the fields appear.
type Errors []FieldError

// Add appends a problem.
func (e *Errors) Add(field, msg string) { *e = append(*e, FieldError{field, msg}) }

// For is the message of the first problem with field, or "".
func (e Errors) For(field string) string {
	for _, fe := range e {
		if fe.Field == field {
			return fe.Message
		}
	}
	return ""
}

// Invalid is "true" when field has a problem, for aria-invalid.
func (e Errors) Invalid(field string) string {
	if e.For(field) != "" {
		return "true"
	}
	return "false"
}

// Describedby links a field to its error message when it has one.
func (e Errors) Describedby(field, hint string) string {
	ids := hint
	if e.For(field) != "" {
		if ids != "" {
			ids += " "
		}
		ids += field + "-error"
	}
	return ids
}
