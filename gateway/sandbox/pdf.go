package sandbox

// Real PDF documents of the sandbox: the water-park ticket (aqua/generatePdf)
// and the hotel voucher (hotel/generatePdf). A4 portrait, Noto Sans embedded
// (OFL, see fonts/OFL.txt) so that Cyrillic, № and ₽ render, and a QR code
// drawn as vector squares, so it stays sharp at any zoom and scans well.

import (
	"bytes"
	"embed"
	"fmt"
	"math"
	"strings"
	"time"

	"codeberg.org/go-pdf/fpdf"
	"github.com/boombuler/barcode/qr"

	"lk/gateway"
)

//go:embed fonts/NotoSans-Regular.ttf fonts/NotoSans-Bold.ttf
var pdfFontFS embed.FS

// Resort names printed in the documents' headers.
const (
	pdfResortName = "Курорт"
	// pdfDemoNotice: the sandbox's documents are the demo's, never a ticket.
	pdfDemoNotice = "Демонстрационный режим: заказы и данные ненастоящие."
	pdfAquaName   = "Аквапарк"
	pdfHotelName  = "Отель"
	pdfFont       = "NotoSans"
)

// Page geometry, millimetres.
const (
	pdfPageW    = 210.0
	pdfPageH    = 297.0
	pdfMarginX  = 15.0
	pdfMarginT  = 15.0
	pdfMarginB  = 18.0
	pdfContentW = pdfPageW - 2*pdfMarginX
)

// Colours.
var (
	pdfAccent = [3]int{0, 105, 148} // deep water blue
	pdfText   = [3]int{33, 37, 41}
	pdfMuted  = [3]int{108, 117, 125}
	pdfLine   = [3]int{206, 212, 218}
	pdfPanel  = [3]int{241, 246, 249}
	pdfBad    = [3]int{176, 42, 55}
	pdfOK     = [3]int{25, 118, 60}
	pdfWarn   = [3]int{156, 100, 0}
)

// TicketPDF renders a water-park order's tickets: a header, the order's
// number, visit date and totals, then one block per ticket with its number,
// title, date, session, price, status and a QR code of its barcode.
func TicketPDF(o gateway.AquaOrder) ([]byte, error) {
	d, err := newPDFDoc("Билеты, заказ № "+o.OrderID, pdfAquaName, "Электронные билеты")
	if err != nil {
		return nil, err
	}
	pdf := d.pdf

	// Order summary.
	visit := pdfDate(o.DateBeg)
	d.title(fmt.Sprintf("Заказ № %s", o.OrderID))
	d.fields([][2]string{
		{"Дата посещения", visit},
		{"Дата оформления", pdfDateTime(o.RegDate)},
		{"Билетов", gateway.TicketCount(o.Tickets)},
		{"Статус заказа", gateway.StatusLabel(o.Canceled, o.Paid)},
		{"Сумма заказа", pdfRub(o.Amount)},
	})
	if o.PaymentAmount > 0 {
		d.fields([][2]string{{"Ожидает оплаты", pdfRub(o.PaymentAmount)}})
	}
	pdf.Ln(4)

	if len(o.Tickets) == 0 {
		d.setColor(pdfMuted)
		pdf.SetFont(pdfFont, "", 11)
		pdf.CellFormat(pdfContentW, 7, "В заказе нет билетов.", "", 1, "L", false, 0, "")
	}

	const (
		boxH  = 48.0
		qrBox = 39.0
		gap   = 5.0
	)
	for i, t := range o.Tickets {
		y := pdf.GetY()
		if y+boxH > pdfPageH-pdfMarginB {
			pdf.AddPage()
			y = pdf.GetY()
		}
		refunded := t.Status == gateway.TicketRefunded
		// Frame.
		pdf.SetLineWidth(0.3)
		d.drawColor(pdfLine)
		pdf.SetFillColor(255, 255, 255)
		pdf.RoundedRect(pdfMarginX, y, pdfContentW, boxH, 2.5, "1234", "D")
		// Accent strip on the left.
		d.fillColor(pdfAccent)
		if refunded {
			d.fillColor(pdfMuted)
		}
		pdf.Rect(pdfMarginX, y+2.5, 1.6, boxH-5, "F")

		// Text column.
		x := pdfMarginX + 6
		textW := pdfContentW - qrBox - 6 - 2*gap
		pdf.SetXY(x, y+4)
		d.setColor(pdfMuted)
		pdf.SetFont(pdfFont, "", 9)
		pdf.CellFormat(textW, 4.5, fmt.Sprintf("Билет %d из %d", i+1, len(o.Tickets)), "", 2, "L", false, 0, "")
		d.setColor(pdfText)
		pdf.SetFont(pdfFont, "B", 15)
		pdf.CellFormat(textW, 8, "№ "+t.TicketNumber, "", 2, "L", false, 0, "")
		pdf.SetFont(pdfFont, "", 11.5)
		title := t.Title
		if t.IsChild && !strings.Contains(strings.ToLower(title), "дет") {
			title += " (детский)"
		}
		pdf.CellFormat(textW, 6.5, pdfFit(pdf, title, textW), "", 2, "L", false, 0, "")
		date := pdfDate(t.EventDate)
		if date == "" {
			date = visit
		}
		rows := [][2]string{
			{"Дата", date},
			{"Сеанс", t.Session},
			{"Цена", pdfRub(t.Price)},
		}
		pdf.Ln(1)
		for _, r := range rows {
			pdf.SetX(x)
			d.setColor(pdfMuted)
			pdf.SetFont(pdfFont, "", 10)
			pdf.CellFormat(22, 5.5, r[0], "", 0, "L", false, 0, "")
			d.setColor(pdfText)
			pdf.SetFont(pdfFont, "B", 10.5)
			pdf.CellFormat(textW-22, 5.5, pdfFit(pdf, r[1], textW-22), "", 2, "L", false, 0, "")
			pdf.SetX(x)
		}
		pdf.SetX(x)
		d.setColor(pdfMuted)
		pdf.SetFont(pdfFont, "", 10)
		pdf.CellFormat(22, 5.5, "Статус", "", 0, "L", false, 0, "")
		label, col := pdfTicketStatus(t.Status)
		d.setColor(col)
		pdf.SetFont(pdfFont, "B", 10.5)
		pdf.CellFormat(textW-22, 5.5, label, "", 2, "L", false, 0, "")

		// QR code of the barcode, with its value under it; a ticket that lets
		// no one in has none, so that printed it cannot pass for one.
		qx := pdfMarginX + pdfContentW - gap - qrBox
		if gateway.LetsIn(t, o.Canceled) {
			code := t.GateCode(o.OrderID)
			if err := d.qr(code, qx, y+3, qrBox-2); err != nil {
				return nil, err
			}
			pdf.SetXY(qx-4, y+3+qrBox-1)
			d.setColor(pdfMuted)
			pdf.SetFont(pdfFont, "", 8)
			pdf.CellFormat(qrBox+6, 4, pdfFit(pdf, code, qrBox+6), "", 0, "C", false, 0, "")
		} else {
			d.drawColor(pdfLine)
			pdf.SetLineWidth(0.4)
			pdf.Rect(qx, y+3, qrBox-2, qrBox-2, "D")
			pdf.SetXY(qx, y+3+(qrBox-2)/2-4)
			d.setColor(pdfMuted)
			pdf.SetFont(pdfFont, "B", 9)
			pdf.MultiCell(qrBox-2, 4, "Для прохода\nнедействителен", "", "C", false)
		}

		pdf.SetXY(pdfMarginX, y+boxH+3.5)
	}

	d.note("Предъявите QR-код билета на входе в аквапарк с экрана телефона или распечатанным. " +
		"Билет действителен в указанные дату и сеанс. Билеты, ожидающие оплаты или с оформленным возвратом, для прохода недействительны.")
	return d.bytes()
}

// VoucherPDF renders a hotel booking's voucher: order number, stay, rooms and
// family rooms with their guests and children, amounts, status and a QR code
// of the order id.
func VoucherPDF(o gateway.HotelOrder) ([]byte, error) {
	d, err := newPDFDoc("Ваучер, заказ № "+o.OrderID, pdfHotelName, "Ваучер на проживание")
	if err != nil {
		return nil, err
	}
	pdf := d.pdf

	// Order number and QR code side by side.
	const qrSize = 38.0
	top := pdf.GetY()
	if err := d.qr(pdfFirst(o.OrderID, "-"), pdfMarginX+pdfContentW-qrSize, top, qrSize); err != nil {
		return nil, err
	}
	d.title(fmt.Sprintf("Заказ № %s", o.OrderID))
	in, out := pdfTime(o.HourBeg), pdfTime(o.HourEnd)
	nights := ""
	if !in.IsZero() && !out.IsZero() {
		n := pdfNights(in, out)
		nights = fmt.Sprintf("%d %s", n, pdfPlural(n, "ночь", "ночи", "ночей"))
	}
	rows := [][2]string{
		{"Заезд", pdfDateTimeShort(o.HourBeg)},
		{"Выезд", pdfDateTimeShort(o.HourEnd)},
	}
	if nights != "" {
		rows = append(rows, [2]string{"Проживание", nights})
	}
	rows = append(rows,
		[2]string{"Гостей", fmt.Sprint(o.TotalGuestsCount)},
		[2]string{"Дата оформления", pdfDateTime(o.RegDate)},
		[2]string{"Статус", gateway.StatusLabel(o.Canceled, o.Paid)},
	)
	d.fieldsW(rows, pdfContentW-qrSize-5)
	below := pdf.GetY()
	pdf.SetFont(pdfFont, "", 8)
	d.setColor(pdfMuted)
	pdf.SetXY(pdfMarginX+pdfContentW-qrSize-4, top+qrSize)
	pdf.CellFormat(qrSize+4, 4, pdfFit(pdf, o.OrderID, qrSize+4), "", 1, "C", false, 0, "")
	pdf.SetXY(pdfMarginX, max(below, top+qrSize+4)+4)

	// Rooms.
	rooms := func(heading string, rs []gateway.Room) {
		if len(rs) == 0 {
			return
		}
		d.section(heading)
		for _, r := range rs {
			if pdf.GetY()+24 > pdfPageH-pdfMarginB {
				pdf.AddPage()
			}
			name := strings.TrimSpace(r.Title)
			if r.Number != "" {
				name = "Номер " + r.Number + " — " + name
			}
			d.setColor(pdfText)
			pdf.SetFont(pdfFont, "B", 11.5)
			pdf.MultiCell(pdfContentW, 6.5, name, "", "L", false)
			d.people("Гости", r.Guests)
			d.people("Дети", r.Childrens)
			pdf.Ln(2)
		}
	}
	rooms("Номера", o.Rooms)
	rooms("Семейные номера", o.FamilyRooms)
	if len(o.Rooms) == 0 && len(o.FamilyRooms) == 0 {
		d.section("Номера")
		d.setColor(pdfMuted)
		pdf.SetFont(pdfFont, "", 10.5)
		pdf.CellFormat(pdfContentW, 6, "Номера не указаны.", "", 1, "L", false, 0, "")
	}

	// Amounts.
	if pdf.GetY()+45 > pdfPageH-pdfMarginB {
		pdf.AddPage()
	}
	d.section("Стоимость")
	amounts := [][2]string{
		{"Номера", pdfRub(o.AmountRooms)},
		{"Дополнительные места", pdfRub(o.AmountAddPlaces)},
		{"Дети", pdfRub(o.AmountChildren)},
	}
	for i, a := range amounts {
		fill := i%2 == 0
		d.fillColor(pdfPanel)
		d.setColor(pdfText)
		pdf.SetFont(pdfFont, "", 10.5)
		pdf.CellFormat(pdfContentW-45, 7, "  "+a[0], "", 0, "L", fill, 0, "")
		pdf.CellFormat(45, 7, a[1]+"  ", "", 1, "R", fill, 0, "")
	}
	d.drawColor(pdfText)
	pdf.SetLineWidth(0.4)
	pdf.Line(pdfMarginX, pdf.GetY()+0.5, pdfMarginX+pdfContentW, pdf.GetY()+0.5)
	pdf.Ln(1.5)
	pdf.SetFont(pdfFont, "B", 12)
	pdf.CellFormat(pdfContentW-45, 8, "  Итого", "", 0, "L", false, 0, "")
	pdf.CellFormat(45, 8, pdfRub(o.Amount)+"  ", "", 1, "R", false, 0, "")

	d.note("Предъявите ваучер и документы, удостоверяющие личность гостей, на стойке регистрации. " +
		"Заезд с 16:00, выезд до 14:00.")
	return d.bytes()
}

// ---- document helpers ----

type pdfDoc struct {
	pdf *fpdf.Fpdf
}

// newPDFDoc starts a document of venue with its header band: the resort,
// the venue and the document's kind.
func newPDFDoc(title, venue, kind string) (*pdfDoc, error) {
	regular, err := pdfFontFS.ReadFile("fonts/NotoSans-Regular.ttf")
	if err != nil {
		return nil, err
	}
	bold, err := pdfFontFS.ReadFile("fonts/NotoSans-Bold.ttf")
	if err != nil {
		return nil, err
	}
	pdf := fpdf.New("P", "mm", "A4", "")
	pdf.AddUTF8FontFromBytes(pdfFont, "", regular)
	pdf.AddUTF8FontFromBytes(pdfFont, "B", bold)
	pdf.SetTitle(title, true)
	pdf.SetSubject(pdfResortName+" · "+venue, true)
	pdf.SetAuthor(pdfResortName, true)
	pdf.SetCreator(pdfResortName+" · sandbox", true)
	pdf.SetMargins(pdfMarginX, pdfMarginT, pdfMarginX)
	pdf.SetAutoPageBreak(true, pdfMarginB)
	pdf.AliasNbPages("{nb}")
	d := &pdfDoc{pdf: pdf}
	pdf.SetFooterFunc(func() {
		// A demo document is printed and forwarded: every page says what
		// it is, as every page of the account does.
		pdf.SetY(-17)
		pdf.SetFont(pdfFont, "B", 8.5)
		d.setColor(pdfBad)
		pdf.CellFormat(pdfContentW, 5, pdfDemoNotice, "", 0, "C", false, 0, "")
		pdf.SetY(-12)
		pdf.SetFont(pdfFont, "", 8)
		d.setColor(pdfMuted)
		pdf.CellFormat(pdfContentW/2, 5, pdfResortName+" · "+venue, "", 0, "L", false, 0, "")
		pdf.CellFormat(pdfContentW/2, 5, fmt.Sprintf("Страница %d из {nb}", pdf.PageNo()), "", 0, "R", false, 0, "")
	})
	pdf.AddPage()
	d.header(venue, kind)
	return d, pdf.Error()
}

func (d *pdfDoc) bytes() ([]byte, error) {
	var buf bytes.Buffer
	if err := d.pdf.Output(&buf); err != nil {
		return nil, fmt.Errorf("sandbox: render pdf: %w", err)
	}
	return buf.Bytes(), nil
}

func (d *pdfDoc) setColor(c [3]int)  { d.pdf.SetTextColor(c[0], c[1], c[2]) }
func (d *pdfDoc) fillColor(c [3]int) { d.pdf.SetFillColor(c[0], c[1], c[2]) }
func (d *pdfDoc) drawColor(c [3]int) { d.pdf.SetDrawColor(c[0], c[1], c[2]) }

// header draws the coloured band with the resort's name, the venue and the
// document's kind.
func (d *pdfDoc) header(venue, kind string) {
	pdf := d.pdf
	d.fillColor(pdfAccent)
	pdf.Rect(0, 0, pdfPageW, 30, "F")
	pdf.SetXY(pdfMarginX, 7)
	pdf.SetTextColor(255, 255, 255)
	pdf.SetFont(pdfFont, "B", 20)
	pdf.CellFormat(pdfContentW/2, 9, pdfResortName, "", 2, "L", false, 0, "")
	pdf.SetFont(pdfFont, "", 12)
	pdf.CellFormat(pdfContentW/2, 7, venue, "", 0, "L", false, 0, "")
	pdf.SetXY(pdfMarginX+pdfContentW/2, 9)
	pdf.SetFont(pdfFont, "B", 13)
	pdf.CellFormat(pdfContentW/2, 7, kind, "", 2, "R", false, 0, "")
	pdf.SetFont(pdfFont, "", 9)
	pdf.CellFormat(pdfContentW/2, 6, "Личный кабинет", "", 0, "R", false, 0, "")
	pdf.SetXY(pdfMarginX, 31.5)
	pdf.SetFont(pdfFont, "B", 10)
	d.setColor(pdfBad)
	pdf.CellFormat(pdfContentW, 5.5, pdfDemoNotice, "", 0, "L", false, 0, "")
	pdf.SetXY(pdfMarginX, 38)
}

func (d *pdfDoc) title(s string) {
	d.setColor(pdfText)
	d.pdf.SetFont(pdfFont, "B", 17)
	d.pdf.CellFormat(pdfContentW, 10, s, "", 1, "L", false, 0, "")
	d.pdf.Ln(1)
}

// block starts a block that needs room mm of the page (on a new page when
// it does not fit) gap mm below the last one, written in c.
func (d *pdfDoc) block(room, gap float64, c [3]int) {
	if d.pdf.GetY()+room > pdfPageH-pdfMarginB {
		d.pdf.AddPage()
	}
	d.pdf.Ln(gap)
	d.setColor(c)
}

// label prints a muted label of width w at x, leaving the text color for
// the value that follows on its line.
func (d *pdfDoc) label(x, w, h, size float64, s string) {
	d.pdf.SetX(x)
	d.setColor(pdfMuted)
	d.pdf.SetFont(pdfFont, "", size)
	d.pdf.CellFormat(w, h, s, "", 0, "L", false, 0, "")
	d.setColor(pdfText)
}

func (d *pdfDoc) section(s string) {
	pdf := d.pdf
	d.block(16, 2, pdfAccent)
	pdf.SetFont(pdfFont, "B", 12.5)
	pdf.CellFormat(pdfContentW, 7, s, "", 1, "L", false, 0, "")
	d.drawColor(pdfLine)
	pdf.SetLineWidth(0.3)
	pdf.Line(pdfMarginX, pdf.GetY(), pdfMarginX+pdfContentW, pdf.GetY())
	pdf.Ln(2)
}

func (d *pdfDoc) fields(rows [][2]string) { d.fieldsW(rows, pdfContentW) }

// fieldsW prints label–value rows within width w.
func (d *pdfDoc) fieldsW(rows [][2]string, w float64) {
	pdf := d.pdf
	const labelW = 42.0
	for _, r := range rows {
		d.label(pdfMarginX, labelW, 6.5, 10.5, r[0])
		if r[0] == "Статус" || r[0] == "Статус заказа" {
			d.setColor(pdfStatusColor(r[1]))
		}
		pdf.SetFont(pdfFont, "B", 10.5)
		pdf.CellFormat(w-labelW, 6.5, pdfFit(pdf, r[1], w-labelW), "", 1, "L", false, 0, "")
	}
}

// people prints "Гости: Иванов Иван Иванович, …" wrapped to the page.
func (d *pdfDoc) people(label string, ps []gateway.Guest) {
	if len(ps) == 0 {
		return
	}
	pdf := d.pdf
	names := make([]string, 0, len(ps))
	for _, p := range ps {
		n := strings.Join(strings.Fields(p.Family+" "+p.Name+" "+p.SecondName), " ")
		if n != "" {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return
	}
	const labelW = 18.0
	d.label(pdfMarginX+4, labelW, 5.5, 10, label)
	pdf.SetFont(pdfFont, "", 10.5)
	pdf.MultiCell(pdfContentW-4-labelW, 5.5, strings.Join(names, ", "), "", "L", false)
}

// note prints a small framed paragraph, on a new page if it does not fit.
func (d *pdfDoc) note(s string) {
	pdf := d.pdf
	d.block(22, 4, pdfMuted)
	pdf.SetFont(pdfFont, "", 9)
	pdf.MultiCell(pdfContentW, 4.8, s, "", "L", false)
}

// qr draws a QR code of s as filled squares in a size×size box at (x, y),
// with the standard quiet zone inside the box.
func (d *pdfDoc) qr(s string, x, y, size float64) error {
	code, err := qr.Encode(s, qr.M, qr.Auto)
	if err != nil {
		return fmt.Errorf("sandbox: qr %q: %w", s, err)
	}
	b := code.Bounds()
	n := b.Dx()
	const quiet = 4
	module := size / float64(n+2*quiet)
	pdf := d.pdf
	pdf.SetFillColor(255, 255, 255)
	pdf.Rect(x, y, size, size, "F")
	pdf.SetFillColor(0, 0, 0)
	ox, oy := x+quiet*module, y+quiet*module
	for row := 0; row < b.Dy(); row++ {
		for col := 0; col < n; {
			if !pdfDark(code.At(b.Min.X+col, b.Min.Y+row)) {
				col++
				continue
			}
			start := col
			for col < n && pdfDark(code.At(b.Min.X+col, b.Min.Y+row)) {
				col++
			}
			// A hair wider than a module so neighbouring rows leave no seams.
			pdf.Rect(ox+float64(start)*module, oy+float64(row)*module,
				float64(col-start)*module+0.01, module+0.01, "F")
		}
	}
	return pdf.Error()
}

func pdfDark(c interface{ RGBA() (r, g, b, a uint32) }) bool {
	r, _, _, _ := c.RGBA()
	return r < 0x8000
}

// ---- text helpers ----

// pdfFit shortens s with an ellipsis so that it fits width w in the current font.
func pdfFit(pdf *fpdf.Fpdf, s string, w float64) string {
	if pdf.GetStringWidth(s) <= w-1 {
		return s
	}
	r := []rune(s)
	for len(r) > 0 && pdf.GetStringWidth(string(r)+"…") > w-1 {
		r = r[:len(r)-1]
	}
	return string(r) + "…"
}

func pdfFirst(ss ...string) string {
	for _, s := range ss {
		if strings.TrimSpace(s) != "" {
			return s
		}
	}
	return ""
}

// pdfRub formats roubles as "1 500 ₽", with kopecks only when there are some
// ("1 500,50 ₽").
func pdfRub(v float64) string {
	neg := v < 0
	v = math.Abs(v)
	kop := int64(math.Round(v * 100))
	whole, frac := kop/100, kop%100
	digits := fmt.Sprint(whole)
	var b strings.Builder
	if neg {
		b.WriteString("−")
	}
	for i, c := range digits {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteByte(' ')
		}
		b.WriteRune(c)
	}
	if frac != 0 {
		fmt.Fprintf(&b, ",%02d", frac)
	}
	b.WriteString(" ₽")
	return b.String()
}

func pdfStatusColor(label string) [3]int {
	switch label {
	case "Оплачен":
		return pdfOK
	case "Отменен", "Оформлен возврат":
		return pdfBad
	case "Не оплачен", "Ожидает оплаты":
		return pdfWarn
	}
	return pdfText
}

func pdfTicketStatus(s string) (string, [3]int) {
	var label string
	switch s {
	case gateway.TicketPaid:
		label = "Оплачен"
	case gateway.TicketWaiting:
		label = "Ожидает оплаты"
	case gateway.TicketRefunded:
		label = "Оформлен возврат"
	default:
		label = s
	}
	return label, pdfStatusColor(label)
}

func pdfPlural(n int, one, few, many string) string {
	n %= 100
	if n >= 11 && n <= 14 {
		return many
	}
	switch n % 10 {
	case 1:
		return one
	case 2, 3, 4:
		return few
	}
	return many
}

// ---- dates ----

// pdfTime parses a provider date or date-time (gateway's one parser); zero
// when it cannot.
func pdfTime(s string) time.Time {
	t, _ := gateway.ParseDateTime(s, nil)
	return t
}

// pdfDate gives "06.02.2026", or the string as is when it is not a date.
func pdfDate(s string) string {
	if t := pdfTime(s); !t.IsZero() {
		return t.Format("02.01.2006")
	}
	return s
}

// pdfDateTime gives "06.02.2026 10:00", or the string as is.
func pdfDateTime(s string) string {
	if t := pdfTime(s); !t.IsZero() {
		return t.Format("02.01.2006 15:04")
	}
	return s
}

// pdfDateTimeShort gives "13.02.2026, 16:00" (the date alone at midnight).
func pdfDateTimeShort(s string) string {
	t := pdfTime(s)
	if t.IsZero() {
		return s
	}
	if t.Hour() == 0 && t.Minute() == 0 {
		return t.Format("02.01.2006")
	}
	return t.Format("02.01.2006, 15:04")
}

func pdfNights(in, out time.Time) int {
	a := time.Date(in.Year(), in.Month(), in.Day(), 0, 0, 0, 0, time.UTC)
	b := time.Date(out.Year(), out.Month(), out.Day(), 0, 0, 0, 0, time.UTC)
	n := int(b.Sub(a).Hours() / 24)
	if n < 1 {
		n = 1
	}
	return n
}
