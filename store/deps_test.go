package store_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestStoreKnowsNothingOfHandlers: the arrow points from the handlers to
// the store, never back.
func TestStoreKnowsNothingOfHandlers(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "lk/store").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 {
		t.Fatalf("go list gave %d packages", len(deps))
	}
	for _, p := range deps {
		if p == "lk/handlers" || p == "lk/views" || strings.HasPrefix(p, "lk/handlers/") {
			t.Errorf("store depends on %s", p)
		}
	}
}
