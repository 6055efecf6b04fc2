package filelock

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestAcquire(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "count.ckpt")
	lockName := name + ".lock"

	first, err := Acquire(name, lockName)
	if err != nil {
		t.Fatal(err)
	}
	// A second holder, even in this process, is refused and told who.
	_, err = Acquire(name, lockName)
	var held *HeldError
	if !errors.As(err, &held) || !errors.Is(err, ErrHeld) {
		t.Fatalf("second Acquire: %v, want a HeldError", err)
	}
	want := &HeldError{Name: name, Lock: lockName, PID: os.Getpid()}
	if diff := cmp.Diff(want, held); diff != "" {
		t.Errorf("HeldError (-want +got):\n%s", diff)
	}
	first.Release()
	first.Release() // twice is harmless
	if _, err := os.Stat(lockName); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("after Release the lock file is still there: %v", err)
	}
	again, err := Acquire(name, lockName)
	if err != nil {
		t.Fatalf("Acquire after Release: %v", err)
	}
	again.Release()
	var none *Lock
	none.Release()
}

// A lock file left by a process that is gone, with no flock on it, is
// taken over.
func TestAcquireLeftFile(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("without flock a left lock file is removed by hand")
	}
	dir := t.TempDir()
	name := filepath.Join(dir, "count.ckpt")
	if err := os.WriteFile(name+".lock", []byte("999999999\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := Acquire(name, name+".lock")
	if err != nil {
		t.Fatalf("a left lock file: %v", err)
	}
	defer l.Release()
	b, _ := os.ReadFile(name + ".lock")
	if got, want := string(b), strconv.Itoa(os.Getpid())+"\n"; got != want {
		t.Errorf("lock file holds %q, want %q", got, want)
	}
}

// A process killed while it holds the lock lets it go.
func TestAcquireAfterKill(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("without flock a left lock file is removed by hand")
	}
	if name := os.Getenv("FILELOCK_HOLD"); name != "" {
		if _, err := Acquire(name, name+".lock"); err != nil {
			os.Stdout.WriteString("error " + err.Error() + "\n")
			os.Exit(1)
		}
		os.Stdout.WriteString("held\n")
		select {} // until killed
	}
	name := filepath.Join(t.TempDir(), "count.ckpt")
	cmd := exec.Command(os.Args[0], "-test.run=^TestAcquireAfterKill$")
	cmd.Env = append(os.Environ(), "FILELOCK_HOLD="+name)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	if line != "held\n" {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("the holding process said %q", line)
	}
	_, err = Acquire(name, name+".lock")
	var held *HeldError
	if !errors.As(err, &held) || held.PID != cmd.Process.Pid {
		t.Errorf("while another process holds it: %v, want a HeldError naming process %d", err, cmd.Process.Pid)
	}
	cmd.Process.Kill()
	cmd.Wait()
	l, err := Acquire(name, name+".lock")
	if err != nil {
		t.Fatalf("after the holder was killed: %v", err)
	}
	l.Release()
}
