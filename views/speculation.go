package views

import (
	"context"
	"io"

	"github.com/a-h/templ"
)

// NextAttr marks a link a customer is likely to take next from a signed-in
// page: an order in a list, 'Перенести' of an order. The page's speculation
// rules name these links only, so the browser never fetches ahead an action
// (forms are posted, never linked), the sign-out (a form), a document (PDF
// or calendar file: downloads) or a page of another site.
const NextAttr = "data-next"

// speculationRules are the rules of the Speculation Rules API a signed-in
// page carries (inline, with the page's CSP nonce). Browsers without the
// API ignore the element.
//   - A marked link is fetched (the page only, no script run) when it is
//     likely to be taken: on a phone when it is in view, on a desktop when
//     the pointer comes to it ("eager"). Chromium keeps at most two of
//     these at a time, the latest ones. A page of an order takes no
//     provider call then: the list's answer is held for it.
//   - It is rendered ahead when the customer is about to take it: a finger
//     down, or a pointer resting on it ("moderate"), from the page fetched.
//   - On a page that offers a move (Page.Next) that one page is rendered
//     ahead once the page has loaded and the browser is idle: islands/next
//     adds its rule then (NextTags.Page), so that rendering it never
//     competes with the order page's own first paint.
type speculationRules struct {
	Prefetch  []speculationRule `json:"prefetch"`
	Prerender []speculationRule `json:"prerender"`
}

type speculationRule struct {
	Source    string         `json:"source"`
	Where     map[string]any `json:"where"`
	Eagerness string         `json:"eagerness"`
}

// RulesID is the id of the page's speculation rules; islands/next adds the
// rule of the move with the same CSP nonce.
const RulesID = "next-pages"

// rules is what the page tells the browser of its next pages.
func (p Page) rules() speculationRules {
	marked := func(eagerness string) speculationRule {
		return speculationRule{Source: "document", Where: map[string]any{"selector_matches": "a[" + NextAttr + "]"}, Eagerness: eagerness}
	}
	return speculationRules{Prefetch: []speculationRule{marked("eager")}, Prerender: []speculationRule{marked("moderate")}}
}

// nextScript is the script of islands/next, inline, allowed by the page's
// CSP nonce.
func nextScript(nonce, code string) templ.Component {
	return templ.ComponentFunc(func(_ context.Context, w io.Writer) error {
		_, err := io.WriteString(w, `<script type="module" id="`+NextScriptID+`" nonce="`+templ.EscapeString(nonce)+`">`+code+`</script>`)
		return err
	})
}

// speculation is the page's <script type="speculationrules">, on signed-in
// pages unless the customer asked to save data (Page.Speculate).
func speculation(p Page) templ.Component {
	if !p.Speculate {
		return templ.NopComponent
	}
	return templ.JSONScript(RulesID, p.rules()).WithType("speculationrules").WithNonceFromString(p.Nonce)
}

// ActionTransfer is the Action.Name of an order's move: its link is one a
// customer takes next.
const ActionTransfer = "transfer"

// NextAssetsID is the id of the inert <template> naming the page this one
// leads to (data-page) and listing its files (islands/next).
const NextAssetsID = "next-assets"

// NextEntry is the manifest key of the script that fetches them and
// renders that page ahead.
const NextEntry = "next/main.ts"

// NextScriptID is the id of that script's element.
const NextScriptID = "next-script"

// NextTags are the page this one leads to (Page.Next), the files of its
// islands, and the script that fetches them and renders that page ahead
// once this one is idle: its code (Code), or its URL (Script) when the
// build's script cannot be inlined.
type NextTags struct {
	Code   string
	Script string
	Page   string
	Files  []string
}

// NextFiles is what the page needs to lead to Page.Next quickly: that page,
// the files of its islands (the mount loop, the islands, their chunks and
// styles) that this page does not load itself, and the script that asks for
// both; nothing without Speculate (Save-Data), without Next, or without a
// build.
//
// The script is inline (under 1 KB): then an order page asks for nothing
// beyond its HTML, so when Chromium renders it ahead of the tap it has
// loaded, and is laid out, well before the tap. Chromium lays out a page
// rendered ahead only when something asks, as its load does; a script of
// its own, fetched over a slow link, held the load past the tap, and the
// whole layout then came after it, before the first paint.
func (p Page) NextFiles() NextTags {
	var t NextTags
	if !p.Speculate || p.Next == "" {
		return t
	}
	t.Code = p.Assets.Inline(NextEntry)
	if t.Code == "" {
		script, ok := p.Assets.File(NextEntry)
		if !ok {
			return t
		}
		t.Script = p.Assets.base + script
	}
	t.Page = p.Next
	if len(p.NextIslands) == 0 {
		return t
	}
	own := map[string]bool{}
	mine := p.Tags()
	for _, f := range append(append(mine.Scripts, mine.Preloads...), mine.Styles...) {
		own[f] = true
	}
	next := p.Assets.For(p.NextIslands...)
	for _, f := range append(append(next.Scripts, next.Preloads...), next.Styles...) {
		if !own[f] {
			t.Files = append(t.Files, f)
		}
	}
	return t
}
