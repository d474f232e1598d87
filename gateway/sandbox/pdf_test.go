package sandbox

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"lk/gateway"
	"lk/internal/testkit"
)

// Set LK_PDF_OUT to a folder to keep the rendered PDFs and PNGs for a look.

func pdftestAqua(tickets int) gateway.AquaOrder {
	o := gateway.AquaOrder{
		OrderID:       "A-3001",
		DateBeg:       "06.02.2026 10:00:00",
		RegDate:       "20.01.2026 14:31:07",
		PaymentAmount: 1200,
		Paid:          true,
		CanTransfer:   true,
		CanCancel:     true,
	}
	statuses := []string{gateway.TicketPaid, gateway.TicketWaiting, gateway.TicketRefunded}
	for i := range tickets {
		t := gateway.Ticket{
			ID:           fmt.Sprintf("T-%d", i+1),
			TicketNumber: fmt.Sprintf("000123456%d", i),
			Title:        "Взрослый, весь день",
			Price:        1500,
			Status:       statuses[i%len(statuses)],
			Session:      "Дневной 10:00–16:00",
			ProductUID:   fmt.Sprintf("b1c2d3e4-0000-4000-8000-00000000000%d", i),
			Barcode:      fmt.Sprintf("200000123456%d", i),
			EventDate:    "06.02.2026 10:00:00",
		}
		if i%2 == 1 {
			t.Title, t.IsChild, t.Price = "Детский, весь день", true, 1200
		}
		if i == 2 {
			t.Title, t.Session, t.Price = "VIP взрослый", "VIP вечерний 18:00–22:00", 3750.5
		}
		o.Amount += t.Price
		o.Tickets = append(o.Tickets, t)
	}
	return o
}

func pdftestHotel() gateway.HotelOrder {
	return gateway.HotelOrder{
		OrderID:          "H-9001",
		HourBeg:          "13.02.2026 16:00:00",
		HourEnd:          "15.02.2026 14:00:00",
		RegDate:          "20.01.2026 14:31:07",
		Amount:           31000,
		AmountRooms:      26000,
		AmountAddPlaces:  3000,
		AmountChildren:   2000,
		AmountAdult:      29000,
		TotalGuestsCount: 5,
		Paid:             true,
		Rooms: []gateway.Room{{
			Number: "204", Title: "Стандарт двухместный",
			Guests: []gateway.Guest{
				{Family: "Иванов", Name: "Иван", SecondName: "Иванович"},
				{Family: "Иванова", Name: "Мария", SecondName: "Петровна"},
			},
			Childrens: []gateway.Guest{{Family: "Иванов", Name: "Миша", SecondName: "Иванович"}},
		}},
		FamilyRooms: []gateway.Room{{
			Number: "310", Title: "Семейный люкс",
			Guests:    []gateway.Guest{{Family: "Петров", Name: "Пётр"}},
			Childrens: []gateway.Guest{{Family: "Петрова", Name: "Ёлка", SecondName: "Петровна"}},
		}},
	}
}

func TestRub(t *testing.T) {
	for v, want := range map[float64]string{
		0: "0 ₽", 5: "5 ₽", 999: "999 ₽", 1500: "1 500 ₽", 31000: "31 000 ₽",
		1234567: "1 234 567 ₽", 3750.5: "3 750,50 ₽", 0.99: "0,99 ₽",
	} {
		if got := pdfRub(v); got != want {
			t.Errorf("pdfRub(%v) = %q, want %q", v, got, want)
		}
	}
}

// pdftestRender writes what render makes to name in a fresh folder and
// reads its text back ("" where there is no tool to read it).
func pdftestRender(t *testing.T, name string, render func() ([]byte, error)) (dir, path, text string) {
	t.Helper()
	b, err := render()
	if err != nil {
		t.Fatal(err)
	}
	dir = pdftestDir(t)
	path = pdftestWrite(t, dir, name, b)
	return dir, path, pdftestText(t, path)
}

func TestTicketPDF(t *testing.T) {
	o := pdftestAqua(3)
	dir, path, text := pdftestRender(t, "ticket.pdf", func() ([]byte, error) { return TicketPDF(o) })
	if text != "" {
		want := []string{"Курорт", "Аквапарк", "Заказ № A-3001", "06.02.2026", "₽", "1 500 ₽", "3 750,50 ₽",
			"Дневной 10:00–16:00", "Оплачен", "Ожидает оплаты", "Оформлен возврат", "Детский, весь день", pdfDemoNotice}
		for _, tk := range o.Tickets {
			want = append(want, "№ "+tk.TicketNumber)
		}
		pdftestContains(t, text, want...)
	}

	pdftestPNG(t, path, dir, "ticket", 60)
	// Only a ticket that lets its holder in has a code: printed, one
	// awaiting payment or refunded cannot pass for a ticket.
	codes := pdftestQR(t, path)
	if codes != nil {
		for _, tk := range o.Tickets {
			if slices.Contains(codes, tk.Barcode) != gateway.LetsIn(tk, false) {
				t.Errorf("QR codes %q: barcode %q of a ticket %s", codes, tk.Barcode, tk.Status)
			}
		}
	}
	if text != "" && !strings.Contains(text, "недействителен") {
		t.Error("a ticket without its code does not say why")
	}
}

// TestTicketPDFPages: every ticket is printed even when they need several pages.
func TestTicketPDFPages(t *testing.T) {
	o := pdftestAqua(11)
	o.Tickets[4].Barcode = "" // falls back to the ticket number
	_, _, text := pdftestRender(t, "ticket-pages.pdf", func() ([]byte, error) { return TicketPDF(o) })
	if text == "" {
		return
	}
	for _, tk := range o.Tickets {
		pdftestContains(t, text, "№ "+tk.TicketNumber)
	}
	pdftestContains(t, text, "Билет 11 из 11", "Страница 3 из 3")
	// Every page, printed alone, says it is the demo's.
	if n := strings.Count(text, pdfDemoNotice); n < 3 {
		t.Errorf("the demo notice on %d of 3 pages", n)
	}
	if strings.Contains(text, "Страница 4") {
		t.Error("unexpected fourth page")
	}
}

func TestTicketPDFEmpty(t *testing.T) {
	b, err := TicketPDF(gateway.AquaOrder{OrderID: "A-1", DateBeg: "странная дата"})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(b, []byte("%PDF-")) {
		t.Fatal("not a PDF")
	}
}

func TestVoucherPDF(t *testing.T) {
	o := pdftestHotel()
	dir, path, text := pdftestRender(t, "voucher.pdf", func() ([]byte, error) { return VoucherPDF(o) })
	if text != "" {
		pdftestContains(t, text, "Курорт", "Отель", "Ваучер на проживание", "Заказ № H-9001",
			"13.02.2026, 16:00", "15.02.2026, 14:00", "2 ночи", "Номер 204 — Стандарт двухместный",
			"Иванов Иван Иванович", "Иванова Мария Петровна", "Миша", "Семейные номера", "Ёлка",
			"Дополнительные места", "3 000 ₽", "2 000 ₽", "26 000 ₽", "31 000 ₽", "Итого", "Оплачен", pdfDemoNotice)
	}
	pdftestPNG(t, path, dir, "voucher", 60)
	if codes := pdftestQR(t, path); codes != nil && !slices.Contains(codes, o.OrderID) {
		t.Errorf("QR codes %q lack the order id %q", codes, o.OrderID)
	}

	o.Canceled = true
	o.Rooms, o.FamilyRooms = nil, nil
	if _, _, text := pdftestRender(t, "voucher-canceled.pdf", func() ([]byte, error) { return VoucherPDF(o) }); text != "" {
		pdftestContains(t, text, "Отменен", "Номера не указаны.")
	}
}

// ---- helpers ----

func pdftestDir(t *testing.T) string {
	if d := os.Getenv("LK_PDF_OUT"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	return t.TempDir()
}

func pdftestWrite(t *testing.T, dir, name string, b []byte) string {
	t.Helper()
	if !bytes.HasPrefix(b, []byte("%PDF-")) {
		t.Fatalf("%s: no %%PDF- prefix: %q", name, b[:min(len(b), 16)])
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// pdftestText extracts the text with pdftotext; "" when the tool is missing.
func pdftestText(t *testing.T, path string) string {
	t.Helper()
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Log("pdftotext not installed: text not checked")
		return ""
	}
	out, err := exec.Command("pdftotext", "-enc", "UTF-8", path, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext %s: %v", path, err)
	}
	if len(bytes.TrimSpace(out)) == 0 {
		t.Fatalf("pdftotext %s: no text", path)
	}
	return string(out)
}

// pdftestPNG renders the first page with pdftoppm; "" when it is missing.
func pdftestPNG(t *testing.T, path, dir, name string, dpi int) string {
	t.Helper()
	if _, err := exec.LookPath("pdftoppm"); err != nil {
		t.Log("pdftoppm not installed: page not rendered")
		return ""
	}
	prefix := filepath.Join(dir, name)
	cmd := exec.Command("pdftoppm", "-png", "-r", fmt.Sprint(dpi), "-f", "1", "-l", "1", "-singlefile", path, prefix)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("pdftoppm: %v: %s", err, out)
	}
	png := prefix + ".png"
	if st, err := os.Stat(png); err != nil || st.Size() == 0 {
		t.Fatalf("pdftoppm made no PNG: %v", err)
	}
	return png
}

// pdftestQR decodes the QR codes of the PDF at path; nil when a tool to
// read them is missing.
func pdftestQR(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return testkit.PDFCodes(t, b)
}

func pdftestContains(t *testing.T, text string, want ...string) {
	t.Helper()
	// pdftotext may break a line inside a cell; compare with whitespace folded.
	folded := strings.Join(strings.Fields(text), " ")
	for _, w := range want {
		if !strings.Contains(folded, strings.Join(strings.Fields(w), " ")) {
			t.Errorf("PDF text lacks %q", w)
		}
	}
	if t.Failed() {
		t.Logf("text:\n%s", text)
	}
}
