package views

import (
	"io/fs"
	"path"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/PuerkitoBio/goquery"

	"lk"
)

// A build's manifest as Vite writes it: the mount loop, an island that
// imports the runtime chunk and has a stylesheet, the module that mounts it.
const testManifest = `{
  "main.ts": {"file": "assets/main-1.js", "isEntry": true, "dynamicImports": ["calendar/TransferCalendar.tsx", "react-mount.ts"]},
  "_react-2.js": {"file": "assets/react-2.js"},
  "react-mount.ts": {"file": "assets/react-mount-3.js", "imports": ["_react-2.js"]},
  "calendar/TransferCalendar.tsx": {"file": "assets/calendar-4.js", "isEntry": true, "imports": ["_react-2.js"], "css": ["assets/calendar-5.css"]}
}`

func TestIslandFilesWaitForTheFirstPaint(t *testing.T) {
	static := fstest.MapFS{
		"css/app.css":              {Data: []byte("body{margin:0}")},
		"dist/.vite/manifest.json": {Data: []byte(testManifest)},
	}
	assets, err := LoadAssets(static, "css/app.css", "dist", "/static/dist/")
	if err != nil {
		t.Fatal(err)
	}
	p := Page{Title: "Перенос", Site: &Site{}, Assets: assets, Islands: []string{CalendarIsland}}
	doc := render(t, LoginPage(p, LoginForm{}))

	// The mount loop is the only script, and the head asks for nothing else:
	// the islands' files are listed in an inert template that the mount loop
	// puts in effect after the first paint.
	if s := doc.Find("script[src]"); s.Length() != 1 || s.AttrOr("type", "") != "module" || s.AttrOr("src", "") != "/static/dist/assets/main-1.js" {
		t.Errorf("scripts: %d, %q", s.Length(), s.AttrOr("src", ""))
	}
	if n := doc.Find("head > link[rel=modulepreload], head > link[rel=preload], head > link[rel=stylesheet]").Length(); n != 0 {
		t.Errorf("%d island files asked for before the first paint", n)
	}
	list := doc.Find("head > template#" + IslandAssetsID)
	var modules, styles []string
	list.Find("link").Each(func(_ int, l *goquery.Selection) {
		if l.AttrOr("fetchpriority", "") != "low" {
			t.Errorf("%s: not at low priority", l.AttrOr("href", ""))
		}
		switch l.AttrOr("rel", "") {
		case "modulepreload":
			modules = append(modules, l.AttrOr("href", ""))
		case "preload":
			if l.AttrOr("as", "") != "style" {
				t.Errorf("%s: preloaded as %q", l.AttrOr("href", ""), l.AttrOr("as", ""))
			}
			styles = append(styles, l.AttrOr("href", ""))
		}
	})
	// Each module comes after the modules it imports.
	if want := []string{"/static/dist/assets/react-2.js", "/static/dist/assets/react-mount-3.js", "/static/dist/assets/calendar-4.js"}; !slices.Equal(modules, want) {
		t.Errorf("modules listed: %q, want %q", modules, want)
	}
	if want := []string{"/static/dist/assets/calendar-5.css"}; !slices.Equal(styles, want) {
		t.Errorf("stylesheets listed: %q, want %q", styles, want)
	}

	// A page without islands lists nothing.
	p.Islands = nil
	if doc := render(t, LoginPage(p, LoginForm{})); doc.Find("template, script[src], link[rel=modulepreload]").Length() != 0 {
		t.Error("a page without islands carries island files")
	}
}

// The phone mask and the birthday field's helper enhance pages that have no
// React island (the sign-in form, the profile form): the build must keep them
// free of React, whose runtime is most of what an island page downloads.
func TestEnhancersBringNoReact(t *testing.T) {
	static, _ := fs.Sub(lk.Static, "static")
	assets, err := LoadAssets(static, "css/app.css", "dist", "/static/dist/")
	if err != nil {
		t.Fatalf("%v (make generate builds the islands)", err)
	}
	brings := func(key string) (react []string) {
		for _, f := range assets.For(key).Preloads {
			if strings.HasPrefix(path.Base(f), "react-") {
				react = append(react, f)
			}
		}
		return react
	}
	if len(brings(CalendarIsland)) == 0 {
		t.Fatal("the calendar island lists no React chunk: the check below would prove nothing")
	}
	for _, key := range []string{PhoneEnhance, BirthdayIsland} {
		if r := brings(key); len(r) != 0 {
			t.Errorf("%s brings %q", key, r)
		}
	}
}

// The order page's script (islands/next) comes inline, so that the page asks
// for nothing beyond its HTML; a build of it that imports a chunk (whose
// address would resolve against the page's) or could end its element is
// loaded by URL instead.
func TestNextScriptIsInlineWhenItCanBe(t *testing.T) {
	const code = "document.head.append(1);\n"
	for _, tc := range []struct {
		name, manifest, code string
		inline               bool
	}{
		{"alone", `{"next/main.ts": {"file": "assets/next-1.js", "isEntry": true}}`, code, true},
		{"importing a chunk", `{"next/main.ts": {"file": "assets/next-1.js", "isEntry": true, "imports": ["_rt-2.js"]}, "_rt-2.js": {"file": "assets/rt-2.js"}}`, code, false},
		{"ending its element", `{"next/main.ts": {"file": "assets/next-1.js", "isEntry": true}}`, `x = "</SCRIPT><b>";`, false},
		{"opening a comment", `{"next/main.ts": {"file": "assets/next-1.js", "isEntry": true}}`, `x = "<!--<script>";`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			static := fstest.MapFS{
				"css/app.css":              {Data: []byte("body{margin:0}")},
				"dist/.vite/manifest.json": {Data: []byte(tc.manifest)},
				"dist/assets/next-1.js":    {Data: []byte(tc.code)},
			}
			assets, err := LoadAssets(static, "css/app.css", "dist", "/static/dist/")
			if err != nil {
				t.Fatal(err)
			}
			p := Page{Title: "Заказ", Site: &Site{}, Assets: assets, Nonce: "n0nce", Speculate: true, Next: "/orders/glk/1/transfer"}
			doc := render(t, LoginPage(p, LoginForm{}))
			script := doc.Find("script#" + NextScriptID)
			if tc.inline {
				if script.Length() != 1 || script.AttrOr("src", "") != "" || script.AttrOr("nonce", "") != "n0nce" || script.Text() != strings.TrimSpace(code) {
					t.Fatalf("inline script %d, src %q, nonce %q, code %q", script.Length(), script.AttrOr("src", ""), script.AttrOr("nonce", ""), script.Text())
				}
				if doc.Find("script[src]").Length() != 0 {
					t.Error("the page still fetches a script")
				}
				return
			}
			if script.Length() != 0 || doc.Find(`script[type="module"][src="/static/dist/assets/next-1.js"]`).Length() != 1 {
				t.Errorf("want the script by URL: inline %d, by URL %d", script.Length(), doc.Find(`script[src]`).Length())
			}
		})
	}
}
