//go:build exhaustive

package knightstour

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestOptionsCompile builds two programs against this checkout with the
// go command: one that gives options where they apply, which must build,
// and one that gives them where they do not, which must not, with an
// error that names each misplaced option. It runs the compiler, so it is
// for -tags exhaustive.
func TestOptionsCompile(t *testing.T) {
	root, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	build := func(body string) (string, error) {
		dir := t.TempDir()
		files := map[string]string{
			"go.mod": "module optcheck\n\ngo 1.24\n\nrequire github.com/euler1758/knightstour v0.0.0\n\nreplace github.com/euler1758/knightstour => " + root + "\n",
			"go.sum": string(sum),
			"main.go": "package main\n\nimport (\n\t\"context\"\n\n\t\"github.com/euler1758/knightstour\"\n)\n\nfunc main() {\n\tctx, dir := context.Background(), \"/tmp\"\n" +
				body + "\t_, _ = ctx, dir\n}\n",
		}
		for name, text := range files {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		cmd := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "build", "-mod=mod", "-o", os.DevNull, ".")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if out, err := build("\tknightstour.CountDP(ctx, 6, 6, knightstour.WithSpill(dir), knightstour.WithWorkers(2))\n" +
		"\tknightstour.NewSolver(5, 5, knightstour.WithWorkers(2), knightstour.WithClosed())\n"); err != nil {
		t.Errorf("options where they apply: %v\n%s", err, out)
	}
	out, err := build("\tknightstour.NewSolver(5, 5, knightstour.WithSpill(dir))\n" +
		"\tknightstour.CountDP(ctx, 6, 6, knightstour.WithLimit(5))\n")
	if err == nil {
		t.Fatal("options where they do not apply: built")
	}
	for _, want := range []string{"WithSpill(dir)", "does not implement knightstour.SolverOption", "WithLimit(5)", "does not implement knightstour.CountDPOption"} {
		if !strings.Contains(out, want) {
			t.Errorf("the compiler's error does not say %q:\n%s", want, out)
		}
	}
}
