// Command shipped says what ships in a build of lk: the Go modules compiled
// into the binary (read from the binary's own build information) and the
// npm packages the islands bundle (islands/package-lock.json's packages
// that are not for development). It writes a CycloneDX 1.5 SBOM of them
// and a folder with each one's licence texts, which the image and the
// release archives carry.
//
//	go run ./scripts/shipped -bin bin/lk -sbom dist/lk.cdx.json -notices dist/licenses
package main

import (
	"cmp"
	"crypto/sha256"
	"debug/buildinfo"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
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
	flag.Parse()
	comps, err := shipped(*bin, *lock)
	if err == nil && *sbom != "" {
		var b []byte
		if b, err = sbomOf(comps, stampOf(*bin, os.Getenv("SOURCE_DATE_EPOCH"))); err == nil {
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

func shipped(bin, lock string) ([]component, error) {
	info, err := buildinfo.ReadFile(bin)
	if err != nil {
		return nil, err
	}
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
			purl: "pkg:golang/" + m.Path + "@" + m.Version,
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
			purl: "pkg:npm/" + url.PathEscape(name) + "@" + p.Version,
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

// stamp is what makes one build's SBOM its own: the commit and its time.
type stamp struct {
	revision string
	time     time.Time // zero: no timestamp
}

// stampOf reads the commit and its time from the binary's build
// information; SOURCE_DATE_EPOCH (Unix seconds), when set, is the time.
func stampOf(bin, epoch string) stamp {
	var s stamp
	if info, err := buildinfo.ReadFile(bin); err == nil {
		for _, kv := range info.Settings {
			switch kv.Key {
			case "vcs.revision":
				s.revision = kv.Value
			case "vcs.time":
				s.time, _ = time.Parse(time.RFC3339, kv.Value)
			}
		}
	}
	if sec, err := strconv.ParseInt(epoch, 10, 64); err == nil {
		s.time = time.Unix(sec, 0)
	}
	return s
}

// sbomOf is the CycloneDX SBOM of comps. Two builds of one commit give the
// same bytes: the serial number is drawn from what the SBOM says (a
// name-based UUID of the release, the commit and the components), the
// timestamp is the commit's, not the moment it is written.
func sbomOf(comps []component, st stamp) ([]byte, error) {
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
	h := sha256.New()
	fmt.Fprintf(h, "lk %s %s\n", lk.Version(), st.revision)
	for _, c := range comps {
		x := comp{Type: "library", BOMRef: c.purl, Name: c.name, Version: c.version, PURL: c.purl}
		if c.license != "" {
			var l license
			l.License.ID = c.license
			x.Licenses = []license{l}
		}
		list = append(list, x)
		fmt.Fprintf(h, "%s %s\n", c.purl, c.license)
	}
	serial := h.Sum(nil)[:16]
	serial[6] = serial[6]&0x0f | 0x50 // version 5: name-based
	serial[8] = serial[8]&0x3f | 0x80
	meta := map[string]any{
		"component": map[string]any{"type": "application", "bom-ref": "lk@" + lk.Version(), "name": "lk", "version": lk.Version()},
	}
	if !st.time.IsZero() {
		meta["timestamp"] = st.time.UTC().Format(time.RFC3339)
	}
	bom := map[string]any{
		"bomFormat":    "CycloneDX",
		"specVersion":  "1.5",
		"serialNumber": fmt.Sprintf("urn:uuid:%x-%x-%x-%x-%x", serial[0:4], serial[4:6], serial[6:8], serial[8:10], serial[10:]),
		"version":      1,
		"metadata":     meta,
		"components":   list,
	}
	b, err := json.MarshalIndent(bom, "", "  ")
	return append(b, '\n'), err
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
