package views

// OrderDetail is /orders/{type}/{id}.
type OrderDetail struct {
	Kind      string
	KindLabel string
	ID        string
	Title     string
	Lines     []KV
	Tickets   []TicketLine // water park
	Rooms     []RoomGuests // hotel
	Actions   []Action     // the document and what the order allows now
	// Choose says, one sentence per button, what each of two money-back
	// buttons does with the money and the booking; nil unless both are shown.
	Choose []string
	Error  string // a failure; with no Title it replaces the order
	// Unpaid is why an upcoming order has no tickets yet (some await
	// payment); the page adds how to pay. "" when there is nothing to say.
	Unpaid string
	// Done says what the customer did to an order the provider no longer
	// lists (it has no Title then): cancelled, refunded, moved, and when.
	Done []string
}

// TicketLine is one water-park ticket.
type TicketLine struct {
	Number string
	Title  string // with the status suffix, "Взрослый (оформлен возврат)"
	Price  string
	Status string // "paid", "waitingForPaymant", "refunded"
	// Code is what the gate scans (the QR of the ticket PDF); "" when the
	// ticket lets no one in: awaiting payment, refunded, order cancelled.
	Code string
}

// RoomGuests is a hotel room and who stays in it.
type RoomGuests struct {
	Title  string
	Guests []string
}

// hasGateCode tells whether any ticket shows its code.
func hasGateCode(tickets []TicketLine) bool {
	for _, t := range tickets {
		if t.Code != "" {
			return true
		}
	}
	return false
}
