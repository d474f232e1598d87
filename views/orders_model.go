package views

import (
	"strings"

	"github.com/a-h/templ"
)

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
	Anchor    string   // the card's id in the page, "more-21" where a page of the history starts
}

// Action is a button of an order: a link to an action's own page, a
// document, or a form posting its one-time token.
type Action struct {
	Name  string // "confirm", "cancel", "refund", "transfer", "document", "wallet"
	Label string // 'Подтвердить запись'
	URL   string
	Token string // set for a form posted in place
	Back  string // where a form posted in place returns: the list it was pressed on
	Style string // extra class: "btn-2" for a secondary one
}

// ActionWallet is an order's link to its Apple Wallet passes.
const ActionWallet = "wallet"

// MoreEnhance is the manifest key of the script that appends the history's
// next page in place.
const MoreEnhance = "enhance/more.ts"

// Orders is /orders: the active orders on its first page, a page of the
// history, and the filter that chose them.
type Orders struct {
	Active    []OrderCard
	History   []OrderCard
	Failed    bool     // some kinds did not load
	AllFailed bool     // none did
	Problems  []string // what the provider says about the kinds that failed, when some loaded
	Filter    OrdersFilter
	Page      int    // of the history, from 1: pages 1 to Page are shown
	Shown     string // "Показаны 40 из 300", when the history has more than a page
	More      string // the list with one page more of the history; "" on the last
	MoreFrom  string // the number of the first card that page adds, its anchor
	// MoreScript appends the next page in place when JavaScript runs
	// (islands/enhance/more.ts); "" without a build.
	MoreScript string
	// Search is the order number asked for (?q=); Found are the customer's
	// orders with that number, active and past, instead of the blocks.
	Search string
	Found  []OrderCard
	All    string // the list without the search, the filter kept
}

// The texts of an empty block. 'Заказов не найдено' is said only when there
// is no order at all to show, never above orders that are shown.
const (
	MsgNoOrders  = "Заказов не найдено"
	msgNoActive  = "Активных заказов нет."
	msgNoHistory = "Прошедших заказов нет."
	msgNotFound  = "Заказа с таким номером нет среди ваших заказов. Номер есть в SMS и письме о заказе."
)

func (o Orders) emptyActive() string {
	if len(o.History) > 0 {
		return msgNoActive
	}
	return MsgNoOrders
}

func (o Orders) emptyHistory() string {
	if len(o.Active) > 0 {
		return msgNoHistory
	}
	return MsgNoOrders
}

func (o Orders) emptyFound() string { return msgNotFound }

// OrdersFilter is the list's GET form: an order number, a kind and a year,
// "" for all.
type OrdersFilter struct {
	Search string
	Kinds  []Choice
	Years  []Choice
}

// Choice is an option of a select.
type Choice struct {
	Value    string
	Label    string
	Selected bool
}

// anchor is the card's id attribute, when it has one.
func (c OrderCard) anchor() templ.Attributes {
	if c.Anchor == "" {
		return nil
	}
	return templ.Attributes{"id": c.Anchor}
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
