package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestMain lets the test binary stand in for the command: run with
// KNIGHTSTOUR_AS_CLI=1 it is knightstour, so tests can start real
// processes of it.
func TestMain(m *testing.M) {
	if os.Getenv("KNIGHTSTOUR_AS_CLI") == "1" {
		ctx, _ := signal.NotifyContext(context.Background(), os.Interrupt)
		os.Exit(run(ctx, os.Args[1:], stopWriter{ctx, os.Stdout}, os.Stderr))
	}
	os.Exit(m.Run())
}

// process starts the command as a separate process.
func process(args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "KNIGHTSTOUR_AS_CLI=1")
	return cmd
}

func runArgs(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(context.Background(), args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestMainJob(t *testing.T) {
	code, out, errOut := runArgs(t, "-quiet", "4x7")
	if code != exitOK {
		t.Fatalf("exit %d, stderr %s", code, errOut)
	}
	for _, want := range []string{
		"Main: findMovesSequential():", "Main: findMovesParallel():", "Found: 1682",
		"First tour:\n  28   13   26   11   20    7   18\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Count(out, "Found: 1682") != 2 {
		t.Errorf("want two counts of 1682:\n%s", out)
	}
}

func TestDefaultBoard(t *testing.T) {
	code, out, _ := runArgs(t, "-quiet")
	if code != exitOK || !strings.Contains(out, "Board 4x7") {
		t.Errorf("exit %d, output:\n%s", code, out)
	}
}

func TestCountJSON(t *testing.T) {
	for _, args := range [][]string{
		{"count", "-json", "-workers", "2", "5x6"},
		{"count", "5x6", "-json"}, // flags after the board
		{"count", "-json", "-start", "a1", "6x5"},
		{"count", "-json", "-start", "{0,0}", "6x5"},
	} {
		code, out, errOut := runArgs(t, args...)
		if code != exitOK {
			t.Fatalf("%v: exit %d, %s", args, code, errOut)
		}
		var got map[string]any
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("%v: %v in %q", args, err, out)
		}
		for _, key := range []string{"rows", "cols", "start", "count", "nodes", "elapsed_ms"} {
			if _, ok := got[key]; !ok {
				t.Errorf("%v: JSON lacks %q: %s", args, key, out)
			}
		}
		if got["count"] != 4542.0 {
			t.Errorf("%v: count = %v, want 4542", args, got["count"])
		}
	}
}

// TestCountMethods counts the same tours by enumeration and by frontier
// dynamic programming, from a start, with free ends and closed, and checks
// that auto picks the expected method.
func TestCountMethods(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		args   []string
		count  string
		method string // picked by auto
	}{
		{[]string{"5x6"}, "4542", "enum"},
		{[]string{"-start", "c3", "5x5"}, "64", "enum"},
		{[]string{"-free", "5x5"}, "1728", "enum"},
		{[]string{"-free", "3x12"}, "", "enum"},
		{[]string{"-free", "3x13"}, "", "dp"},
		{[]string{"-closed", "6x6"}, "19724", "enum"},
		{[]string{"4x10"}, "247833", "dp"},
		{[]string{"-closed", "3x12"}, "352", "enum"},
		{[]string{"-closed", "3x14"}, "", "dp"},
	} {
		var counts []string
		for _, method := range []string{"enum", "dp", "auto"} {
			args := append([]string{"count", "-quiet", "-json", "-method", method}, tt.args...)
			code, out, errOut := runArgs(t, args...)
			if code != exitOK {
				t.Fatalf("%v: exit %d, %s", args, code, errOut)
			}
			var got struct {
				Count  json.Number `json:"count"`
				Method string      `json:"method"`
			}
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatalf("%v: %v in %q", args, err, out)
			}
			want := method
			if method == "auto" {
				want = tt.method
			}
			if got.Method != want {
				t.Errorf("%v: method %q, want %q", args, got.Method, want)
			}
			counts = append(counts, got.Count.String())
		}
		if counts[0] != counts[1] || counts[1] != counts[2] || tt.count != "" && counts[0] != tt.count {
			t.Errorf("%v: enum, dp, auto counted %v; want %s", tt.args, counts, tt.count)
		}
	}
}

// TestCountDPFailures checks the errors of a frontier count: a board it
// cannot take is bad usage (exit 2), running out of memory a failure
// (exit 1), each with a message that says what to do.
func TestCountDPFailures(t *testing.T) {
	for _, tt := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"count", "-method", "dp", "10x10"}, exitUsage, "up to 9 squares on the shorter side"},
		{[]string{"count", "-method", "dp", "-sweep", "rows", "9x9"}, exitUsage, "handles columns up to 8 squares long"},
		{[]string{"count", "-method", "dp", "-memory", "1M", "6x6"}, exitFail, "raise the memory limit (-memory"},
		{[]string{"count", "-method", "dp", "-checkpoint", filepath.Join(t.TempDir(), "none", "ck"), "8x8"}, exitUsage, "its directory does not exist"},
	} {
		code, _, errOut := runArgs(t, tt.args...)
		if code != tt.code || !strings.Contains(errOut, tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", tt.args, code, errOut, tt.code, tt.want)
		}
		// A count refused never began: no forecast of hours before the
		// error.
		if strings.Contains(errOut, "forecast") {
			t.Errorf("%v: a forecast before the error: %q", tt.args, errOut)
		}
	}
}

// TestCountDPShardsAndCheckpoint runs a frontier count in shards, merged,
// and one stopped by SIGINT and resumed, through the command, as the
// README shows them.
func TestCountDPShardsAndCheckpoint(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var files []string
	for i := range 4 {
		code, out, errOut := runArgs(t, "count", "-method", "dp", "-quiet", "-json", "-shard", fmt.Sprintf("%d/4", i), "5x7")
		if code != exitOK {
			t.Fatalf("shard %d: exit %d: %s", i, code, errOut)
		}
		name := filepath.Join(dir, fmt.Sprintf("%d.json", i))
		if err := os.WriteFile(name, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, name)
	}
	code, out, errOut := runArgs(t, append([]string{"merge"}, files...)...)
	if code != exitOK || !strings.Contains(out, `"count":187432`) {
		t.Fatalf("merge: exit %d, %s %s; want the count 187432", code, out, errOut)
	}

	ckpt := filepath.Join(dir, "6x7.ckpt")
	cmd := process("count", "-method", "dp", "-workers", "1", "-checkpoint", ckpt, "6x7")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for { // until the first checkpoint is written
		if _, err := os.Stat(ckpt); err == nil {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	cmd.Process.Signal(os.Interrupt)
	if err := cmd.Wait(); err == nil {
		t.Fatalf("interrupted count: exit 0; stderr %q", stderr.String())
	}
	if !strings.Contains(stderr.String(), "run the same command to go on") {
		t.Errorf("interrupted count: stderr %q does not say how to go on", stderr.String())
	}
	code, out, errOut = runArgs(t, "count", "-method", "dp", "-workers", "1", "-checkpoint", ckpt, "6x7")
	if code != exitOK || !strings.HasPrefix(out, "57,968,982 tours") || !strings.Contains(out, "resumed from the checkpoint after square") {
		t.Errorf("resumed count: exit %d, stdout %q, stderr %q; want 57,968,982 tours, resumed", code, out, errOut)
	}
	if !strings.HasPrefix(errOut, "resuming from the checkpoint "+ckpt+" after square ") {
		t.Errorf("resumed count: stderr %q does not begin with the checkpoint it resumes from", errOut)
	}
	if left, _ := filepath.Glob(ckpt + "*"); len(left) != 0 {
		t.Errorf("files left after the count: %v", left)
	}
}

func TestList(t *testing.T) {
	code, out, errOut := runArgs(t, "list", "3x4")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	want := "{2,0} {1,2} {0,0} {2,1} {1,3} {0,1} {2,2} {0,3} {1,1} {2,3} {0,2} {1,0}\n" +
		"{2,0} {1,2} {0,0} {2,1} {1,3} {0,1} {2,2} {1,0} {0,2} {2,3} {1,1} {0,3}\n"
	if diff := cmp.Diff(want, out); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	_, out, _ = runArgs(t, "list", "-limit", "5", "-workers", "2", "5x6")
	if n := strings.Count(out, "\n"); n != 5 {
		t.Errorf("-limit 5 printed %d lines", n)
	}
}

func TestFirst(t *testing.T) {
	code, out, errOut := runArgs(t, "first", "-order", "wirth", "-start", "{0,0}", "5x5")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	want := "" +
		"   1    6   15   10   21\n" +
		"  14    9   20    5   16\n" +
		"  19    2    7   22   11\n" +
		"   8   13   24   17    4\n" +
		"  25   18    3   12   23\n"
	if !strings.HasPrefix(out, want) {
		t.Errorf("got:\n%s\nwant it to start with:\n%s", out, want)
	}
	code, _, errOut = runArgs(t, "first", "4x4")
	if code != exitFail || !strings.Contains(errOut, "no tour") {
		t.Errorf("4x4: exit %d, stderr %q; want exit 1 and 'no tour'", code, errOut)
	}
}

func TestBadInput(t *testing.T) {
	tests := []struct {
		args []string
		want string // in stderr
	}{
		{[]string{"count", "0x4"}, "at least 1"},
		{[]string{"count", "-3x4"}, `board "-3x4": both sides must be at least 1`},
		{[]string{"count", "-method", "dp", "-5x5"}, `board "-5x5": both sides must be at least 1`},
		{[]string{"count", "-3"}, "flag provided but not defined"},
		{[]string{"count", "4by7"}, "want ROWSxCOLS"},
		{[]string{"count", "x"}, "want ROWSxCOLS"},
		{[]string{"count"}, "want one board"},
		{[]string{"count", "4x7", "5x5"}, "want one board"},
		{[]string{"count", "100000x100000"}, "too large"},
		{[]string{"count", "-start", "z9", "5x5"}, "outside the 5x5 board"},
		{[]string{"count", "-start", "nowhere", "5x5"}, `"nowhere" (want "{row,col}"`},
		{[]string{"count", "-workers", "0", "5x5"}, "0 workers"},
		{[]string{"count", "-workers", "100000000", "6x6"}, "want 1 to 1024"},
		{[]string{"first", "-workers", "100000000", "6x6"}, "want 1 to 1024"},
		{[]string{"queens", "-workers", "0", "8"}, "-workers 0"},
		{[]string{"queens", "-workers", "100000000", "8"}, "want 1 to 1024"},
		{[]string{"count", "-workers", "many", "5x5"}, "invalid value"},
		{[]string{"count", "-limit", "-1", "5x5"}, "-limit -1"},
		{[]string{"count", "-method", "magic", "5x5"}, "want enum, dp or auto"},
		{[]string{"count", "-method", "dp", "-limit", "3", "5x5"}, "needs -method enum"},
		{[]string{"count", "-method", "enum", "-memory", "1G", "5x5"}, "enumeration keeps none"},
		{[]string{"count", "-spill", "/tmp", "5x5"}, "need -method dp"},
		{[]string{"count", "-early-start", "7x7"}, "need -method dp"},
		{[]string{"count", "-sweep", "narrow", "7x7"}, "need -method dp"},
		{[]string{"count", "-across", "4x7"}, "need -method dp"},
		{[]string{"count", "-method", "dp", "-across", "-all-lengths", "4x7"}, "do not go together"},
		{[]string{"count", "-method", "dp", "-across", "3x10"}, "up to 9 squares on the longer side"},
		{[]string{"count", "-method", "dp", "-across", "-sweep", "rows", "3x9"}, "handles columns up to 8 squares long"},
		{[]string{"count", "-method", "dp", "-sweep", "diagonal", "7x7"}, "want rows, narrow or narrow-down"},
		{[]string{"count", "-memory", "1G", "5x5"}, "need -method dp"},
		{[]string{"count", "-method", "dp", "-early-start", "-closed", "6x6"}, "has none"},
		{[]string{"count", "-method", "dp", "-spill", "/dev/null/spill", "5x5"}, "not a directory"},
		{[]string{"count", "-method", "dp", "-checkpoint", "/nonexistent/c", "5x5"}, "does not exist"},
		{[]string{"count", "-method", "dp", "-spill", "/tmp", "-checkpoint", "/tmp/c", "5x5"}, "do not go together"},
		{[]string{"count", "-free", "-start", "a1", "5x5"}, "-start has no meaning"},
		{[]string{"count", "-free", "-closed", "6x6"}, "has no ends"},
		{[]string{"count", "-memory", "lots", "6x6"}, "want a size"},
		// A census in shards counted every tour in each shard, labelled as
		// one shard: merged, three shards gave three times the total.
		{[]string{"count", "-free", "-shard", "0/3", "5x6"}, "-free with -shard needs -method dp"},
		{[]string{"count", "-free", "-limit", "5", "5x6"}, "-limit does not apply"},
		{[]string{"tour", "-method", "construct", "-order", "wirth", "8x8"}, "WithMoveOrder does not apply to construct"},
		{[]string{"tour", "-method", "warnsdorff", "-workers", "2", "8x8"}, "WithWorkers does not apply to warnsdorff"},
		{[]string{"list", "-order", "(2,1)", "5x5"}, "invalid move order"},
		{[]string{"first", "-order", "spiral", "5x5"}, "invalid move order"},
		{[]string{"bogus"}, "want ROWSxCOLS"},
		{[]string{"-frobnicate", "4x7"}, "flag provided but not defined"},
	}
	for _, tt := range tests {
		code, out, errOut := runArgs(t, tt.args...)
		if code != exitUsage || !strings.Contains(errOut, tt.want) || !strings.Contains(errOut, "usage:") || out != "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and %q with a usage line", tt.args, code, out, errOut, tt.want)
		}
	}
}

func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"-h"}, {"count", "-h"}} {
		code, out, errOut := runArgs(t, args...)
		if code != exitOK || !strings.Contains(out+errOut, "usage") {
			t.Errorf("%q: exit %d, output %q %q", args, code, out, errOut)
		}
	}
}

func TestInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errOut bytes.Buffer
	if code := run(ctx, []string{"count", "-quiet", "8x8"}, &out, &errOut); code != exitFail || !strings.Contains(errOut.String(), "interrupted") {
		t.Errorf("exit %d, stderr %q", code, errOut.String())
	}
}

func TestClosedCommands(t *testing.T) {
	code, out, errOut := runArgs(t, "count", "-closed", "-json", "6x6")
	if code != exitOK || !strings.Contains(out, `"count":19724`) {
		t.Errorf("count -closed 6x6: exit %d, %s %s", code, out, errOut)
	}
	code, out, _ = runArgs(t, "count", "-closed", "7x7")
	if code != exitOK || !strings.Contains(out, "even number of squares") {
		t.Errorf("count -closed 7x7: exit %d, %s", code, out)
	}
	code, out, errOut = runArgs(t, "first", "-closed", "3x10")
	if code != exitOK || strings.Count(out, "\n") != 4 {
		t.Errorf("first -closed 3x10: exit %d, %s %s", code, out, errOut)
	}
}

func TestCensus(t *testing.T) {
	t.Parallel()
	code, out, errOut := runArgs(t, "census", "-quiet", "5x5")
	if code != exitOK || !strings.HasPrefix(out, "304   0  56   0 304\n") || !strings.Contains(out, "1728 directed, 864 undirected") {
		t.Errorf("census 5x5: exit %d, %s %s", code, out, errOut)
	}
	code, out, errOut = runArgs(t, "census", "-json", "-closed", "-unique", "6x6")
	var got censusResult
	if err := json.Unmarshal([]byte(out), &got); code != exitOK || err != nil {
		t.Fatalf("census -json: exit %d, %v, %s %s", code, err, out, errOut)
	}
	if got.Undirected.Int64() != 9862 || got.Directed.Int64() != 710064 || got.Unique == nil || got.Unique.Int64() != 1245 || got.PerSquare[5][0].Int64() != 19724 {
		t.Errorf("census -closed -unique 6x6 = %+v", got)
	}
	if code, _, errOut = runArgs(t, "census", "-start", "a1", "5x5"); code != exitUsage || !strings.Contains(errOut, "not defined: -start") {
		t.Errorf("census -start: exit %d, %s", code, errOut)
	}
}

func TestListToFileAndVerify(t *testing.T) {
	file := filepath.Join(t.TempDir(), "tours.txt")
	code, out, errOut := runArgs(t, "list", "-closed", "-workers", "4", "-o", file, "5x6")
	if code != exitOK || out != "" {
		t.Fatalf("list -o: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	code, out, errOut = runArgs(t, "verify", file)
	if code != exitOK || !strings.Contains(out, "valid tours of 5x6") {
		t.Errorf("verify: exit %d, %s %s", code, out, errOut)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	lines[2] = strings.Replace(lines[2], ":", ":7", 1)
	if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut = runArgs(t, "verify", file)
	if code != exitFail || !strings.Contains(errOut, "line 3") {
		t.Errorf("verify of a broken file: exit %d, %s", code, errOut)
	}
	if code, _, errOut = runArgs(t, "verify"); code != exitUsage {
		t.Errorf("verify without a file: exit %d, %s", code, errOut)
	}
	_, out, _ = runArgs(t, "list", "-compact", "-limit", "1", "3x4")
	if out != "# knightstour 3x4 open\n8:37037025165\n# end 1\n" {
		t.Errorf("list -compact: %q", out)
	}
}

// TestListInterrupted checks that an interrupted list leaves no file under
// the name asked for, and says that what it printed is partial.
func TestListInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	dir := t.TempDir()
	file := filepath.Join(dir, "tours.txt")
	var out, errOut bytes.Buffer
	if code := run(ctx, []string{"list", "-quiet", "-o", file, "6x6"}, &out, &errOut); code != exitFail || !strings.Contains(errOut.String(), "not written") {
		t.Errorf("list -o, interrupted: exit %d, %s", code, errOut.String())
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("list -o, interrupted, left %v", left)
	}
	out.Reset()
	errOut.Reset()
	if code := run(ctx, []string{"list", "-quiet", "6x6"}, &out, &errOut); code != exitFail || !strings.Contains(errOut.String(), "only the first 0 tours") {
		t.Errorf("list, interrupted: exit %d, %s", code, errOut.String())
	}
}

func TestQueens(t *testing.T) {
	code, out, errOut := runArgs(t, "queens", "-quiet", "12")
	if code != exitOK || !strings.Contains(out, "14,200 solutions, 1,787 up to rotation and reflection") {
		t.Errorf("queens 12: exit %d, %s %s", code, out, errOut)
	}
	_, out, _ = runArgs(t, "queens", "-unique", "8")
	if out != "8 queens: 12 up to rotation and reflection\n" {
		t.Errorf("queens -unique 8: %q", out)
	}
	_, out, _ = runArgs(t, "queens", "-print", "4")
	if !strings.HasPrefix(out, "1 3 0 2\n. Q . .\n") {
		t.Errorf("queens -print 4: %q", out)
	}
	for _, args := range [][]string{{"queens"}, {"queens", "0"}, {"queens", "33"}, {"queens", "eight"}, {"queens", "-shard", "3/3", "8"}, {"queens", "-workers", "-1", "8"}} {
		if code, _, errOut := runArgs(t, args...); code != exitUsage || !strings.Contains(errOut, "usage:") {
			t.Errorf("%q: exit %d, %s", args, code, errOut)
		}
	}
}

// TestResumeShards runs sharded counts (N-Queens, and knight's tours by
// the frontier) whose run was cut short: the shards whose -o files are
// whole are not counted again, and the merged files give the whole
// count. A file of another job, or torn, or forged, stops the rerun
// rather than being overwritten.
func TestResumeShards(t *testing.T) {
	type badFile struct{ name, old, new, want string }
	tests := []struct {
		name  string
		args  []string // of each shard, before -shard i/3 -o FILE and what they count
		count string   // -shard and -o go before it
		whole string   // in the merged JSON, the whole count
		bad   []badFile
	}{
		{
			name: "queens", args: []string{"queens", "-quiet", "-method", "constellations"}, count: "13",
			whole: `"total":73712,"unique":9233`,
			bad: []badFile{
				{"another shard", `"shard":1`, `"shard":2`, "not shard 1/3"},
				{"another method", `"constellations"`, `"classic"`, "not shard 1/3"},
				{"forged", `"unique":0`, `"unique":5`, "do not match"},
			},
		},
		{
			name: "tours", args: []string{"count", "-quiet", "-method", "dp"}, count: "5x6",
			whole: `"count":4542,`,
			bad: []badFile{
				{"another shard", `"shard":1`, `"shard":2`, "not shard 1/3"},
				{"another sweep", `"sweep":"narrow"`, `"sweep":"rows"`, "not shard 1/3"},
				{"another board", `"cols":6`, `"cols":7`, "not shard 1/3"},
				{"forged", `"count":`, `"count":-`, "a count of -"},
				{"unknown key", `"kind"`, `"kinds"`, "unknown key"},
			},
		},
		{
			// From the corner of a square board the count halves, which
			// the result says and the rerun cannot know before it counts.
			name: "tours that halve", args: []string{"count", "-quiet", "-method", "dp"}, count: "5x5",
			whole: `"count":304,`,
			bad: []badFile{
				{"another board", `"cols":5`, `"cols":6`, "not shard 1/3"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			file := func(i int) string { return filepath.Join(dir, fmt.Sprintf("%d.json", i)) }
			shard := func(i int) []string {
				return append(slices.Clone(tt.args), "-shard", fmt.Sprintf("%d/3", i), "-o", file(i), tt.count)
			}
			for i := range 2 { // the run stopped after two shards
				if code, _, errOut := runArgs(t, shard(i)...); code != exitOK {
					t.Fatalf("shard %d: exit %d, %s", i, code, errOut)
				}
			}
			before, _ := os.Stat(file(0))
			for i := range 3 { // rerun
				code, _, errOut := runArgs(t, shard(i)...)
				if code != exitOK || (i < 2) != strings.Contains(errOut, "nothing to count") {
					t.Errorf("rerun of shard %d: exit %d, %q", i, code, errOut)
				}
			}
			if after, _ := os.Stat(file(0)); !after.ModTime().Equal(before.ModTime()) {
				t.Errorf("a done shard was written again")
			}
			code, out, errOut := runArgs(t, "merge", file(0), file(1), file(2))
			if code != exitOK || !strings.Contains(out, tt.whole) {
				t.Errorf("merge: exit %d, %s %s, want %s", code, out, errOut, tt.whole)
			}
			good, _ := os.ReadFile(file(1))
			// A torn file's error depends on where the write stopped
			// ("EOF", "unexpected end of JSON input"): it must stop the
			// rerun, unwritten, whatever it says.
			bad := append([]badFile{{"torn", "", "", ""}}, tt.bad...)
			for _, c := range bad {
				content := string(good[:len(good)/2])
				if c.old != "" {
					if content = strings.Replace(string(good), c.old, c.new, 1); content == string(good) {
						t.Fatalf("%s: no %s in %s", c.name, c.old, good)
					}
				}
				if err := os.WriteFile(file(1), []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
				code, _, errOut := runArgs(t, shard(1)...)
				if code != exitFail || !strings.Contains(errOut, c.want) || !strings.Contains(errOut, "remove it") {
					t.Errorf("%s: exit %d, %q, want %q", c.name, code, errOut, c.want)
				}
				if got, _ := os.ReadFile(file(1)); string(got) != content {
					t.Errorf("%s: the file was overwritten", c.name)
				}
			}
		})
	}
}

// TestShardProcesses runs the shards of a count as separate processes at
// the same time, as a batch system would, and merges their JSON.
func TestShardProcesses(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"queens", "-quiet", "-json", "14"}, `"total":365596,"unique":45752`},
		{[]string{"queens", "-quiet", "-json", "-method", "constellations", "14"}, `"total":365596,"unique":45752`},
		{[]string{"count", "-quiet", "-json", "5x7"}, `"count":187432`},
		{[]string{"count", "-quiet", "-json", "-closed", "6x6"}, `"count":19724`},
	}
	const shards = 4
	dir := t.TempDir()
	for k, tt := range tests {
		var files []string
		var procs []*exec.Cmd
		for i := range shards {
			file := filepath.Join(dir, fmt.Sprintf("%d-%d.json", k, i))
			f, err := os.Create(file)
			if err != nil {
				t.Fatal(err)
			}
			args := append([]string{tt.args[0], "-workers", "1", "-shard", fmt.Sprintf("%d/%d", i, shards)}, tt.args[1:]...)
			cmd := process(args...)
			cmd.Stdout = f
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			procs = append(procs, cmd)
			files = append(files, file)
			defer f.Close()
		}
		for _, p := range procs {
			if err := p.Wait(); err != nil {
				t.Fatalf("%v: %v", p.Args, err)
			}
		}
		code, out, errOut := runArgs(t, append([]string{"merge"}, files...)...)
		if code != exitOK || !strings.Contains(out, tt.want) || !strings.Contains(out, `"shards":1`) {
			t.Errorf("%v: merge exit %d, %s %s; want %s", tt.args, code, out, errOut, tt.want)
		}
		whole := process(tt.args...)
		wholeOut, err := whole.Output()
		if err != nil || !strings.Contains(string(wholeOut), tt.want) {
			t.Errorf("%v unsharded: %s, %v", tt.args, wholeOut, err)
		}
		// A missing or repeated shard is refused.
		if code, _, errOut := runArgs(t, append([]string{"merge"}, files[1:]...)...); code != exitFail || !strings.Contains(errOut, "missing") {
			t.Errorf("merge without shard 0: exit %d, %s", code, errOut)
		}
		if code, _, errOut := runArgs(t, append([]string{"merge", files[0]}, files...)...); code != exitFail || !strings.Contains(errOut, "0/4") {
			t.Errorf("merge with shard 0 twice: exit %d, %s", code, errOut)
		}
	}
	if code, _, errOut := runArgs(t, "merge", filepath.Join(dir, "0-0.json"), filepath.Join(dir, "1-1.json")); code != exitFail || !strings.Contains(errOut, "cannot merge") {
		t.Errorf("merging queens with tours: exit %d, %s", code, errOut)
	}
	if code, _, errOut := runArgs(t, "count", "-shard", "1/4", "-limit", "5", "5x6"); code != exitUsage {
		t.Errorf("-shard with -limit: exit %d, %s", code, errOut)
	}
}

func TestTour(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "t.svg")
	code, out, errOut := runArgs(t, "tour", "-closed", "-svg", file, "-numbers", "30x30")
	if code != exitOK || !strings.Contains(out, "closed tour of 30x30") || strings.Count(out, "\n") != 31 {
		t.Errorf("tour -closed 30x30: exit %d, %s %s", code, out, errOut)
	}
	if data, err := os.ReadFile(file); err != nil || !strings.HasPrefix(string(data), "<svg") || strings.Count(string(data), "<text") != 900 {
		t.Errorf("SVG: %v, %d bytes", err, len(data))
	}
	code, out, _ = runArgs(t, "tour", "-method", "warnsdorff", "200x300")
	if code != exitOK || strings.Count(out, "\n") != 1 || !strings.Contains(out, "open tour of 200x300") {
		t.Errorf("tour 200x300: exit %d, %s", code, out)
	}
	code, out, _ = runArgs(t, "tour", "-method", "search", "-order", "wirth", "-start", "{0,0}", "5x5")
	if code != exitOK || !strings.HasPrefix(out, "   1    6   15   10   21\n") {
		t.Errorf("tour 5x5 (search): exit %d, %s", code, out)
	}
	if code, _, errOut := runArgs(t, "tour", "-closed", "5x5"); code != exitFail || !strings.Contains(errOut, "no closed tour exists on a 5x5 board") || strings.Count(errOut, "knightstour:") != 1 {
		t.Errorf("tour -closed 5x5: exit %d, %q", code, errOut)
	}
	if code, _, _ := runArgs(t, "tour", "-method", "magic", "8x8"); code != exitUsage {
		t.Errorf("-method magic: exit %d", code)
	}
	code, out, _ = runArgs(t, "tour", "-method", "construct", "-closed", "-start", "{3,5}", "8x8")
	if code != exitOK || !strings.Contains(out, "closed tour of 8x8 from {3,5}") || !strings.Contains(out, "guaranteed construction") || strings.Count(out, "\n") != 9 {
		t.Errorf("tour -method construct 8x8: exit %d, %s", code, out)
	}
	// Beyond the solvers' 65,536 squares auto constructs.
	code, out, _ = runArgs(t, "tour", "-start", "{1,1}", "1001x999")
	if code != exitOK || !strings.Contains(out, "open tour of 1001x999 from {1,1}") || strings.Count(out, "\n") != 1 {
		t.Errorf("tour 1001x999: exit %d, %s", code, out)
	}
	for _, args := range [][]string{{"-svg", filepath.Join(dir, "big.svg"), "2000x2000"}, {"-start", "{1,15}", "4x30"}} {
		if code, _, errOut := runArgs(t, append([]string{"tour"}, args...)...); code == exitOK {
			t.Errorf("tour %v: exit %d, %s", args, code, errOut)
		}
	}
}

// TestMergeRefusesUnshardable checks that merge does not add up results
// that call themselves shards of a count that never splits: files like
// those 'count -free -shard i/3' used to write, each the whole count.
func TestMergeRefusesUnshardable(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, json, want string
	}{
		{"free ends", `{"kind":"tours","rows":5,"cols":6,"start":"","order":"seed","free_ends":true,"method":"enum","count":37568,"nodes":80000,"workers":1,"shard":%d,"shards":3}`, "never split"},
	}
	for _, tt := range tests {
		var files []string
		for i := range 3 {
			name := filepath.Join(dir, fmt.Sprintf("%s-%d.json", strings.ReplaceAll(tt.name, " ", "-"), i))
			if err := os.WriteFile(name, []byte(fmt.Sprintf(tt.json, i)+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			files = append(files, name)
		}
		code, out, errOut := runArgs(t, append([]string{"merge"}, files...)...)
		if code != exitFail || out != "" || !strings.Contains(errOut, tt.want) {
			t.Errorf("%s: merge exit %d, stdout %q, stderr %q; want exit 1 and %q", tt.name, code, out, errOut, tt.want)
		}
	}
	mixed := []string{
		`{"kind":"tours","rows":5,"cols":6,"start":"{4,0}","order":"seed","method":"enum","count":1,"nodes":9,"workers":1,"shard":0,"shards":2}`,
		`{"kind":"tours","rows":5,"cols":6,"start":"{4,0}","order":"seed","method":"dp","count":1,"workers":1,"shard":1,"shards":2}`,
	}
	name := filepath.Join(dir, "mixed.json")
	if err := os.WriteFile(name, []byte(strings.Join(mixed, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runArgs(t, "merge", name); code != exitFail || !strings.Contains(errOut, "cannot merge") {
		t.Errorf("shards of two methods: merge exit %d, %s; want exit 1 and cannot merge", code, errOut)
	}
}

// TestParseBytesEmpty checks that an empty size is an error, not a panic.
func TestParseBytesEmpty(t *testing.T) {
	for _, s := range []string{"", "G", "-1G", "0"} {
		if n, err := parseBytes(s); err == nil {
			t.Errorf("parseBytes(%q) = %d, want an error", s, n)
		}
	}
}

// TestMergeAllLengths checks that merge adds up the counts of the shorter
// boards that shards of a count with -all-lengths hold, to those of the
// count made whole, and that the whole count's states are not one shard's.
func TestMergeAllLengths(t *testing.T) {
	whole := func(args ...string) countResult {
		t.Helper()
		code, out, errOut := runArgs(t, args...)
		var res countResult
		if err := json.Unmarshal([]byte(out), &res); code != exitOK || err != nil {
			t.Fatalf("%v: exit %d, %v, %s", args, code, err, errOut)
		}
		return res
	}
	alone := whole("count", "-method", "dp", "-quiet", "-json", "-all-lengths", "5x7")
	var files []string
	for i := range 3 {
		_, out, _ := runArgs(t, "count", "-method", "dp", "-quiet", "-json", "-all-lengths", "-shard", fmt.Sprintf("%d/3", i), "5x7")
		name := filepath.Join(t.TempDir(), "shard.json")
		if err := os.WriteFile(name, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, name)
	}
	merged := whole(append([]string{"merge"}, files...)...)
	got := []any{fmt.Sprint(merged.ByLength), merged.Count.String(), len(merged.States)}
	want := []any{fmt.Sprint(alone.ByLength), alone.Count.String(), 0}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("merged by length, count, states (-alone +merged):\n%s", diff)
	}
}

// TestMergeRefusesForged checks that merge adds up nothing it cannot
// trust: real shard results, each forged in one way a hand or a script
// could.
func TestMergeRefusesForged(t *testing.T) {
	dir := t.TempDir()
	run := func(args ...string) []string {
		t.Helper()
		n := 2
		var outs []string
		for i := range n {
			shardArgs := append([]string{args[0], "-shard", fmt.Sprintf("%d/%d", i, n), "-json"}, args[1:]...)
			code, out, errOut := runArgs(t, shardArgs...)
			if code != exitOK {
				t.Fatalf("%v: exit %d, %s", shardArgs, code, errOut)
			}
			outs = append(outs, strings.TrimSpace(out))
		}
		return outs
	}
	enum := run("count", "-method", "enum", "5x6")
	dp := run("count", "-method", "dp", "6x6")
	lengths := run("count", "-method", "dp", "-all-lengths", "5x6")
	qs := run("queens", "8")
	replace := func(parts []string, i int, old, new string) []string {
		out := slices.Clone(parts)
		if !strings.Contains(out[i], old) {
			t.Fatalf("%q holds no %q", out[i], old)
		}
		out[i] = strings.Replace(out[i], old, new, 1)
		return out
	}
	// set gives a field of part i another value.
	set := func(parts []string, i int, key, value string) []string {
		out := slices.Clone(parts)
		field := regexp.MustCompile(`"` + key + `":[^,}]*`)
		if !field.MatchString(out[i]) {
			t.Fatalf("%q holds no %q", out[i], key)
		}
		out[i] = field.ReplaceAllString(out[i], `"`+key+`":`+value)
		return out
	}
	tests := []struct {
		name  string
		parts []string
		want  string
	}{
		{"the real shards", enum, ""},
		{"the real frontier shards", dp, ""},
		{"the real queens shards", qs, ""},
		{"shard 1/2 relabelled 0/1", replace(enum[1:], 0, `"shard":1,"shards":2`, `"shard":0,"shards":1`), "not the part"},
		{"negative count", replace(enum, 0, `"count":`, `"count":-`), "negative"},
		{"more tours than nodes", set(enum, 0, "count", "18446744073709551615"), "tours from"},
		{"negative workers", replace(enum, 0, `"workers":`, `"workers":-`), "workers"},
		{"negative time", replace(enum, 0, `"elapsed_ms":`, `"elapsed_ms":-`), "not a result a count printed"},
		{"duplicate key", replace(enum, 0, `"count":`, `"count":1,"count":`), "given twice"},
		{"case-folded key", replace(enum, 0, `"rows":`, `"Rows":`), `unknown key "Rows"`},
		{"unknown key", replace(enum, 0, `"rows":`, `"bonus":7,"rows":`), `unknown key "bonus"`},
		{"frontier shard relabelled 0/1", replace(dp[1:], 0, `"shard":1,"shards":2`, `"shard":0,"shards":1`), "parted"},
		{"frontier shard followed more", replace(dp, 0, `"followed":`, `"followed":1`), "not the part"},
		{"the real shards by length", lengths, ""},
		{"a length dropped", replace(lengths, 1, `"by_length":[0,`, `"by_length":[`), "lengths"},
		{"the whole board's count by length against its count", replace(lengths, 0, `"count":`, `"count":1`), "by length"},
		{"queens total of 2^64-1", replace(qs, 0, `"total":`, `"total":18446744073709551615,"x":`), "unknown key"},
		{"queens total against its classes", replace(qs, 0, `"c8":`, `"c8":1`), "do not match"},
		{"queens shard relabelled 0/1", replace(qs[1:], 0, `"shard":1,"shards":2`, `"shard":0,"shards":1`), "tasks"},
	}
	for _, tt := range tests {
		name := filepath.Join(dir, strings.NewReplacer(" ", "-", "/", "-").Replace(tt.name)+".json")
		if err := os.WriteFile(name, []byte(strings.Join(tt.parts, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		code, out, errOut := runArgs(t, "merge", name)
		switch {
		case tt.want == "" && code != exitOK:
			t.Errorf("%s: merge exit %d, %s", tt.name, code, errOut)
		case tt.want != "" && (code != exitFail || out != "" || !strings.Contains(errOut, tt.want)):
			t.Errorf("%s: merge exit %d, stdout %q, stderr %q; want exit 1 and %q", tt.name, code, out, errOut, tt.want)
		}
	}
	for _, args := range [][]string{
		{"count", "-shard", "0/9999999999999", "5x6"},
		{"queens", "-shard", "0/9999999999999", "8"},
		{"queens", "-shard", "0/1000", "8"},
	} {
		if code, _, errOut := runArgs(t, args...); code != exitUsage {
			t.Errorf("%v: exit %d, %s; want %d", args, code, errOut, exitUsage)
		}
	}
}

// TestTourToFile writes single tours of boards too large to print to tour
// files, and verifies them.
func TestTourToFile(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct{ size, kind string }{{"31x17", "open"}, {"300x301", "closed"}, {"6x6", "open"}} {
		file := filepath.Join(dir, tt.size+".txt")
		args := []string{"tour", "-method", "construct", "-o", file, tt.size}
		if tt.kind == "open" {
			args = append(args[:1], append([]string{"-start", "{0,2}"}, args[1:]...)...)
		}
		if code, _, errOut := runArgs(t, args...); code != exitOK {
			t.Fatalf("%v: exit %d, %s", args, code, errOut)
		}
		code, out, errOut := runArgs(t, "verify", file)
		if want := fmt.Sprintf("1 valid tour of %s", tt.size); code != exitOK || !strings.Contains(out, want) {
			t.Errorf("verify %s: exit %d, %s %s; want %q", tt.size, code, out, errOut, want)
		}
	}
}

// TestEverySubcommandHelp checks that every subcommand's -h says how to call it and what
// its flags are, and exits 0.
func TestEverySubcommandHelp(t *testing.T) {
	for _, c := range []string{"count", "list", "first", "census", "verify", "queens", "merge", "tour"} {
		code, _, errOut := runArgs(t, c, "-h")
		if code != exitOK || !strings.Contains(errOut, "usage: knightstour "+c) || len(errOut) < 200 {
			t.Errorf("%s -h: exit %d, %q", c, code, errOut)
		}
	}
}

// TestProfiles asks count and queens for both profiles and a trace: each
// profile must be gzipped protocol buffers, the trace must begin as Go's
// execution traces do, and a file that cannot be written fails the
// command with the flag's name.
func TestProfiles(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ name, command, board string }{
		{"count", "count", "5x6"},
		{"count-dp", "count -method dp", "6x6"},
		{"queens", "queens", "10"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cpu, mem, tr := filepath.Join(dir, tc.name+".cpu"), filepath.Join(dir, tc.name+".mem"), filepath.Join(dir, tc.name+".trace")
			args := append(strings.Fields(tc.command), "-quiet", "-cpuprofile", cpu, "-memprofile", mem, "-trace", tr, tc.board)
			if code, _, errOut := runArgs(t, args...); code != exitOK {
				t.Fatalf("%q: exit %d, stderr %s", args, code, errOut)
			}
			for _, file := range []string{cpu, mem} {
				raw, err := os.ReadFile(file)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.HasPrefix(raw, []byte{0x1f, 0x8b}) {
					t.Errorf("%s: not a gzipped profile: % x", file, raw[:min(len(raw), 8)])
				}
			}
			if raw, err := os.ReadFile(tr); err != nil || !bytes.HasPrefix(raw, []byte("go 1.")) {
				t.Errorf("%s: not an execution trace (%v): %q", tr, err, raw[:min(len(raw), 8)])
			}
		})
	}
	for _, name := range []string{"-cpuprofile", "-memprofile", "-trace"} {
		bad := filepath.Join(dir, "no such dir", "p")
		code, _, errOut := runArgs(t, "count", "-quiet", name, bad, "4x5")
		if code != exitFail || !strings.Contains(errOut, name+":") {
			t.Errorf("%s %s: exit %d, stderr %q; want exit %d naming the flag", name, bad, code, errOut, exitFail)
		}
	}
}

func TestVersion(t *testing.T) {
	code, out, errOut := runArgs(t, "version")
	if code != exitOK || !strings.HasPrefix(out, "knightstour ") || !strings.Contains(out, " go1.") {
		t.Errorf("version: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if code, _, _ := runArgs(t, "version", "now"); code != exitUsage {
		t.Errorf("version now: exit %d, want %d", code, exitUsage)
	}
}

// TestListUnique lists one tour a shape: as many as census -unique counts.
func TestListUnique(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want int
	}{
		{[]string{"list", "-quiet", "-unique", "5x5"}, 112},
		{[]string{"list", "-quiet", "-closed", "-unique", "6x6"}, 1245},
		{[]string{"list", "-quiet", "-unique", "-limit", "3", "5x5"}, 3},
	} {
		code, out, errOut := runArgs(t, tt.args...)
		if got := strings.Count(out, "\n"); code != exitOK || got != tt.want {
			t.Errorf("%q: exit %d, %d lines, stderr %q; want %d", tt.args, code, got, errOut, tt.want)
		}
	}
}

// TestMergeFrontierTasks merges the shards of a frontier count: its tasks
// are the board's squares, in every shard alike, not their sum.
func TestMergeFrontierTasks(t *testing.T) {
	var lines []string
	for i := range 3 {
		code, out, errOut := runArgs(t, "count", "-quiet", "-json", "-method", "dp", "-free", "-shard", fmt.Sprintf("%d/3", i), "5x6")
		if code != exitOK {
			t.Fatalf("shard %d: exit %d, %s", i, code, errOut)
		}
		lines = append(lines, out)
	}
	file := filepath.Join(t.TempDir(), "shards.json")
	if err := os.WriteFile(file, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runArgs(t, "merge", file)
	if code != exitOK || !strings.Contains(out, `"tasks":30,`) || !strings.Contains(out, `"count":37568,`) {
		t.Errorf("merge: exit %d, %s %s; want 30 tasks and 37568 tours", code, out, errOut)
	}
}
