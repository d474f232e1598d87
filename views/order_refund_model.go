package views

// FilesEnhance lists the chosen documents beside the refund form's picker.
const FilesEnhance = "enhance/files.ts"

// RefundForm is the form of …/refund: the customer's raw answers, the
// water-park tickets to choose from and the documents already kept.
type RefundForm struct {
	Surname    string
	Name       string
	SecondName string
	Email      string
	Phone      string
	Comment    string
	Moderation bool           // the start date has come: a reason and documents are required
	Tickets    []RefundTicket // water park only
	Files      []RefundFile   // documents sent before and kept for this refund
}

// RefundTicket is a water-park ticket on the refund form.
type RefundTicket struct {
	ID        string
	Label     string // "№ 0001 · Взрослый, весь день · 1 500 ₽"
	Status    string // why it cannot be chosen, "" when it can
	Choosable bool   // only paid tickets are refunded
	Chosen    bool
}

// RefundFile is a kept document with its remove button.
type RefundFile struct {
	ID   string
	Name string
	Size string // "1,2 МБ"
}
