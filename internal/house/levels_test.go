package house

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// pkgFiles parses the package in dir as this machine builds it: tests and
// files for other systems left out.
func pkgFiles(t *testing.T, dir string) (*token.FileSet, []*ast.File) {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		if ok, err := build.Default.MatchFile(dir, filepath.Base(name)); err != nil || !ok {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	if len(files) == 0 {
		t.Fatalf("no Go files in %s", dir)
	}
	return fset, files
}

// uses says which sibling files each file uses: a file uses another when it
// names something declared there at the top (a function, type, variable or
// constant, or a field of a type declared there); a method counts as its
// type, wherever the method is written. The names are resolved by
// go/types; the imported packages are left unread, since only the
// package's own names matter here.
func uses(t *testing.T, dir string) (files []string, edges map[string][]string, names map[[2]string][]string) {
	t.Helper()
	fset, parsed := pkgFiles(t, dir)
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: noImports{}, Error: func(error) {}}
	pkg, _ := conf.Check(dir, fset, parsed, info) // errors: only the imports left unread
	names = map[[2]string][]string{}
	for id, obj := range info.Uses {
		if obj.Pkg() != pkg || !obj.Pos().IsValid() {
			continue
		}
		from := filepath.Base(fset.File(id.Pos()).Name())
		to := filepath.Base(fset.File(declared(obj)).Name())
		if e := [2]string{from, to}; from != to && !slices.Contains(names[e], obj.Name()) {
			names[e] = append(names[e], obj.Name())
		}
	}
	edges = map[string][]string{}
	for _, f := range parsed {
		files = append(files, filepath.Base(fset.File(f.Pos()).Name()))
	}
	for e, n := range names {
		edges[e[0]] = append(edges[e[0]], e[1])
		slices.Sort(n)
	}
	for _, to := range edges {
		slices.Sort(to)
	}
	slices.Sort(files)
	return files, edges, names
}

// declared is where obj counts as declared: a method where its type is.
func declared(obj types.Object) token.Pos {
	fn, ok := obj.(*types.Func)
	if !ok {
		return obj.Pos()
	}
	recv := fn.Signature().Recv()
	if recv == nil {
		return obj.Pos()
	}
	typ := recv.Type()
	if p, ok := typ.(*types.Pointer); ok {
		typ = p.Elem()
	}
	if named, ok := typ.(*types.Named); ok {
		return named.Obj().Pos()
	}
	return obj.Pos()
}

type noImports struct{}

func (noImports) Import(path string) (*types.Package, error) {
	return nil, fmt.Errorf("%s: not read", path)
}

// layers puts the files on levels, a file one above the highest file it
// uses. Where files use each other in a loop, some of those references
// must run up: as few as can be, found by trying every order of the loop's
// files. It returns each file's level and the references running up.
func layers(files []string, edges map[string][]string) (level map[string]int, up [][2]string) {
	upSet := map[[2]string]bool{}
	for _, scc := range loops(files, edges) {
		if len(scc) < 2 {
			continue
		}
		order := fewestUp(scc, edges)
		pos := map[string]int{}
		for i, f := range order {
			pos[f] = i
		}
		for _, f := range scc {
			for _, to := range edges[f] {
				if p, ok := pos[to]; ok && p > pos[f] {
					upSet[[2]string{f, to}] = true
				}
			}
		}
	}
	level = map[string]int{}
	var visit func(f string) int
	visit = func(f string) int {
		if l, ok := level[f]; ok {
			return l
		}
		l := 1
		for _, to := range edges[f] {
			if !upSet[[2]string{f, to}] {
				l = max(l, visit(to)+1)
			}
		}
		level[f] = l
		return l
	}
	for _, f := range files {
		visit(f)
	}
	for e := range upSet {
		up = append(up, e)
	}
	slices.SortFunc(up, func(a, b [2]string) int { return strings.Compare(a[0]+" "+a[1], b[0]+" "+b[1]) })
	return level, up
}

// loops are the strongly connected parts of the graph (Tarjan's).
func loops(files []string, edges map[string][]string) [][]string {
	index, low, on := map[string]int{}, map[string]int{}, map[string]bool{}
	var stack []string
	var out [][]string
	var connect func(v string)
	connect = func(v string) {
		index[v], low[v] = len(index), len(index)
		stack = append(stack, v)
		on[v] = true
		for _, w := range edges[v] {
			if _, seen := index[w]; !seen {
				connect(w)
				low[v] = min(low[v], low[w])
			} else if on[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			var scc []string
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				on[w] = false
				scc = append(scc, w)
				if w == v {
					break
				}
			}
			slices.Sort(scc)
			out = append(out, scc)
		}
	}
	for _, f := range files {
		if _, seen := index[f]; !seen {
			connect(f)
		}
	}
	return out
}

// fewestUp orders a loop's files from the bottom up so that the fewest
// references run up: over every subset of files placed first, the best
// cost of placing them (a file placed costs its references to files not
// yet placed). Loops of more than 20 files are placed greedily instead.
func fewestUp(scc []string, edges map[string][]string) []string {
	n := len(scc)
	idx := map[string]int{}
	for i, f := range scc {
		idx[f] = i
	}
	out := make([]uint32, n) // the loop's files each file uses
	for i, f := range scc {
		for _, to := range edges[f] {
			if j, ok := idx[to]; ok {
				out[i] |= 1 << j
			}
		}
	}
	if n > 20 {
		return greedy(scc, edges)
	}
	full := uint32(1)<<n - 1
	cost := make([]int32, 1<<n)
	from := make([]int8, 1<<n)
	for s := uint32(1); s <= full; s++ {
		cost[s] = 1 << 30
		for i := range n {
			if s&(1<<i) == 0 {
				continue
			}
			prev := s &^ (1 << i)
			// file i placed last of s: its references outside s run up
			c := cost[prev] + int32(popcount(out[i]&^s))
			if c < cost[s] {
				cost[s], from[s] = c, int8(i)
			}
		}
	}
	order := make([]string, n)
	for s, k := full, n-1; s != 0; k-- {
		i := from[s]
		order[k] = scc[i]
		s &^= 1 << i
	}
	return order
}

// greedy places next, from the bottom, the file with the fewest references
// to files not yet placed.
func greedy(scc []string, edges map[string][]string) []string {
	placed := map[string]bool{}
	var order []string
	for range scc {
		best, bestCost := "", 0
		for _, f := range scc {
			if placed[f] {
				continue
			}
			c := 0
			for _, to := range edges[f] {
				if !placed[to] && slices.Contains(scc, to) {
					c++
				}
			}
			if best == "" || c < bestCost {
				best, bestCost = f, c
			}
		}
		placed[best] = true
		order = append(order, best)
	}
	return order
}

func popcount(x uint32) int {
	n := 0
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
}
