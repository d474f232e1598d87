// Package views holds the templ components of the personal account: the
// public layout and the shell of guarded pages, one file per page, order
// cards, forms and the shared error summary. Components take small view
// models built by handlers, never the provider's wire types.
package views

import (
	"context"
	"html"
	"io"
	"strings"

	"github.com/a-h/templ"
)

// Site is what every page shows of the resort, from configuration.
type Site struct {
	MainURL      string   // the resort's main site
	SupportPhone string   // shown as is, dialled as digits
	Socials      []Social //
	SandboxURL   string   // the bundled sandbox gateway's address, when the product runs on it
}

// Demo tells whether the product runs on the bundled sandbox, whose
// customers and orders are made up: every page then says so at its top.
func (s *Site) Demo() bool { return s != nil && s.SandboxURL != "" }

// DemoNotice is what every page says in demo mode.
const DemoNotice = "Демонстрационный режим: заказы и данные ненастоящие."

// Social is a link to one of the resort's social pages.
type Social struct {
	Name string
	URL  string
}

// Page is what the layout needs of every page.
type Page struct {
	Title       string // without the site name; "Ошибка: " is added when Errors
	Description string // meta description
	Nonce       string // CSP nonce of this answer
	Site        *Site
	Assets      *Assets
	Islands     []string // manifest keys of the islands on this page
	User        *User    // nil on public pages
	Nav         string   // which menu item is current: NavHome, NavOrders
	Notice      string   // a one-time success notice, e.g. after an action
	Invalid     bool     // the page shows a form with errors
	Index       bool     // search engines may index this page
	// Worker: the page registers the offline worker (islands/sw). Home and
	// the order list do, since every sign-in lands there; other pages are
	// then in its scope without a script of their own.
	Worker bool
	// Speculate: the page tells the browser which links come next
	// (speculation.go); signed-in pages, unless the request says Save-Data.
	Speculate bool
	// Next is the page the customer most likely opens from this one (an
	// order's move), prerendered once this page has loaded; only with
	// Speculate.
	Next string
	// NextIslands are the islands of Next: their files are fetched at low
	// priority once this page is idle (islands/next).
	NextIslands []string
}

// User is the signed-in customer as the shell shows them.
type User struct {
	Name string // first name, may be empty
}

// Menu items of the shell.
const (
	NavHome   = "home"
	NavOrders = "orders"
)

// FullTitle is the document title.
func (p Page) FullTitle() string {
	t := p.Title + " — Личный кабинет"
	if p.Invalid {
		t = "Ошибка: " + t
	}
	return t
}

// Tags are the islands' script and preload tags for this page.
func (p Page) Tags() Tags {
	if p.Worker && len(p.Islands) == 0 {
		return p.Assets.Loader()
	}
	return p.Assets.For(p.Islands...)
}

// ManifestLater: the signed-in page names the app's manifest on <html
// data-manifest> for the mount loop to link once the page's islands are up
// (islands/main.ts), rather than linking it in its head. A linked manifest
// sets the browser checking whether the app can be installed: it fetches
// the manifest and its icon and decodes the icon on the page's own thread
// (desktop Chrome also animates an install icon in its toolbar), and on a
// machine with few cores that competes with an island's start. A page
// without script links it at once.
func (p Page) ManifestLater() bool {
	return p.User != nil && len(p.Tags().Scripts) > 0
}

// Robots is the meta robots value.
func (p Page) Robots() string {
	if p.Index {
		return "index, follow"
	}
	return "noindex, nofollow"
}

// inlineStyle is the page's stylesheet, inline so the page renders from its
// first flight; the CSP nonce lets it in. (templ does not interpolate inside
// <style>, hence a component.)
func inlineStyle(nonce, css string) templ.Component {
	return templ.ComponentFunc(func(_ context.Context, w io.Writer) error {
		// Written in parts: joined, the stylesheet would be copied for every page.
		for _, part := range [...]string{`<style nonce="`, html.EscapeString(nonce), `">`, strings.ReplaceAll(css, "</", `<\/`), `</style>`} {
			if _, err := io.WriteString(w, part); err != nil {
				return err
			}
		}
		return nil
	})
}

// telHref turns a displayed phone into a tel: link.
func telHref(phone string) string {
	b := make([]byte, 0, len(phone))
	for i := 0; i < len(phone); i++ {
		if c := phone[i]; c == '+' || (c >= '0' && c <= '9') {
			b = append(b, c)
		}
	}
	return "tel:" + string(b)
}

// Link is a link a page offers: where it goes and what it says.
type Link struct {
	URL   string
	Label string
}
