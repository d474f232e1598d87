package handlers_test

import (
	"go/ast"
	"go/parser"
	"go/token"
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
