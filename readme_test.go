package knightstour_test

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestReadmeExample checks that the program README.md shows is the one
// Example_readme runs, so that the README's example compiles and prints
// what the example says.
func TestReadmeExample(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(readme), "```go\npackage main\n")
	block, _, ok2 := strings.Cut(block, "\n```")
	if !ok || !ok2 {
		t.Fatal("README.md has no complete Go program (a ```go block that begins with package main)")
	}
	test, err := os.ReadFile("example_readme_test.go")
	if err != nil {
		t.Fatal(err)
	}
	_, example, _ := strings.Cut(string(test), "\nimport (")
	imports, example, _ := strings.Cut(example, "\n)\n")
	_, body, _ := strings.Cut(example, "func Example_readme() {\n")
	body, _, _ = strings.Cut(body, "\t// Output:")
	want := lines("import (" + imports + "\n)\n" + "func main() {\n" + body + "}")
	if diff := cmp.Diff(want, lines(block)); diff != "" {
		t.Errorf("README.md's program differs from Example_readme (-example +README):\n%s", diff)
	}
}

// lines is text's lines, trimmed, without the empty ones.
func lines(text string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}
