//go:build exhaustive && unix

package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestCrashAndConcurrency kills a count with a checkpoint with SIGKILL at
// random moments, again and again, starting a second process on the same
// checkpoint beside each run; every run ends in the right count, a clean
// refusal or a kill, never in a wrong count, and the last run finishes
// with the count made without stops. It takes a minute or two, so it runs
// under the exhaustive tag (.ci/run).
func TestCrashAndConcurrency(t *testing.T) {
	const board, want = "7x7", "19,023,006,776 tours"
	dir := t.TempDir()
	ckpt := filepath.Join(dir, "count.ckpt")
	args := []string{"count", "-method", "dp", "-quiet", "-workers", "2", "-checkpoint", ckpt, board}
	rng := rand.New(rand.NewPCG(1, 2))
	start := func() (*exec.Cmd, *strings.Builder) {
		cmd := process(args...)
		var out strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		return cmd, &out
	}
	// check reads how a run ended: the right count, a refusal because
	// the other holds the checkpoint, or killed.
	check := func(name string, cmd *exec.Cmd, out *strings.Builder, err error) bool {
		switch st := cmd.ProcessState; {
		case err == nil:
			if !strings.HasPrefix(out.String(), want) {
				t.Errorf("%s: %q, want %q", name, out.String(), want)
			}
			return true
		case st.Sys().(syscall.WaitStatus).Signaled():
		case st.ExitCode() == exitFail && strings.Contains(out.String(), "is in use by"):
		default:
			t.Errorf("%s: exit %d, %q", name, st.ExitCode(), out.String())
		}
		return false
	}
	finished := false
	for run := 0; run < 10 && !finished; run++ {
		first, out := start()
		time.Sleep(time.Duration(rng.IntN(300)) * time.Millisecond)
		second, out2 := start()
		time.Sleep(time.Duration(500+rng.IntN(6000)) * time.Millisecond)
		first.Process.Kill()
		err := first.Wait()
		finished = check(fmt.Sprintf("run %d", run), first, out, err)
		err = second.Wait() // it may take over the checkpoint and finish, or have been refused
		finished = check(fmt.Sprintf("run %d, second process", run), second, out2, err) || finished
	}
	if !finished {
		cmd, out := start()
		check("last run", cmd, out, cmd.Wait())
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("%d files left after the count, such as %s", len(left), left[0].Name())
	}
}
