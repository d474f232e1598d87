package handlers_test

import (
	"context"
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"lk/gateway"
	"lk/gateway/sandbox"
	"lk/handlers"
	"lk/internal/testkit"
	"lk/views"
)

// gateCodes are the codes the order page shows, ticket by ticket (the
// caption under each QR code), and how many SVG codes it holds.
func gateCodes(r *resp) (captions []string, svgs int) {
	r.doc.Find(".tickets li").Each(func(_ int, li *goquery.Selection) {
		captions = append(captions, strings.TrimSpace(li.Find("figure.gate figcaption").Text()))
	})
	return captions, r.doc.Find(".tickets svg.qr").Length()
}

func TestPaidWaterParkOrderShowsEachPaidTicketsCode(t *testing.T) {
	a := signedIn(t)
	r := a.get("/orders/aqua/" + sandbox.DemoAquaPaid)
	if r.StatusCode != 200 {
		t.Fatalf("status %d", r.StatusCode)
	}
	captions, svgs := gateCodes(r)
	want := []string{"4600300001001", "4600300001002", "4600300001003"} // the sandbox's barcodes
	if !slices.Equal(captions, want) || svgs != 3 {
		t.Errorf("codes %q in %d SVGs, want %q", captions, svgs, want)
	}
	// The codes are drawn by the server: the page's only scripts name the
	// move page to fetch ahead and fetch its files, and run no code of the
	// page's own.
	r.doc.Find("script").Each(func(_ int, s *goquery.Selection) {
		if s.AttrOr("type", "") != "speculationrules" && s.AttrOr("id", "") != views.NextScriptID {
			t.Errorf("the page has a script: %s", s.AttrOr("src", s.Text()))
		}
	})
	svg := r.doc.Find("svg.qr").First()
	if svg.AttrOr("role", "") != "img" || !strings.HasPrefix(svg.AttrOr("aria-label", ""), "QR-код билета № AQ-300001-01") {
		t.Errorf("the code is not named for screen readers: %v", svg.Nodes[0].Attr)
	}

	// The same content as the QR codes of the ticket PDF, as a reader sees them.
	if got := pdfCodes(t, a, "/orders/aqua/"+sandbox.DemoAquaPaid+"/ticket.pdf"); got != nil && !slices.Equal(got, want) {
		t.Errorf("the PDF's codes %q, the page's %q", got, want)
	}
}

func TestTicketsThatLetNoOneInShowNoCode(t *testing.T) {
	a := signedIn(t)
	for id, want := range map[string][]string{
		sandbox.DemoAquaUnpaid:      {"", ""},                               // awaiting payment
		sandbox.DemoAquaCanceled:    {"", ""},                               // cancelled order
		sandbox.DemoAquaVIPRefunded: {"4600300004001", "", "4600300004003"}, // the refunded one has none
	} {
		r := a.get("/orders/aqua/" + id)
		captions, svgs := gateCodes(r)
		n := 0
		for _, c := range want {
			if c != "" {
				n++
			}
		}
		if !slices.Equal(captions, want) || svgs != n {
			t.Errorf("%s: codes %q in %d SVGs, want %q", id, captions, svgs, want)
		}
	}
	if r := a.get("/orders/aqua/" + sandbox.DemoAquaUnpaid); r.doc.Find("main svg").Length() > 0 || strings.Contains(r.body, "QR-код") {
		t.Errorf("%s awaits payment but shows a code", sandbox.DemoAquaUnpaid)
	}
}

// sixTickets is the provider with the paid demo order holding six tickets.
type sixTickets struct{ handlers.Provider }

func (p sixTickets) AquaOrder(ctx context.Context, guid, id string) (gateway.AquaOrder, error) {
	o, err := p.Provider.AquaOrder(ctx, guid, id)
	if err != nil || id != sandbox.DemoAquaPaid {
		return o, err
	}
	for n := len(o.Tickets) + 1; n <= 6; n++ {
		t := o.Tickets[0]
		t.ID, t.TicketNumber = fmt.Sprintf("%s-%d", id, n), fmt.Sprintf("AQ-%s-%02d", id, n)
		t.Barcode = fmt.Sprintf("46%08s%03d", strings.TrimLeft(id, "0"), n)
		o.Tickets = append(o.Tickets, t)
	}
	return o, nil
}

func TestSixTicketsFitTheFirstFlight(t *testing.T) {
	a := newAppWith(t, func(p handlers.Provider) handlers.Provider { return sixTickets{p} })
	a.signIn(a.client, demoPhone)
	path := "/orders/aqua/" + sandbox.DemoAquaPaid
	if _, svgs := gateCodes(a.get(path)); svgs != 6 {
		t.Fatalf("%d codes, want 6", svgs)
	}
	n, _ := a.firstFlight(path)
	t.Logf("%s with 6 tickets: first flight %d bytes", path, n)
	if n > 14*1024 {
		t.Errorf("first flight %d bytes, budget 14 KB", n)
	}
}

// pdfCodes are the QR codes of the PDF at path, in the tickets' order
// (they are numbered); nil when the tools to read them are not installed.
func pdfCodes(t *testing.T, a *app, path string) []string {
	t.Helper()
	r := a.get(path)
	if r.StatusCode != 200 {
		t.Fatalf("%s: %d", path, r.StatusCode)
	}
	return testkit.PDFCodes(t, []byte(r.body))
}

// The ticket PDF of an order with a refunded ticket has a code for each
// ticket that still lets its holder in, one fewer than its tickets; the
// order's pages and the PDF count the tickets as the order page lists them.
func TestRefundedTicketHasNoCodeAndIsCountedApart(t *testing.T) {
	a := signedIn(t)
	order := "/orders/aqua/" + sandbox.DemoAquaVIPRefunded
	if codes := pdfCodes(t, a, order+"/ticket.pdf"); codes != nil && !slices.Equal(codes, []string{"4600300004001", "4600300004003"}) {
		t.Errorf("the PDF's codes %q: 3 tickets, 1 refunded", codes)
	}
	const count = "2, и 1 с оформленным возвратом"
	for _, p := range []string{order + "/transfer", order + "/refund"} {
		if r := a.get(p); r.kv("main", "Билетов") != count {
			t.Errorf("%s: 'Билетов' %q, want %q", p, r.kv("main", "Билетов"), count)
		}
	}
	if text := pdfText(t, a, order+"/ticket.pdf"); text != "" && (!strings.Contains(text, count) || strings.Contains(text, "Билетов 3")) {
		t.Errorf("the PDF does not count as the page: %s", text)
	}
	// A cancelled order's card shows the money that came back, not 0 ₽.
	for _, p := range []string{"/orders", "/orders?kind=aqua"} {
		card := a.get(p).card("aqua", sandbox.DemoAquaCanceled)
		if amount := strings.TrimSpace(card.Find(".oc-row strong").Text()); amount == "" || strings.HasPrefix(amount, "0") || !strings.HasPrefix(amount, "возврат ") {
			t.Errorf("%s: the cancelled order's card shows %q", p, amount)
		}
	}
}

// pdfText is the text of the PDF at path; "" when pdftotext is missing.
func pdfText(t *testing.T, a *app, path string) string {
	t.Helper()
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Log("pdftotext not installed: the PDF's text is not read")
		return ""
	}
	r := a.get(path)
	cmd := exec.Command("pdftotext", "-enc", "UTF-8", "-", "-")
	cmd.Stdin = strings.NewReader(r.body)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	return strings.Join(strings.Fields(string(out)), " ")
}

// heldAqua holds the water-park order's answer until the test lets it go.
type heldAqua struct {
	handlers.Provider
	gate chan struct{}
}

func (p heldAqua) AquaOrder(ctx context.Context, userID, orderID string) (gateway.AquaOrder, error) {
	defer gateway.AwaitProvider(ctx)() // the page waits on the provider, as with the real client
	select {
	case <-p.gate:
	case <-ctx.Done():
		return gateway.AquaOrder{}, ctx.Err()
	}
	return p.Provider.AquaOrder(ctx, userID, orderID)
}
