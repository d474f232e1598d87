package main

import (
	"bytes"
	"encoding/json"
	"regexp"
	"runtime/debug"
	"testing"
)

// Package URLs as the purl specification writes them: a scoped npm
// package's scope is its namespace, its @ encoded; a plus is encoded.
func TestPurls(t *testing.T) {
	for _, c := range [][4]string{
		{"npm", "@babel/runtime", "7.26.0", "pkg:npm/%40babel/runtime@7.26.0"},
		{"npm", "react-dom", "19.3.1", "pkg:npm/react-dom@19.3.1"},
		{"golang", "github.com/labstack/echo/v5", "v5.3.1", "pkg:golang/github.com/labstack/echo/v5@v5.3.1"},
		{"golang", "github.com/BurntSushi/toml", "v1.4.0", "pkg:golang/github.com/BurntSushi/toml@v1.4.0"},
		{"golang", "example.com/old", "v2.0.0+incompatible", "pkg:golang/example.com/old@v2.0.0%2Bincompatible"},
	} {
		if got := purl(c[0], c[1], c[2]); got != c[3] {
			t.Errorf("purl(%q, %q, %q) = %s, want %s", c[0], c[1], c[2], got, c[3])
		}
	}
}

// The same build gives the same SBOM, byte for byte: its serial number
// and time come from the commit.
func TestSBOMIsReproducible(t *testing.T) {
	info := func(commit, at string) *debug.BuildInfo {
		return &debug.BuildInfo{Main: debug.Module{Path: "lk", Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: commit}, {Key: "vcs.time", Value: at}, {Key: "vcs.modified", Value: "false"}}}
	}
	comps := []component{{kind: "npm", name: "@babel/runtime", version: "7.26.0", purl: purl("npm", "@babel/runtime", "7.26.0"), license: "MIT"}}
	const a, b = "3f2a9c1e07b4d5e6f708192a3b4c5d6e7f809102", "0000000000000000000000000000000000000001"
	first, err := sbomOf(info(a, "2026-11-28T09:15:00Z"), comps, "", "")
	if err != nil {
		t.Fatal(err)
	}
	again, _ := sbomOf(info(a, "2026-11-28T09:15:00Z"), comps, "", "")
	other, _ := sbomOf(info(b, "2026-11-29T10:00:00Z"), comps, "", "")
	if !bytes.Equal(first, again) {
		t.Errorf("two SBOMs of one build differ:\n%s\n%s", first, again)
	}
	var bom, otherBOM struct {
		SerialNumber string
		Metadata     struct {
			Timestamp string
			Component struct{ Version string }
		}
		Components []struct{ PURL string }
	}
	if err := json.Unmarshal(first, &bom); err != nil {
		t.Fatal(err)
	}
	_ = json.Unmarshal(other, &otherBOM)
	if !regexp.MustCompile(`^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`).MatchString(bom.SerialNumber) {
		t.Errorf("serial %q is no name-based UUID", bom.SerialNumber)
	}
	if bom.SerialNumber == otherBOM.SerialNumber || otherBOM.Metadata.Timestamp != "2026-11-29T10:00:00Z" {
		t.Errorf("another commit: serial %s, time %s; want its own", otherBOM.SerialNumber, otherBOM.Metadata.Timestamp)
	}
	if bom.Metadata.Timestamp != "2026-11-28T09:15:00Z" || !regexp.MustCompile(`-dev\+3f2a9c1e07b4$`).MatchString(bom.Metadata.Component.Version) {
		t.Errorf("metadata %+v: want the commit's time and a dev version naming it", bom.Metadata)
	}
	if len(bom.Components) != 1 || bom.Components[0].PURL != "pkg:npm/%40babel/runtime@7.26.0" {
		t.Errorf("components %+v", bom.Components)
	}
	// Given apart, as the release script does where Go stamped nothing.
	given, err := sbomOf(&debug.BuildInfo{}, comps, a, "2026-11-28T12:15:00+03:00")
	if err != nil || bytes.Contains(given, []byte(`"timestamp": "2026-11-28T12:15:00+03:00"`)) || !bytes.Contains(given, []byte(`"timestamp": "2026-11-28T09:15:00Z"`)) {
		t.Errorf("commit and time given: %v\n%s", err, given)
	}
	if _, err := sbomOf(&debug.BuildInfo{}, comps, "", ""); err == nil {
		t.Error("an SBOM without a commit: no error")
	}
}
