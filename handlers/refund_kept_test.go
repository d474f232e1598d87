package handlers_test

import (
	"github.com/PuerkitoBio/goquery"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"lk/gateway"
	"lk/gateway/sandbox"
	"lk/handlers"
	"lk/store"
	"lk/store/redistest"
)

// newKeptApp is the app with every order starting today (a refund asks for
// documents) and its kept documents in files.
func newKeptApp(t *testing.T, files func(now func() time.Time) store.RefundFiles) *app {
	t.Helper()
	var a *app
	a = newAppSetup(t, setup{
		wrap: func(p handlers.Provider) handlers.Provider {
			return startingOn{p, 0, func() time.Time { return a.clock.Now() }}
		},
		options: func(o *handlers.Options) { o.Files = files(o.Now) },
	})
	return a
}

// storeFor is a store of kept documents holding at most limit bytes: one
// instance's memory, or a real Redis.
func storeFor(t *testing.T, name string, limit int) func(now func() time.Time) store.RefundFiles {
	if name == "redis" {
		r := redistest.Start(t, redistest.Volatile...).Open()
		return func(func() time.Time) store.RefundFiles { return r.FilesWithin(limit) }
	}
	return func(now func() time.Time) store.RefundFiles { return store.NewMemoryRefundFilesWithin(now, limit) }
}

// keptNames are the documents a refund page lists as kept.
func keptNames(p *resp) []string {
	var names []string
	p.doc.Find(`button[name="remove"]`).Each(func(_ int, b *goquery.Selection) {
		names = append(names, b.AttrOr("value", ""))
	})
	return names
}

// One customer signed in four times keeps at most 25 MB over the four
// sessions; another customer's documents are still kept meanwhile.
func TestKeptDocumentsPerCustomer(t *testing.T) {
	for _, name := range []string{"memory", "redis"} {
		t.Run(name, func(t *testing.T) {
			a := newKeptApp(t, storeFor(t, name, 200<<20))
			action := "/orders/aqua/" + sandbox.DemoAquaToday + "/refund"
			kept := 0
			for s := range 4 {
				c := a.newClient()
				a.signIn(c, demoPhone)
				files := []upload{doc(string(rune('a'+s))+"1.pdf", 6<<20), doc(string(rune('a'+s))+"2.pdf", 6<<20), doc(string(rune('a'+s))+"3.pdf", 6<<20)}
				r := a.submitRefund(c, "aqua", sandbox.DemoAquaToday, nil, files) // no reason: refused, documents kept
				if r.StatusCode != http.StatusUnprocessableEntity {
					t.Fatalf("session %d: %d", s+1, r.StatusCode)
				}
				n := len(keptNames(a.getWith(c, action)))
				if n < 3 && !strings.Contains(r.text("#documents-error"), "не сохранён: уже приложено 10 файлов или 25 МБ") {
					t.Errorf("session %d: %d of 3 kept, and no word why: %q", s+1, n, r.text("#documents-error"))
				}
				kept += n
			}
			if kept != 4 { // 4 × 6 MB = 24 MB; a fifth would be 30
				t.Fatalf("one customer over four sessions keeps %d documents of 6 MB, want 4", kept)
			}
			other := a.newClient()
			a.signIn(other, sandbox.OtherPhone)
			r := a.submitRefund(other, "aqua", sandbox.OtherAqua, nil, []upload{doc("other.pdf", 6<<20)})
			if r.StatusCode != http.StatusUnprocessableEntity || len(keptNames(r)) != 1 {
				t.Errorf("another customer while the first is at their ceiling: %d, %d kept, %q", r.StatusCode, len(keptNames(r)), r.text("#documents-error"))
			}
		})
	}
}

// Beyond the server's room for everyone, the customer is told that the
// server cannot keep documents now, not that they sent too many.
func TestKeptDocumentsServerFull(t *testing.T) {
	for _, name := range []string{"memory", "redis"} {
		t.Run(name, func(t *testing.T) {
			a := newKeptApp(t, storeFor(t, name, 1<<20))
			a.signIn(a.client, demoPhone)
			r := a.submitRefund(a.client, "aqua", sandbox.DemoAquaToday, nil, []upload{doc("a.pdf", 700<<10), doc("b.pdf", 700<<10), doc("c.pdf", 700<<10)})
			if r.StatusCode != http.StatusUnprocessableEntity || len(keptNames(r)) != 1 {
				t.Fatalf("%d, %d kept", r.StatusCode, len(keptNames(r)))
			}
			got := r.text("#documents-error")
			if !strings.Contains(got, "Сейчас сервер не может сохранить ваши документы") || strings.Contains(got, "уже приложено") ||
				strings.Count(r.text("main"), "Сейчас сервер не может сохранить") != 2 { // at the field and in the summary, once each
				t.Errorf("documents error %q", got)
			}
		})
	}
}

// A refund form that takes no documents (before the start date) reads
// none, keeps none and sends none, whatever is posted to it.
func TestNoDocumentsForADirectRefund(t *testing.T) {
	a := signedIn(t)
	action := "/orders/hotel/" + sandbox.DemoHotelPaid + "/refund"
	if a.get(action).doc.Find(`input[type="file"]`).Length() != 0 {
		t.Fatal("the direct refund form asks for documents")
	}
	r := a.submitRefund(a.client, "hotel", sandbox.DemoHotelPaid, url.Values{"surname": {""}}, []upload{doc("unseen.pdf", 1000)})
	if r.StatusCode != http.StatusUnprocessableEntity || len(keptNames(r)) != 0 || strings.Contains(r.body, "unseen.pdf") {
		t.Fatalf("refused form: %d, %d kept", r.StatusCode, len(keptNames(r)))
	}
	r = a.resubmit(a.client, r, action, url.Values{"surname": {"Петрова"}}, []upload{doc("later.pdf", 1000)})
	if r.StatusCode != http.StatusSeeOther {
		t.Fatalf("refund: %d %s", r.StatusCode, r.text("main"))
	}
	if got := a.lastRefund().Documents; len(got) != 0 {
		t.Errorf("the provider got %d documents with a refund that takes none", len(got))
	}
}

// What the form accepts, the provider call carries: a moderated water-park
// refund with 24 MB of documents is registered with all of them. The
// sandbox decodes 35 MB of JSON: under the race detector on a busy machine
// that takes longer than the default deadline, which is not what is tested.
func TestRefundOfTheSizeTheFormAllows(t *testing.T) {
	var a *app
	a = newAppSetup(t, setup{
		wrap:    func(p handlers.Provider) handlers.Provider { return startingOn{p, 0, func() time.Time { return a.clock.Now() }} },
		gateway: []gateway.Option{gateway.WithTimeouts(3*time.Second, time.Minute)},
	})
	a.signIn(a.client, demoPhone)
	files := []upload{doc("справка.pdf", 8<<20), doc("выписка.pdf", 8<<20), doc("паспорт.jpg", 8<<20)}
	r := a.submitRefund(a.client, "aqua", sandbox.DemoAquaToday, url.Values{"comment": {"Заболел ребёнок"}}, files)
	if r.StatusCode != http.StatusSeeOther {
		t.Fatalf("24 MB of documents: %d %q", r.StatusCode, r.text(".notice-err"))
	}
	sameDocs(t, a.lastRefund().Documents, files...)
}

// After a failed refund the address bar shows no token: the form's URL
// carries only a short id, and the same form sent again gets the first
// outcome without a second provider call.
func TestRefundURLCarriesNoToken(t *testing.T) {
	a := newAppStartingOn(t, 0)
	a.signIn(a.client, demoPhone)
	action := "/orders/aqua/" + sandbox.DemoAquaToday + "/refund"
	p := a.get(action)
	first := p.formAction(action)
	a.sb.SetFault("aqua/registerRefund1C", sandbox.Fault{Status: http.StatusInternalServerError})
	extra := url.Values{"comment": {"Заболел ребёнок"}}
	r := a.resubmit(a.client, p, action, extra, []upload{doc("справка.pdf", 1000)})
	if r.StatusCode != http.StatusBadGateway {
		t.Fatalf("failed refund: %d %q", r.StatusCode, r.text(".notice-err"))
	}
	for _, u := range []string{first, r.formAction(action)} { // the address bar after the POST, and the next one
		if strings.Contains(u, "token") || len(u) > len(action)+40 {
			t.Errorf("the form's URL %q carries more than a short id", u)
		}
	}
	// The same form again, as a browser's reload of the POST would send it.
	again := a.resubmit(a.client, p, action, extra, []upload{doc("справка.pdf", 1000)})
	if again.StatusCode != http.StatusBadGateway || a.sb.Calls("aqua/registerRefund1C") != 1 {
		t.Errorf("the same form again: %d, %d provider calls", again.StatusCode, a.sb.Calls("aqua/registerRefund1C"))
	}
	a.sb.SetFault("aqua/registerRefund1C", sandbox.Fault{})
	if ok := a.resubmit(a.client, r, action, nil, nil); ok.StatusCode != http.StatusSeeOther {
		t.Fatalf("the next form: %d %s", ok.StatusCode, ok.text("main"))
	}
	sameDocs(t, a.lastRefund().Documents, doc("справка.pdf", 1000))
}

// The documents' picker is a large label in our words over the browser's
// control, which stays in the form (it is what posts the files, with
// JavaScript or without); the page loads the script that names the
// chosen files.
func TestRefundFilePicker(t *testing.T) {
	a := newAppStartingOn(t, 0)
	a.signIn(a.client, demoPhone)
	p := a.get("/orders/aqua/" + sandbox.DemoAquaToday + "/refund")
	input := p.doc.Find(`.picker input[type="file"][name="documents"][multiple]#documents`)
	label := p.doc.Find(`.picker label.picker-btn[for="documents"]`)
	if input.Length() != 1 || strings.TrimSpace(label.Text()) != "Выбрать файлы" || p.doc.Find(`.picker output[for="documents"]`).Length() != 1 {
		t.Fatalf("picker: %d inputs, label %q", input.Length(), label.Text())
	}
	if input.AttrOr("data-enhance", "") != "files" || !strings.Contains(p.body, `type="module"`) {
		t.Error("the page does not load the script that names the chosen files")
	}
	r := a.submitRefund(a.client, "aqua", sandbox.DemoAquaToday, nil, []upload{doc("справка.pdf", 1000)})
	if got := strings.TrimSpace(r.doc.Find(`label.picker-btn`).Text()); got != "Добавить файлы" {
		t.Errorf("with a file kept the label says %q", got)
	}
}
