//go:build unix

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

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

// TestMergeStops interrupts a merge waiting on a pipe that says nothing,
// and on a named pipe no one writes: each ends at once, interrupted.
func TestMergeStops(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"merge"}, {"merge", fifo}} {
		// The signal may come before the command has set its handler, which
		// kills it without a word: on a loaded machine, under -race, 200 ms
		// was not always enough. Such a run is tried again, waiting longer.
		var code int
		var err error
		var stderr strings.Builder
		for wait := 200 * time.Millisecond; wait <= 6400*time.Millisecond; wait *= 2 {
			r, w, perr := os.Pipe()
			if perr != nil {
				t.Fatal(perr)
			}
			cmd := process(args...)
			cmd.Stdin = r
			stderr.Reset()
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			r.Close()
			time.Sleep(wait)
			cmd.Process.Signal(os.Interrupt)
			err = cmd.Wait()
			w.Close()
			code = cmd.ProcessState.ExitCode()
			if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() {
				break // the command caught the signal
			}
		}
		if code != exitFail || !strings.Contains(stderr.String(), "interrupted") {
			t.Errorf("%q interrupted: exit %d (%v), stderr %q; want exit 1, interrupted", args, code, err, stderr.String())
		}
	}
}

// TestMergeOneObjectALine refuses two results on one line.
func TestMergeOneObjectALine(t *testing.T) {
	file := filepath.Join(t.TempDir(), "shards.json")
	one := `{"kind":"queens","n":8,"total":92,"unique":12,"c2":0,"c4":1,"c8":11,"tasks":24,"all_tasks":24,"shard":0,"shards":1,"elapsed_ms":0.1}`
	if err := os.WriteFile(file, []byte(one+" "+one+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := runArgs(t, "merge", file); code != exitFail || !strings.Contains(errOut, "line 1") {
		t.Errorf("two objects on a line: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// TestVerifyRefuses gives verify a file with a tour twice and a named
// pipe: both are refused, exit 1.
func TestVerifyRefuses(t *testing.T) {
	dir := t.TempDir()
	twice := filepath.Join(dir, "twice.txt")
	tour := "8:37037025165\n"
	if err := os.WriteFile(twice, []byte("# knightstour 3x4 open\n"+tour+tour+"# end 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ file, want string }{
		{twice, "tour 2 repeats tour 1"},
		{fifo, "a named pipe, not a tour file"},
	} {
		if code, out, errOut := runArgs(t, "verify", tt.file); code != exitFail || !strings.Contains(errOut, tt.want) {
			t.Errorf("verify %s: exit %d, stdout %q, stderr %q; want exit 1 and %q", tt.file, code, out, errOut, tt.want)
		}
	}
}

// TestListStopsOnFullPipe interrupts a listing whose reader reads
// nothing: its write waits on a full pipe, and must give up at once.
func TestListStopsOnFullPipe(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cmd := process("list", "-quiet", "6x6")
	cmd.Stdout = w
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	time.Sleep(500 * time.Millisecond) // the pipe fills in a few milliseconds
	cmd.Process.Signal(os.Interrupt)
	cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != exitFail || !strings.Contains(stderr.String(), "interrupted") {
		t.Errorf("list into a full pipe, interrupted: exit %d, stderr %q; want exit 1, interrupted", code, stderr.String())
	}
}
