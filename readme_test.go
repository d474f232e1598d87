package lk

import (
	"os"
	"strings"
	"testing"
)

// The README's first paragraph says what a customer can do with the product
// now: every capability, not only the first ones built.
func TestReadmeSaysWhatTheProductDoes(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, _ := strings.Cut(string(b), "\n\n") // past the title
	first, _, _ := strings.Cut(rest, "\n\n")
	for _, what := range []string{"sign up", "sign in", "personal data", "active", "history", "PDF",
		"confirm", "move", "cancel", "refund", "JavaScript off"} {
		if !strings.Contains(first, what) {
			t.Errorf("the first paragraph does not say %q:\n%s", what, first)
		}
	}
}

// The README stays a first screen: short, leading into docs/ early, and
// every document it links is there.
func TestReadmeLeadsIntoDocs(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > 10<<10 {
		t.Errorf("README.md is %d bytes, more than 10 KB: move the detail to docs/", len(b))
	}
	lines := strings.Split(string(b), "\n")
	if !strings.Contains(strings.Join(lines[:min(40, len(lines))], "\n"), "docs/how-it-works.md") {
		t.Error("README.md does not link docs/how-it-works.md in its first 40 lines")
	}
	for _, doc := range []string{"how-it-works", "configuration", "operations", "benchmarks", "testing"} {
		name := "docs/" + doc + ".md"
		if !strings.Contains(string(b), "("+name+")") {
			t.Errorf("README.md does not link %s", name)
		}
		if _, err := os.Stat(name); err != nil {
			t.Error(err)
		}
	}
}
