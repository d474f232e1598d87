package house

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// density is a package's own-line comment lines per non-blank line of code:
// a comment after code on its line does not count, nor do blank lines or
// directives (//go:build). Tests and generated files are left out.
func density(t *testing.T, dir string) (comments, code int) {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		if ast.IsGenerated(f) {
			continue
		}
		lines := strings.Split(string(src), "\n")
		own := map[int]bool{} // lines (from 1) that are a comment alone
		for _, g := range f.Comments {
			for _, c := range g.List {
				start, end := fset.Position(c.Pos()), fset.Position(c.End())
				if strings.TrimSpace(lines[start.Line-1][:start.Column-1]) != "" || strings.HasPrefix(c.Text, "//go:") {
					continue
				}
				for l := start.Line; l <= end.Line; l++ {
					own[l] = true
				}
			}
		}
		for i, l := range lines {
			switch {
			case strings.TrimSpace(l) == "":
			case own[i+1]:
				comments++
			default:
				code++
			}
		}
	}
	return comments, code
}

// packages are the module's folders holding Go code.
func packages(t *testing.T) []string {
	t.Helper()
	var dirs []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
			dir, _ := filepath.Rel(root, filepath.Dir(path))
			if !slices.Contains(dirs, dir) {
				dirs = append(dirs, dir)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return dirs
}

// The comment density each package had on the day it was measured, as
// ceilings; a package not listed (a new one) is held to the house's
// target. The target for every package: 0.08, as Miniflux's ui is far
// under; handlers and handlers/web are to reach it first.
const densityTarget = 0.08

var densityCeilings = map[string]float64{
	"cmd/lk":               0.150,
	"gateway":              0.247,
	"gateway/sandbox":      0.095,
	"internal/testkit":     0.162,
	"scripts/benchload":    0.121,
	"scripts/failoverload": 0.114,
	"scripts/pageload":     0.128,
	"scripts/shipped":      0.114,
	"store":                0.235,
	"store/redistest":      0.210,
	"views":                0.308,
	"wallet":               0.130,
}

// The code says what it does; a comment states a rule or a reason,
// briefly. Packages of under 100 lines of code are left out: there a
// package comment alone is a large share.
func TestCommentsStayBrief(t *testing.T) {
	dirs := packages(t)
	if !slices.Contains(dirs, "handlers/web") {
		t.Fatalf("packages found: %v", dirs)
	}
	for _, dir := range dirs {
		comments, code := density(t, filepath.Join(root, dir))
		if code < 100 {
			continue
		}
		d := float64(comments) / float64(code)
		ceiling, ok := densityCeilings[dir]
		if !ok {
			ceiling = densityTarget
		}
		t.Logf("%s: %d comment lines per %d lines of code, %.3f (at most %.3f)", dir, comments, code, d, ceiling)
		if d > ceiling {
			t.Errorf("%s: %d own-line comment lines per %d non-blank lines of code, %.3f, at most %.3f", dir, comments, code, d, ceiling)
		}
	}
}
