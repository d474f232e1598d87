package handlers_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestGatewayOrdersStayInTheirKindsFile: a gateway order type is named only
// in its kind's file and in provider.go (what the handlers ask of the
// provider), and an order's wire record is read only in its kind's file;
// the rest of the handlers is kind-blind.
func TestGatewayOrdersStayInTheirKindsFile(t *testing.T) {
	home := map[string]string{
		"LessonOrder":   "kind_lesson.go",
		"PavilionOrder": "kind_rent.go",
		"RoomOrder":     "kind_rent.go",
		"AquaOrder":     "kind_aqua.go",
		"HotelOrder":    "kind_hotel.go",
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset, seen := token.NewFileSet(), map[string]bool{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				if x, ok := n.X.(*ast.Ident); ok && x.Name == "gateway" {
					if want, ok := home[n.Sel.Name]; ok {
						seen[n.Sel.Name] = true
						if name != want && name != "provider.go" {
							t.Errorf("%s: gateway.%s belongs in %s", fset.Position(n.Pos()), n.Sel.Name, want)
						}
					}
				}
			case *ast.TypeAssertExpr:
				if sel, ok := n.X.(*ast.SelectorExpr); ok && sel.Sel.Name == "wire" && !strings.HasPrefix(name, "kind_") {
					t.Errorf("%s: a wire record is read outside a kind's file", fset.Position(n.Pos()))
				}
			}
			return true
		})
	}
	if len(seen) != len(home) { // the test would pass on nothing
		t.Errorf("found %d of the %d gateway order types", len(seen), len(home))
	}
}
