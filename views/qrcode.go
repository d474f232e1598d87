package views

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/a-h/templ"
	"github.com/boombuler/barcode"
	"github.com/boombuler/barcode/qr"
)

// qrQuiet is the light margin around a code, in modules: one more than the
// four QR codes require, so a phone screen's bezel or a dark page around it
// never eats into it.
const qrQuiet = 5

// qrModulePx is a module's size on screen (CSS pixels) when there is room:
// a version-1 code (21 modules) comes out 31 × 7 = 217 px wide, large enough
// for a gate scanner at arm's length; CSS shrinks it on narrow screens.
const qrModulePx = 7

// QRCode is content as a QR code (level M, as the ticket PDF) in inline SVG:
// no script, no extra request, sharp at any zoom. The dark modules are one
// path of horizontal runs drawn as 1-unit-wide strokes in a viewBox counted
// in modules; black on a white square of its own, so the page's colours
// (a dark theme included) never reach it. label names it for screen readers.
func QRCode(content, label string) templ.Component {
	return templ.ComponentFunc(func(_ context.Context, w io.Writer) error {
		svg, err := QRSVG(content, label)
		if err != nil {
			return err
		}
		_, err = io.WriteString(w, svg)
		return err
	})
}

// QRSVG is the markup of QRCode.
func QRSVG(content, label string) (string, error) {
	code, err := qr.Encode(content, qr.M, qr.Auto)
	if err != nil {
		return "", fmt.Errorf("views: qr code: %w", err)
	}
	return qrSVG(QRMatrix(code), label), nil
}

// QRMatrix is the code's modules, row by row, true for dark; without the
// quiet zone.
func QRMatrix(code barcode.Barcode) [][]bool {
	b := code.Bounds()
	m := make([][]bool, b.Dy())
	for y := range m {
		m[y] = make([]bool, b.Dx())
		for x := range m[y] {
			r, g, bl, _ := code.At(b.Min.X+x, b.Min.Y+y).RGBA()
			m[y][x] = r+g+bl < 3*0x8000
		}
	}
	return m
}

// qrSVG draws a module matrix. Each run of dark modules in a row is
// "h{length}" along the row's middle line; a run after another in the same
// row starts with a relative move, a new row with an absolute one.
func qrSVG(m [][]bool, label string) string {
	n := len(m) + 2*qrQuiet
	size := strconv.Itoa(n)
	px := strconv.Itoa(n * qrModulePx)
	var d strings.Builder
	for y, row := range m {
		end := -1 // where the previous run of this row ended
		for x := 0; x < len(row); {
			if !row[x] {
				x++
				continue
			}
			start := x
			for x < len(row) && row[x] {
				x++
			}
			if end < 0 {
				fmt.Fprintf(&d, "M%d %d.5", start+qrQuiet, y+qrQuiet)
			} else {
				fmt.Fprintf(&d, "m%d 0", start-end)
			}
			fmt.Fprintf(&d, "h%d", x-start)
			end = x
		}
	}
	return `<svg class="qr" viewBox="0 0 ` + size + ` ` + size + `" width="` + px + `" height="` + px +
		`" shape-rendering="crispEdges" role="img" aria-label="` + templ.EscapeString(label) + `">` +
		`<path fill="#fff" d="M0 0h` + size + `v` + size + `H0z"/>` +
		`<path stroke="#000" d="` + d.String() + `"/></svg>`
}
