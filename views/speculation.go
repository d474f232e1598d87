package views

import "github.com/a-h/templ"

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
//     ahead as soon as the page has loaded ("immediate": one page, the one
//     an order page leads to; "eager" now waits for the pointer on a
//     desktop and for the link in view on a phone).
type speculationRules struct {
	Prefetch  []speculationRule `json:"prefetch"`
	Prerender []speculationRule `json:"prerender"`
}

type speculationRule struct {
	Source    string         `json:"source"`
	Where     map[string]any `json:"where,omitempty"`
	URLs      []string       `json:"urls,omitempty"`
	Eagerness string         `json:"eagerness"`
}

// rules is what the page tells the browser of its next pages.
func (p Page) rules() speculationRules {
	marked := func(eagerness string) speculationRule {
		return speculationRule{Source: "document", Where: map[string]any{"selector_matches": "a[" + NextAttr + "]"}, Eagerness: eagerness}
	}
	r := speculationRules{Prefetch: []speculationRule{marked("eager")}, Prerender: []speculationRule{marked("moderate")}}
	if p.Next != "" {
		r.Prerender = append(r.Prerender, speculationRule{Source: "list", URLs: []string{p.Next}, Eagerness: "immediate"})
	}
	return r
}

// speculation is the page's <script type="speculationrules">, on signed-in
// pages unless the customer asked to save data (Page.Speculate).
func speculation(p Page) templ.Component {
	if !p.Speculate {
		return templ.NopComponent
	}
	return templ.JSONScript("next-pages", p.rules()).WithType("speculationrules").WithNonceFromString(p.Nonce)
}

// ActionTransfer is the Action.Name of an order's move: its link is one a
// customer takes next.
const ActionTransfer = "transfer"

// NextAssetsID is the id of the inert <template> listing the files of the
// page this one leads to (islands/next).
const NextAssetsID = "next-assets"

// NextEntry is the manifest key of the script that fetches them.
const NextEntry = "next/main.ts"

// NextTags are the files of Page.Next's islands and the script that
// fetches them once the page is idle.
type NextTags struct {
	Script string
	Files  []string
}

// NextFiles are the files the page's Next needs (the mount loop, its
// islands, their chunks and styles) that this page does not load itself,
// with the script that asks for them; none without Speculate (Save-Data),
// without Next, or without a build.
func (p Page) NextFiles() NextTags {
	var t NextTags
	if !p.Speculate || p.Next == "" || len(p.NextIslands) == 0 {
		return t
	}
	script, ok := p.Assets.File(NextEntry)
	if !ok {
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
	if len(t.Files) > 0 {
		t.Script = p.Assets.base + script
	}
	return t
}
