package views_test

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/boombuler/barcode/qr"

	"lk/views"
)

// svgMatrix reads the dark modules back from QRSVG's markup, the way a
// renderer would: every "h" of the stroke path paints a run of modules on
// the row its y falls in. It knows only SVG path syntax for M, m and h, so
// it checks the drawing, not the drawer's own bookkeeping.
func svgMatrix(t *testing.T, svg string) (size int, dark map[[2]int]bool) {
	t.Helper()
	vb := regexp.MustCompile(`viewBox="0 0 (\d+) (\d+)"`).FindStringSubmatch(svg)
	if vb == nil || vb[1] != vb[2] {
		t.Fatalf("no square viewBox in %s", svg)
	}
	size, _ = strconv.Atoi(vb[1])
	paths := regexp.MustCompile(`<path stroke="#000" d="([^"]*)"/>`).FindStringSubmatch(svg)
	if paths == nil {
		t.Fatalf("no dark path in %s", svg)
	}
	dark = map[[2]int]bool{}
	var x, y float64
	for _, cmd := range regexp.MustCompile(`[MmHh][^MmHh]*`).FindAllString(paths[1], -1) {
		args := strings.Fields(cmd[1:])
		num := func(i int) float64 {
			v, err := strconv.ParseFloat(args[i], 64)
			if err != nil {
				t.Fatalf("bad number in %q", cmd)
			}
			return v
		}
		switch cmd[0] {
		case 'M':
			x, y = num(0), num(1)
		case 'm':
			x, y = x+num(0), y+num(1)
		case 'h':
			l := num(0)
			if y != float64(int(y))+0.5 {
				t.Fatalf("a run off a row's middle line: y=%v", y)
			}
			for i := 0; i < int(l); i++ {
				dark[[2]int{int(x) + i, int(y)}] = true
			}
			x += l
		default:
			t.Fatalf("unexpected command %q", cmd)
		}
	}
	return size, dark
}

func TestQRSVGDrawsBoombulersMatrix(t *testing.T) {
	for _, content := range []string{"46300001001", "AQ-300001-01", "300001-1", "https://example.ru/ticket?id=42&x=1"} {
		svg, err := views.QRSVG(content, "QR-код билета")
		if err != nil {
			t.Fatal(err)
		}
		code, _ := qr.Encode(content, qr.M, qr.Auto)
		want := views.QRMatrix(code)
		size, dark := svgMatrix(t, svg)
		quiet := (size - len(want)) / 2
		if quiet < 4 || size != len(want)+2*quiet {
			t.Fatalf("%s: %d modules with a quiet zone of %d in a %d viewBox", content, len(want), quiet, size)
		}
		for y := range size {
			for x := range size {
				in := x >= quiet && y >= quiet && x < quiet+len(want) && y < quiet+len(want)
				if w := in && want[y-quiet][x-quiet]; dark[[2]int{x, y}] != w {
					t.Fatalf("%s: module (%d,%d) dark=%v, want %v", content, x, y, dark[[2]int{x, y}], w)
				}
			}
		}
		if strings.Contains(svg, "<script") || !strings.Contains(svg, `shape-rendering="crispEdges"`) ||
			!strings.Contains(svg, `<path fill="#fff" d="M0 0h`) {
			t.Errorf("%s: markup %s", content, svg)
		}
	}
}

// TestQRSVGScans rasterises the SVG's modules (as read back from the
// markup) to a PNG and lets zbarimg, the reader the browser test uses,
// decode it.
func TestQRSVGScans(t *testing.T) {
	zbar, err := exec.LookPath("zbarimg")
	if err != nil {
		t.Skip("zbarimg not installed (apt-get install zbar-tools)")
	}
	const content = "46300001001"
	svg, err := views.QRSVG(content, "QR-код")
	if err != nil {
		t.Fatal(err)
	}
	size, dark := svgMatrix(t, svg)
	const px = 6
	img := image.NewGray(image.Rect(0, 0, size*px, size*px))
	for y := range size * px {
		for x := range size * px {
			c := color.Gray{Y: 255}
			if dark[[2]int{x / px, y / px}] {
				c = color.Gray{}
			}
			img.SetGray(x, y, c)
		}
	}
	file := filepath.Join(t.TempDir(), "code.png")
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(zbar, "--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", file).Output()
	if err != nil {
		t.Fatalf("zbarimg: %v", err)
	}
	if got := strings.TrimSpace(string(out)); got != content {
		t.Errorf("zbarimg read %q, want %q", got, content)
	}
}

func TestQRCodeComponentEscapesItsLabel(t *testing.T) {
	var b strings.Builder
	if err := views.QRCode("1", `№ "1" <b>`).Render(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `aria-label="№ &#34;1&#34; &lt;b&gt;"`) {
		t.Errorf("label not escaped: %s", b.String())
	}
	if _, err := views.QRSVG(strings.Repeat("x", 5000), ""); err == nil {
		t.Error("content too long for a QR code: no error")
	}
}
