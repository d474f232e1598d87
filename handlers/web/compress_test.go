package web

import (
	"bytes"
	"compress/gzip"
	"io"
	"strings"
	"testing"
)

// A page compressed with its stylesheet spliced in reads back byte for byte
// with any gzip reader, whatever its shape.
func TestGzipPageReadsBack(t *testing.T) {
	css := strings.Repeat(".card{margin:0 0 1rem;border:1px solid var(--c-line)}\n", 60)
	body := strings.Repeat("<li class=card>Заказ № 400001, 2 500 ₽</li>\n", 200)
	pages := map[string]string{
		"stylesheet":         `<!doctype html><html><head><style nonce="abc">` + css + `</style></head><body>` + body + `</body></html>`,
		"another nonce":      `<!doctype html><html><head><style nonce="xyz">` + css + `</style></head><body>` + body[:99] + `</body></html>`,
		"small stylesheet":   `<html><head><style>a{color:red}</style></head><body>` + body + `</body></html>`,
		"no stylesheet":      `<html><body>` + body + `</body></html>`,
		"two stylesheets":    `<style>` + css + `</style><style>` + css + `</style>` + body,
		"stylesheet at end":  body + `<style>` + css + `</style>`,
		"unclosed style":     `<style>` + css + body,
		"nothing after":      `<style>` + css + `</style>`,
		"stylesheet changed": `<style>` + css + `b{}</style>` + body,
	}
	for name, page := range pages {
		var out bytes.Buffer
		if err := gzipPage(&out, []byte(page)); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := gunzip(t, out.Bytes()); got != page {
			t.Errorf("%s: read back %d bytes, want %d", name, len(got), len(page))
		}
		if out.Len() > len(page)/2 {
			t.Errorf("%s: %d bytes compressed to %d", name, len(page), out.Len())
		}
	}
}
func gunzip(t testing.TB, raw []byte) string {
	t.Helper()
	zr, err := gzip.NewReader(strings.NewReader(string(raw)))
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
