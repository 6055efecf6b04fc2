//go:build unix

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/euler1758/knightstour/internal/filelock"
)

// TestFilesRefused gives -o, -checkpoint and -spill what they must not
// write to, or a file another process holds: each is refused at once,
// exit 1, with a message that names it, and nothing is written.
func TestFilesRefused(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.json")
	if err := os.WriteFile(big, make([]byte, maxResultBytes+1), 0o644); err != nil {
		t.Fatal(err)
	}
	held := filepath.Join(dir, "held.json")
	ckpt := filepath.Join(dir, "held.ckpt")
	for _, name := range []string{held, ckpt} {
		l, err := filelock.Acquire(name, name+".lock")
		if err != nil {
			t.Fatal(err)
		}
		defer l.Release()
	}
	inUse := fmt.Sprintf("in use by process %d", os.Getpid())
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"count", "-o", fifo, "5x6"}, "a named pipe, not a regular file"},
		{[]string{"queens", "-o", fifo, "8"}, "a named pipe, not a regular file"},
		{[]string{"count", "-o", os.DevNull, "5x6"}, "a device, not a regular file"},
		{[]string{"list", "-o", os.DevNull, "3x4"}, "a device, not a regular file"},
		{[]string{"tour", "-o", os.DevNull, "8x8"}, "a device, not a regular file"},
		{[]string{"count", "-o", dir, "5x6"}, "a directory, not a regular file"},
		{[]string{"count", "-o", big, "5x6"}, "more than a result holds"},
		{[]string{"count", "-o", held, "5x6"}, inUse},
		{[]string{"list", "-o", held, "3x4"}, inUse},
		{[]string{"count", "-method", "dp", "-checkpoint", ckpt, "5x6"}, inUse},
	}
	for _, tt := range tests {
		code, out, errOut := runArgs(t, append([]string{tt.args[0], "-quiet"}, tt.args[1:]...)...)
		if code != exitFail || !strings.Contains(errOut, tt.want) || out != "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 1 and %q", tt.args, code, out, errOut, tt.want)
		}
	}
	if left, _ := os.ReadDir(dir); len(left) != 4 { // fifo, big.json and the two locks
		var names []string
		for _, e := range left {
			names = append(names, e.Name())
		}
		t.Errorf("files left: %q", names)
	}
	// -spill makes the directory it is given.
	spill := filepath.Join(dir, "new", "spill")
	if code, _, errOut := runArgs(t, "count", "-quiet", "-method", "dp", "-spill", spill, "5x5"); code != exitOK {
		t.Errorf("-spill to a new directory: exit %d, %s", code, errOut)
	}
	if st, err := os.Stat(spill); err != nil || !st.IsDir() {
		t.Errorf("-spill did not make %s: %v", spill, err)
	}
}
