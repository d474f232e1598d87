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
