package main

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"
)

// Two builds of one commit write the same SBOM, byte for byte: its serial
// number follows from what it lists and its timestamp is the commit's. A
// different component list gets another serial number.
func TestSBOMIsReproducible(t *testing.T) {
	comps := []component{
		{kind: "go", name: "github.com/labstack/echo/v5", version: "v5.4.5", purl: "pkg:golang/github.com/labstack/echo/v5@v5.4.5", license: "MIT"},
		{kind: "npm", name: "react", version: "19.3.1", purl: "pkg:npm/react@19.3.1", license: "MIT"},
	}
	st := stamp{revision: "e49e8ae", time: time.Date(2026, 11, 27, 23, 16, 0, 0, time.UTC)}
	first, err := sbomOf(comps, st)
	if err != nil {
		t.Fatal(err)
	}
	second, _ := sbomOf(comps, st)
	if !bytes.Equal(first, second) {
		t.Errorf("two SBOMs of one build differ:\n%s\n%s", first, second)
	}
	var a, b struct {
		Serial   string `json:"serialNumber"`
		Metadata struct {
			Timestamp string `json:"timestamp"`
		} `json:"metadata"`
	}
	other, _ := sbomOf(comps[:1], st)
	if json.Unmarshal(first, &a) != nil || json.Unmarshal(other, &b) != nil || a.Serial == b.Serial || a.Serial[len("urn:uuid:")+14] != '5' {
		t.Errorf("serial numbers %q and %q", a.Serial, b.Serial)
	}
	if a.Metadata.Timestamp != "2026-11-27T23:16:00Z" {
		t.Errorf("timestamp %q, want the commit's", a.Metadata.Timestamp)
	}
	if got := stampOf("no such binary", "1795000000"); !got.time.Equal(time.Unix(1795000000, 0)) {
		t.Errorf("SOURCE_DATE_EPOCH not taken: %v", got.time)
	}
}
