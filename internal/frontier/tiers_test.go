package frontier

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// fileTiers places each file of the package in its tier, the lowest
// first, as the package comment (doc.go) describes them: a file may use
// what the files of its own tier and of the tiers below declare, never
// what a tier above it does.
var fileTiers = []struct {
	name  string
	files []string
}{
	{"State", []string{"board.go", "window.go", "keys.go", "limbs.go", "sizes.go", "errors.go"}},
	{"Store", []string{"arena.go", "disk.go", "diskguard.go", "punch_linux.go", "punch_other.go", "table.go", "filter.go"}},
	{"Plan", []string{"classes.go", "classtable.go", "passes.go", "layer.go", "config.go", "manifest.go"}},
	{"Step", []string{"counter.go", "diagonal.go", "worker.go", "packed.go", "buffer.go", "demand.go", "demandset.go",
		"demandfile.go", "stepper.go", "checkpoint.go", "plan.go", "giveback.go", "lean.go", "buffered.go", "step.go"}},
	{"Count", []string{"count.go"}},
}

// TestFileTiers type-checks the package's files and checks that no file
// uses a name (a function, type, constant, variable, method or field)
// declared in a file of a higher tier, and that every file has a tier:
// the layering that doc.go promises a reader, kept true as the code
// changes.
func TestFileTiers(t *testing.T) {
	t.Parallel()
	tier := map[string]int{}
	for i, tr := range fileTiers {
		for _, f := range tr.files {
			tier[f] = i
		}
	}
	pkg, err := build.ImportDir(".", 0)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range pkg.GoFiles {
		if _, ok := tier[name]; !ok && name != "doc.go" {
			t.Errorf("%s has no tier: place it in fileTiers and in doc.go", name)
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	for name := range tier {
		if _, err := os.Stat(name); err != nil {
			t.Errorf("fileTiers names %s: %v", name, err)
		}
	}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: compiledImporter(fset, pkg.Imports)}
	self, err := conf.Check(pkg.ImportPath, fset, files, info)
	if err != nil {
		t.Fatal(err)
	}
	type use struct{ from, to, name string }
	var wrong []use
	for id, obj := range info.Uses {
		if obj.Pkg() != self || obj.Parent() != self.Scope() && !isMember(obj) {
			continue // another package's, or local to a function
		}
		from := filepath.Base(fset.Position(id.Pos()).Filename)
		to := filepath.Base(fset.Position(obj.Pos()).Filename)
		if tier[to] > tier[from] {
			wrong = append(wrong, use{from, to, obj.Name()})
		}
	}
	slices.SortFunc(wrong, func(a, b use) int {
		return cmp.Or(cmp.Compare(a.from, b.from), cmp.Compare(a.name, b.name))
	})
	wrong = slices.Compact(wrong)
	for _, u := range wrong {
		t.Errorf("%s (%s) uses %s of %s (%s), a tier above it", u.from, fileTiers[tier[u.from]].name, u.name, u.to, fileTiers[tier[u.to]].name)
	}
}

// compiledImporter returns an importer of imports, and the packages they
// import, that reads the compiler's export data, found by the go command
// (go list -export), or where that fails one that type-checks them from
// source: the standard library from source took a second and a half.
func compiledImporter(fset *token.FileSet, imports []string) types.Importer {
	args := append([]string{"list", "-export", "-deps", "-f", "{{.ImportPath}}\t{{.Export}}"}, imports...)
	out, err := exec.Command("go", args...).Output()
	if err != nil {
		return importer.ForCompiler(fset, "source", nil)
	}
	export := map[string]string{}
	for line := range strings.Lines(string(out)) {
		if path, file, ok := strings.Cut(strings.TrimSpace(line), "\t"); ok && file != "" {
			export[path] = file
		}
	}
	return importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		file, ok := export[path]
		if !ok {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(file)
	})
}

// isMember reports whether obj is a method or a struct field, which
// belong to no scope of their own.
func isMember(obj types.Object) bool {
	switch o := obj.(type) {
	case *types.Func:
		return o.Signature().Recv() != nil
	case *types.Var:
		return o.IsField()
	}
	return false
}
