// Command shipped says what ships in a build of lk: the Go modules compiled
// into the binary (read from the binary's own build information) and the
// npm packages the islands bundle (islands/package-lock.json's packages
// that are not for development). It writes a CycloneDX 1.5 SBOM of them
// and a folder with each one's licence texts, which the image and the
// release archives carry. The SBOM is the same bytes for the same build:
// its serial number and time come from the commit, never from the clock.
//
//	go run ./scripts/shipped -bin bin/lk -sbom dist/lk.cdx.json -notices dist/licenses
//	go run ./scripts/shipped -bin bin/lk -version   # what the build calls itself
package main

import (
	"cmp"
	"crypto/sha1"
	"debug/buildinfo"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"
	"time"
	"unicode"

	"lk"
)

// component is one thing that ships, with where its licence texts are.
type component struct {
	kind, name, version, purl, license string
	dir                                string // its files: the module's or the package's folder
}

func main() {
	bin := flag.String("bin", "bin/lk", "the binary whose modules ship")
	lock := flag.String("lock", "islands/package-lock.json", "the islands' npm lock file")
	sbom := flag.String("sbom", "", "write the CycloneDX SBOM (JSON) here")
	notices := flag.String("notices", "", "write the licence texts into this folder")
	version := flag.Bool("version", false, "print the binary's version (lk.VersionOf its build information) and exit")
	commit := flag.String("commit", "", "the commit of the SBOM's serial number and time; default the binary's own (vcs.revision)")
	at := flag.String("time", "", "the commit's time (RFC 3339), the SBOM's timestamp; default the binary's own (vcs.time)")
	flag.Parse()
	info, err := buildinfo.ReadFile(*bin)
	if err == nil && *version {
		fmt.Println(lk.VersionOf(info))
		return
	}
	var comps []component
	if err == nil {
		comps, err = shipped(info, *lock)
	}
	if err == nil && *sbom != "" {
		var b []byte
		if b, err = sbomOf(info, comps, *commit, *at); err == nil {
			err = os.WriteFile(*sbom, b, 0o644)
		}
	}
	if err == nil && *notices != "" {
		err = writeNotices(*notices, comps)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "shipped:", err)
		os.Exit(1)
	}
}

func shipped(info *debug.BuildInfo, lock string) ([]component, error) {
	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		return nil, fmt.Errorf("go env GOMODCACHE: %w", err)
	}
	cache := strings.TrimSpace(string(out))
	var comps []component
	for _, m := range info.Deps {
		if m.Replace != nil {
			m = m.Replace
		}
		comps = append(comps, component{kind: "go", name: m.Path, version: m.Version,
			purl: purl("golang", m.Path, m.Version),
			dir:  filepath.Join(cache, escape(m.Path)+"@"+escape(m.Version))})
	}
	b, err := os.ReadFile(lock)
	if err != nil {
		return nil, err
	}
	var pl struct {
		Packages map[string]struct {
			Version, License string
			Dev, DevOptional bool
		}
	}
	if err := json.Unmarshal(b, &pl); err != nil {
		return nil, fmt.Errorf("%s: %w", lock, err)
	}
	for at, p := range pl.Packages {
		name, ok := strings.CutPrefix(at, "node_modules/")
		if !ok || p.Dev || p.DevOptional || strings.Contains(name, "/node_modules/") {
			continue
		}
		comps = append(comps, component{kind: "npm", name: name, version: p.Version, license: p.License,
			purl: purl("npm", name, p.Version),
			dir:  filepath.Join(filepath.Dir(lock), at)})
	}
	slices.SortFunc(comps, func(a, b component) int { return strings.Compare(a.kind+" "+a.name, b.kind+" "+b.name) })
	for i := range comps {
		if comps[i].license == "" {
			comps[i].license = guessLicense(comps[i].dir)
		}
	}
	return comps, nil
}

// escape is the module cache's spelling of a path or version: each upper
// case letter is "!" and its lower case.
// purl is the package URL of a package of type typ: each segment of its
// namespace and name, and its version, percent-encoded apart, so that a
// scoped npm package is pkg:npm/%40babel/core@7.0.0 and a Go module's
// +incompatible version keeps its plus as %2B.
func purl(typ, name, version string) string {
	segs := strings.Split(name, "/")
	for i, s := range segs {
		segs[i] = purlEscape(s)
	}
	return "pkg:" + typ + "/" + strings.Join(segs, "/") + "@" + purlEscape(version)
}

// purlEscape percent-encodes all but ASCII letters, digits and ".-_~".
func purlEscape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte(".-_~", c) >= 0 {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

func escape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsUpper(r) {
			b.WriteByte('!')
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

var licenseFile = regexp.MustCompile(`(?i)^(licen[cs]e|copying|notice|patents)([.-].*)?$`)

// licenseFiles are the licence texts at the top of dir.
func licenseFiles(dir string) []string {
	entries, _ := os.ReadDir(dir)
	var out []string
	for _, e := range entries {
		if !e.IsDir() && licenseFile.MatchString(e.Name()) {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	return out
}

// guessLicense names the licence of a module's text by the words every
// copy of it has; "" when none matches (the text still ships).
func guessLicense(dir string) string {
	for _, f := range licenseFiles(dir) {
		b, _ := os.ReadFile(f)
		t := strings.Join(strings.Fields(string(b)), " ")
		switch {
		case strings.Contains(t, "Apache License") && strings.Contains(t, "Version 2.0"):
			return "Apache-2.0"
		case strings.Contains(t, "Mozilla Public License Version 2.0"):
			return "MPL-2.0"
		case strings.Contains(t, "Permission is hereby granted, free of charge"):
			return "MIT"
		case strings.Contains(t, "Permission to use, copy, modify, and/or distribute this software for any purpose"):
			return "ISC"
		case strings.Contains(t, "Redistribution and use in source and binary forms") && strings.Contains(t, "Neither the name"):
			return "BSD-3-Clause"
		case strings.Contains(t, "Redistribution and use in source and binary forms"):
			return "BSD-2-Clause"
		}
	}
	return ""
}

// sbomOf is the CycloneDX SBOM of a build: its serial number is a name-based
// UUID (version 5) of the version and commit, and its timestamp the
// commit's time, so the same build gives the same bytes and SHA256SUMS
// stays the same.
func sbomOf(info *debug.BuildInfo, comps []component, commit, at string) ([]byte, error) {
	type license struct {
		License struct {
			ID string `json:"id"`
		} `json:"license"`
	}
	type comp struct {
		Type     string    `json:"type"`
		BOMRef   string    `json:"bom-ref"`
		Name     string    `json:"name"`
		Version  string    `json:"version"`
		PURL     string    `json:"purl"`
		Licenses []license `json:"licenses,omitempty"`
	}
	var list []comp
	for _, c := range comps {
		x := comp{Type: "library", BOMRef: c.purl, Name: c.name, Version: c.version, PURL: c.purl}
		if c.license != "" {
			var l license
			l.License.ID = c.license
			x.Licenses = []license{l}
		}
		list = append(list, x)
	}
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			commit = cmp.Or(commit, s.Value)
		case "vcs.time":
			at = cmp.Or(at, s.Value)
		}
	}
	when, err := time.Parse(time.RFC3339, at)
	if commit == "" || err != nil {
		return nil, fmt.Errorf("the build names no commit and its time (%q, %q): build in a git clone, or give -commit and -time", commit, at)
	}
	version := lk.VersionOf(info)
	bom := map[string]any{
		"bomFormat":    "CycloneDX",
		"specVersion":  "1.5",
		"serialNumber": "urn:uuid:" + uuid5(urlNamespace, "urn:lk:sbom:"+version+":"+commit),
		"version":      1,
		"metadata": map[string]any{
			"timestamp": when.UTC().Format(time.RFC3339),
			"component": map[string]any{"type": "application", "bom-ref": "lk@" + version, "name": "lk", "version": version},
		},
		"components": list,
	}
	b, err := json.MarshalIndent(bom, "", "  ")
	return append(b, '\n'), err
}

// urlNamespace is RFC 9562's namespace of names that are URLs.
var urlNamespace = [16]byte{0x6b, 0xa7, 0xb8, 0x11, 0x9d, 0xad, 0x11, 0xd1, 0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8}

// uuid5 is the name-based UUID (version 5, SHA-1) of name in namespace.
func uuid5(namespace [16]byte, name string) string {
	h := sha1.New()
	h.Write(namespace[:])
	h.Write([]byte(name))
	u := h.Sum(nil)[:16]
	u[6] = u[6]&0x0f | 0x50
	u[8] = u[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", u[0:4], u[4:6], u[6:8], u[8:10], u[10:])
}

// writeNotices writes one file per component with its licence texts, and
// fails when a component has none: nothing ships without its licence.
func writeNotices(dir string, comps []component) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var missing []string
	for _, c := range comps {
		files := licenseFiles(c.dir)
		if len(files) == 0 {
			missing = append(missing, c.kind+" "+c.name+" "+c.version)
			continue
		}
		var text strings.Builder
		fmt.Fprintf(&text, "%s %s (%s)\n\n", c.name, c.version, cmp.Or(c.license, "licence below"))
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				return err
			}
			text.Write(b)
			text.WriteString("\n")
		}
		name := c.kind + "-" + strings.NewReplacer("/", "_", "@", "").Replace(c.name) + ".txt"
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text.String()), 0o644); err != nil {
			return err
		}
	}
	if len(missing) > 0 {
		return errors.New("no licence text found for: " + strings.Join(missing, ", "))
	}
	return nil
}
