package house

import (
	"go/ast"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The ceilings: each is the code's figure on the day it was set, or the
// target once the code met it. A ceiling only goes down; lower it when the
// code gets under it, never raise it to let a change through.
const (
	// handlers: every file above the files it uses, none using a file above
	// it (target: 0 up).
	handlersLevels = 8
	handlersUp     = 0
	// handlers/web (targets: at most 4 levels, at most 2 up, a busiest
	// struct of at most 10 fields, at most 80 exported names).
	webLevels   = 4
	webUp       = 2
	webFields   = 10
	webExported = 80
	// Server, what the pages share.
	serverFields = 16
)

const root = "../.."

// Each file of a package stands a level above the highest sibling file it
// uses; a reference in a loop of files runs up. The test logs the levels
// and the references running up, to show where a change should go.
func TestLevels(t *testing.T) {
	for _, c := range []struct {
		dir        string
		levels, up int
	}{
		{"handlers", handlersLevels, handlersUp},
		{"handlers/web", webLevels, webUp},
	} {
		t.Run(c.dir, func(t *testing.T) {
			files, edges, names := uses(t, filepath.Join(root, c.dir))
			level, up := layers(files, edges)
			top, refs := 0, 0
			for _, f := range files {
				top = max(top, level[f])
				refs += len(edges[f])
				t.Logf("level %d: %s uses %s", level[f], f, strings.Join(edges[f], " "))
			}
			for _, e := range up {
				t.Logf("up: %s uses %s (%s)", e[0], e[1], strings.Join(names[e], ", "))
			}
			t.Logf("%s: %d files on %d levels, %d of %d references running up", c.dir, len(files), top, len(up), refs)
			if top > c.levels {
				t.Errorf("%s stands on %d levels, at most %d", c.dir, top, c.levels)
			}
			if len(up) > c.up {
				t.Errorf("%s has %d references running up, at most %d", c.dir, len(up), c.up)
			}
		})
	}
}

// The layers check themselves on a small package of their own: a loop of
// three files needs one reference up, and the levels follow the rest.
func TestLayersOfALoop(t *testing.T) {
	edges := map[string][]string{"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
	level, up := layers([]string{"a", "b", "c", "d"}, edges)
	if len(up) != 1 {
		t.Fatalf("up = %v, want one reference", up)
	}
	if top := max(level["a"], level["b"], level["c"]); top != 3 || level["d"] != 4 {
		t.Errorf("levels = %v, want the loop on 1-3 and d on 4", level)
	}
}

// structFields counts each struct type's fields in the package, an
// embedded struct of the package counted as the fields it brings.
func structFields(files []*ast.File) map[string]int {
	structs := map[string]*ast.StructType{}
	for _, f := range files {
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.TYPE {
				continue
			}
			for _, s := range g.Specs {
				ts := s.(*ast.TypeSpec)
				if st, ok := ts.Type.(*ast.StructType); ok {
					structs[ts.Name.Name] = st
				}
			}
		}
	}
	var count func(st *ast.StructType) int
	count = func(st *ast.StructType) int {
		n := 0
		for _, fl := range st.Fields.List {
			if len(fl.Names) > 0 {
				n += len(fl.Names)
				continue
			}
			typ := fl.Type
			if star, ok := typ.(*ast.StarExpr); ok {
				typ = star.X
			}
			if id, ok := typ.(*ast.Ident); ok && structs[id.Name] != nil {
				n += count(structs[id.Name])
			} else {
				n++
			}
		}
		return n
	}
	out := map[string]int{}
	for name, st := range structs {
		out[name] = count(st)
	}
	return out
}

// A struct of many fields is a star every concern leans on: the plumbing's
// busiest struct stays small, and Server, what the pages share, a few
// fields (a new concern finds a part of its own, not another field).
func TestStructsStaySmall(t *testing.T) {
	_, web := pkgFiles(t, filepath.Join(root, "handlers/web"))
	busiest, most := "", 0
	for name, n := range structFields(web) {
		if n > most || n == most && name < busiest {
			busiest, most = name, n
		}
	}
	t.Logf("handlers/web: the busiest struct is %s, %d fields", busiest, most)
	if most > webFields {
		t.Errorf("handlers/web: %s has %d fields (embedded ones counted with theirs), at most %d", busiest, most, webFields)
	}
	_, handlers := pkgFiles(t, filepath.Join(root, "handlers"))
	n, ok := structFields(handlers)["Server"]
	if !ok {
		t.Fatal("no type Server in handlers")
	}
	if n > serverFields {
		t.Errorf("Server has %d fields, at most %d", n, serverFields)
	}
}

// exported counts the names a package offers: its exported functions,
// methods, types, variables and constants. Fields are left to the struct
// count above, and so are the methods of unexported types (an io.Reader's
// Read): no caller names them.
func exported(files []*ast.File) int {
	n := 0
	for _, f := range files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Name.IsExported() && (d.Recv == nil || receiverExported(d.Recv)) {
					n++
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						if s.Name.IsExported() {
							n++
						}
					case *ast.ValueSpec:
						for _, name := range s.Names {
							if name.IsExported() {
								n++
							}
						}
					}
				}
			}
		}
	}
	return n
}

func receiverExported(recv *ast.FieldList) bool {
	t := recv.List[0].Type
	if star, ok := t.(*ast.StarExpr); ok {
		t = star.X
	}
	id, ok := t.(*ast.Ident)
	return !ok || id.IsExported()
}

// The plumbing offers few names, mostly plain functions.
func TestWebExportsFew(t *testing.T) {
	_, files := pkgFiles(t, filepath.Join(root, "handlers/web"))
	n := exported(files)
	t.Logf("handlers/web exports %d names", n)
	if n > webExported {
		t.Errorf("handlers/web exports %d names (functions, methods, types, variables, constants), at most %d", n, webExported)
	}
}

// The documents and scripts that grew past their targets once, unnoticed.
func TestSizes(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(root, "docs/benchmarks.md"))
	if err != nil {
		t.Fatal(err)
	}
	// 15 KB as 15,000 bytes: a document of figures, read whole; history
	// goes to the commits, the current figures stay.
	if len(b) > 15_000 {
		t.Errorf("docs/benchmarks.md is %d bytes, at most 15,000", len(b))
	}
	b, err = os.ReadFile(filepath.Join(root, "islands/main.ts"))
	if err != nil {
		t.Fatal(err)
	}
	// The one mount loop, and nothing else.
	if n := strings.Count(string(b), "\n"); n > 150 {
		t.Errorf("islands/main.ts has %d lines, at most 150", n)
	}
}
