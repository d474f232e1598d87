package views

import "strings"

// KV is one line of a key-value card. Class, when set, shows the value as a
// badge of that class ("badge-ok", "badge-err").
type KV struct {
	Key   string
	Value string
	Class string
}

// OrderCard is an order in a list: the home page and /orders.
type OrderCard struct {
	Kind      string // glk, pavilion, aqua, hotel, celRoom
	KindLabel string // "Аквапарк"
	ID        string
	Title     string
	Lines     []KV     // date, time, status, total…
	When      string   // "23.11.2026, 16:00–22:00": the compact card's date line
	Status    KV       // the status badge; empty Value for kinds without one
	Amount    string   // "2 200 ₽"
	URL       string   // the detail page
	Actions   []Action // the buttons the card offers, e.g. 'Подтвердить запись'
}

// Action is a button of an order: a link to an action's own page, a
// document, or a form posting its one-time token.
type Action struct {
	Name     string // "confirm", "cancel", "refund", "transfer", "document"
	Label    string // 'Подтвердить запись'
	URL      string
	Token    string // set for a form posted in place
	Back     string // where a form posted in place returns: the list it was pressed on
	Download bool   // a document
	Style    string // extra class: "btn-2" for a secondary one
}

// Orders is /orders: the active orders on its first page, a page of the
// history, and the filter that chose them.
type Orders struct {
	Active    []OrderCard
	History   []OrderCard
	Failed    bool     // some kinds did not load
	AllFailed bool     // none did
	Problems  []string // what the provider says about the kinds that failed, when some loaded
	Filter    OrdersFilter
	Page      int    // of the history, from 1
	Shown     string // "Показаны 21–40 из 300", when the history has more than a page
	More      string // the next page of the history; "" on the last
	First     string // the first page, from a later one
}

// OrdersFilter is the list's GET form: a kind and a year, "" for all.
type OrdersFilter struct {
	Kinds []Choice
	Years []Choice
}

// Choice is an option of a select.
type Choice struct {
	Value    string
	Label    string
	Selected bool
}

// Number is the order's number as support asks for it, when the title does
// not say it already.
func (c OrderCard) Number() string { return orderNumber(c.Title, c.ID) }

// Number is the order's number when the title does not say it already.
func (d OrderDetail) Number() string { return orderNumber(d.Title, d.ID) }

func orderNumber(title, id string) string {
	n := "Заказ № " + id
	if id == "" || strings.Contains(title, n) {
		return ""
	}
	return n
}
