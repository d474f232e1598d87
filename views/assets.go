package views

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
)

// manifestPath is where Vite writes its manifest inside its outDir.
const manifestPath = ".vite/manifest.json"

// Manifest keys of the mount loop and of the module it imports to mount a
// React island.
const (
	MountEntry  = "main.ts"
	reactMount  = "react-mount.ts"
	WorkerEntry = "sw/worker.ts" // the offline worker, served at PathWorker
)

// manifestChunk is one entry of Vite's manifest.
type manifestChunk struct {
	File           string   `json:"file"`
	Src            string   `json:"src"`
	IsEntry        bool     `json:"isEntry"`
	Imports        []string `json:"imports"`
	DynamicImports []string `json:"dynamicImports"`
	CSS            []string `json:"css"`
}

// Assets knows the page's inline CSS and the hashed files of Vite's build.
type Assets struct {
	CSS      string // inlined into every page so it renders from the first flight
	base     string // URL prefix of dist files, "/static/dist/"
	manifest map[string]manifestChunk
	inline   map[string]string // the code of the entries pages carry inline (inlined)
}

// inlined are the entries a page carries inline rather than by URL: small
// and on pages that otherwise load nothing (NextEntry).
var inlined = []string{NextEntry}

// IslandAssetsID is the id of the inert <template> in a page's head that
// lists its islands' files; the mount loop reads it (islands/main.ts).
const IslandAssetsID = "island-assets"

// Tags are what a page puts in its head for the islands it uses.
type Tags struct {
	Scripts  []string // module scripts
	Preloads []string // modules the islands import, preloaded after the first paint
	Styles   []string // their stylesheets, likewise
}

// LoadAssets reads the stylesheet and Vite's manifest from static (the
// embedded static/ folder). A missing manifest means no islands were built:
// pages still work, without enhancement, and the error says so.
func LoadAssets(static fs.FS, cssPath, distDir, base string) (*Assets, error) {
	css, err := fs.ReadFile(static, cssPath)
	if err != nil {
		return nil, fmt.Errorf("views: read css: %w", err)
	}
	a := &Assets{CSS: string(css), base: base, manifest: map[string]manifestChunk{}, inline: map[string]string{}}
	raw, err := fs.ReadFile(static, path.Join(distDir, manifestPath))
	if errors.Is(err, fs.ErrNotExist) {
		return a, fmt.Errorf("views: no islands build at %s: %w", distDir, err)
	}
	if err != nil {
		return a, fmt.Errorf("views: read manifest: %w", err)
	}
	if err := json.Unmarshal(raw, &a.manifest); err != nil {
		return a, fmt.Errorf("views: parse manifest: %w", err)
	}
	for _, key := range inlined {
		ch, ok := a.manifest[key]
		if !ok || ch.File == "" {
			continue
		}
		code, err := fs.ReadFile(static, path.Join(distDir, ch.File))
		if err != nil {
			return a, fmt.Errorf("views: read %s: %w", ch.File, err)
		}
		// Inline, a module's imports would resolve against the page's
		// address, "</script" would end its element and "<!--" change how
		// the HTML parser reads it: such a build is loaded by URL instead.
		lower := strings.ToLower(string(code))
		if len(ch.Imports) == 0 && len(ch.DynamicImports) == 0 && !strings.Contains(lower, "</script") && !strings.Contains(lower, "<!--") {
			a.inline[key] = strings.TrimSpace(string(code))
		}
	}
	return a, nil
}

// Inline is the code of an entry a page carries inline (inlined); "" if it
// is to be loaded by URL, or without a build.
func (a *Assets) Inline(key string) string {
	if a == nil {
		return ""
	}
	return a.inline[key]
}

// Loader is the tags of a page with no islands that still needs the mount
// loop: it registers the offline worker.
func (a *Assets) Loader() Tags {
	var t Tags
	if a == nil {
		return t
	}
	if main, ok := a.manifest[MountEntry]; ok {
		t.Scripts = []string{a.base + main.File}
	}
	return t
}

// File is the path inside the dist folder of an entry's built file, for one
// served under a fixed URL (the offline worker at /sw.js).
func (a *Assets) File(key string) (string, bool) {
	if a == nil {
		return "", false
	}
	ch, ok := a.manifest[key]
	return ch.File, ok && ch.File != ""
}

// Script is the URL of an entry that runs as a module script of its own,
// beside the mount loop (the list's 'Показать ещё'); "" without a build.
func (a *Assets) Script(key string) string {
	if file, ok := a.File(key); ok {
		return a.base + file
	}
	return ""
}

// For returns the tags for a page whose islands are the given manifest keys
// (their source paths, e.g. "sms-code/SmsCode.tsx", "enhance/phone.ts").
// The mount loop is the
// only module script; the islands it will import lazily are listed to be
// preloaded once the page has painted (the layout's template), with every
// chunk they import and every stylesheet hanging on those chunks (Vite hangs
// a shared chunk's CSS on the chunk, not on the entry). Each module is
// listed after the modules it imports, so the list is the same on every
// build of the same code.
func (a *Assets) For(islands ...string) Tags {
	var t Tags
	if a == nil || len(islands) == 0 {
		return t
	}
	main, ok := a.manifest[MountEntry]
	if !ok {
		return t
	}
	t.Scripts = append(t.Scripts, a.base+main.File)
	seen := map[string]bool{MountEntry: true}
	css := map[string]bool{}
	var walk func(key string, preload bool)
	walk = func(key string, preload bool) {
		ch, ok := a.manifest[key]
		if !ok {
			return
		}
		for _, c := range ch.CSS {
			if !css[c] {
				css[c] = true
				t.Styles = append(t.Styles, a.base+c)
			}
		}
		for _, imp := range ch.Imports {
			if !seen[imp] {
				seen[imp] = true
				walk(imp, true)
			}
		}
		if preload {
			t.Preloads = append(t.Preloads, a.base+ch.File)
		}
	}
	walk(MountEntry, false)
	for _, key := range islands {
		if strings.HasSuffix(key, ".tsx") && !seen[reactMount] {
			seen[reactMount] = true
			walk(reactMount, true)
		}
		if !seen[key] {
			seen[key] = true
			walk(key, true)
		}
	}
	return t
}
