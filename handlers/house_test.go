package handlers_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// sources parses the package's files in dir, tests left out.
func sources(t *testing.T, dir string) (*token.FileSet, map[string]*ast.File) {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	fset, files := token.NewFileSet(), map[string]*ast.File{}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly|parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		files[name] = f
	}
	return fset, files
}

// The request plumbing knows nothing of orders or of the provider: what it
// follows of the provider's calls it asks through web.Calls.
func TestPlumbingImportsNoHandlersNorGateway(t *testing.T) {
	_, files := sources(t, "web")
	if len(files) == 0 {
		t.Fatal("no files in handlers/web")
	}
	for name, f := range files {
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if path == "lk/handlers" || path == "lk/gateway" || strings.HasPrefix(path, "lk/gateway/") {
				t.Errorf("%s imports %s", name, path)
			}
		}
	}
}

// Server is what the pages share, in a few fields: a new concern finds its
// place in a part of its own (the plumbing, the stores, the code rules), not
// in another field.
func TestServerStaysSmall(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "server.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	ast.Inspect(f, func(n ast.Node) bool {
		ts, ok := n.(*ast.TypeSpec)
		if !ok || ts.Name.Name != "Server" {
			return true
		}
		found = true
		fields := 0
		for _, fl := range ts.Type.(*ast.StructType).Fields.List {
			fields += max(1, len(fl.Names))
		}
		if fields > 16 {
			t.Errorf("Server has %d fields, at most 16", fields)
		}
		return false
	})
	if !found {
		t.Fatal("no type Server in server.go")
	}
}

// The code says what it does; a comment states a rule or a reason, briefly.
// Comment lines are at most 8 % of the lines of handlers and handlers/web.
func TestCommentsStayBrief(t *testing.T) {
	comments, lines := 0, 0
	for _, dir := range []string{".", "web"} {
		names, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range names {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			b, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			for l := range strings.Lines(string(b)) {
				lines++
				if strings.HasPrefix(strings.TrimSpace(l), "//") {
					comments++
				}
			}
		}
	}
	if lines < 5000 { // the test would pass on nothing
		t.Fatalf("read only %d lines", lines)
	}
	if density := float64(comments) / float64(lines); density > 0.08 {
		t.Errorf("comment lines are %.3f of the lines (%d of %d), at most 0.08", density, comments, lines)
	}
}
