package main

import (
	"context"
	"fmt"
	"io"
	"runtime/debug"
)

// runVersion prints the module's version, the revision it was built
// from and the Go that built it, from the binary's build information.
func runVersion(_ context.Context, args []string, stdout, _ io.Writer) error {
	if len(args) > 0 {
		return usageError{fmt.Errorf("version takes no arguments, got %q", args), "usage: knightstour version\n"}
	}
	fmt.Fprintln(stdout, version())
	return nil
}

// version says which knightstour this is: "knightstour v1.2.3 (revision
// abc1234, modified) go1.26.8", with "(devel)" for a build from a clone.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "knightstour (no build information)"
	}
	v := info.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = ", modified"
			}
		}
	}
	s := "knightstour " + v
	if rev != "" {
		s += fmt.Sprintf(" (revision %.12s%s)", rev, modified)
	}
	return s + " " + info.GoVersion
}
