package handlers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"lk/gateway"
)

// signedIn is the app with its client signed in as the demo customer.
func signedIn(t *testing.T) *app {
	t.Helper()
	a := newApp(t)
	a.signIn(a.client, demoPhone)
	return a
}

// day is the resort's date today+off as the pages show it, "21.11.2026".
func day(off int) string {
	return time.Now().In(gateway.ResortLocation()).AddDate(0, 0, off).Format("02.01.2006")
}

// rub writes an amount as the pages do: "2 500 ₽" with a narrow no-break
// space between thousands and a no-break space before the sign.
func rub(s string) string {
	s = strings.Replace(s, " ₽", "\u00a0₽", 1)
	return strings.ReplaceAll(s, " ", "\u202f")
}

// kv is the value next to the <dt> whose text is key, within sel.
func (r *resp) kv(sel, key string) string {
	out := ""
	r.doc.Find(sel + " dl.kv dt").EachWithBreak(func(_ int, dt *goquery.Selection) bool {
		if strings.TrimSpace(dt.Text()) == key {
			out = strings.TrimSpace(dt.Next().Text())
			return false
		}
		return true
	})
	return out
}

// card is the order card (list item or detail article) of kind and id.
func (r *resp) card(kind, id string) *goquery.Selection {
	return r.doc.Find(`[data-kind="` + kind + `"][data-id="` + id + `"]`)
}

// formValues is what a browser sends of the form posting to action on
// page r: its hidden fields (the one-time token among them).
func (r *resp) formValues(action string) url.Values {
	v := url.Values{}
	r.doc.Find(`form[action="` + action + `"] input[type="hidden"]`).Each(func(_ int, in *goquery.Selection) {
		v.Add(in.AttrOr("name", ""), in.AttrOr("value", ""))
	})
	return v
}

// submit opens page as c and posts its form to action, as a browser would,
// with extra answers added.
func (a *app) submit(c *http.Client, page, action string, extra url.Values) *resp {
	a.t.Helper()
	p := a.getWith(c, page)
	if p.doc.Find(`form[action="`+action+`"]`).Length() == 0 {
		a.t.Fatalf("%s: no form posting to %s (status %d)", page, action, p.StatusCode)
	}
	form := p.formValues(action)
	for k, vs := range extra {
		form[k] = vs
	}
	return a.postWith(c, action, form, nil)
}
