// Package filelock lets one process at a time work on a file: a count on
// its checkpoint, a spill directory, a result being written.
//
// A lock is a small file beside the one it guards, holding the holder's
// process ID. Where the system has flock(2), the kernel holds the lock
// and lets it go when its process ends however it ends, so the lock of a
// process killed with -9 is taken over by the next one at once; the file
// left behind only names who held it last. Elsewhere the file's existence
// is the lock, and one left by a dead process must be removed by hand:
// the error says which file and which process.
package filelock

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
)

// ErrHeld is the error, wrapped in a *HeldError, when another process
// holds the lock.
var ErrHeld = errors.New("in use by another process")

// A HeldError says which process holds a lock.
type HeldError struct {
	// Name is the file the lock guards.
	Name string
	// Lock is the lock file.
	Lock string
	// PID is the holder's process ID, 0 if it has not written it yet.
	PID int
}

func (e *HeldError) Error() string {
	holder := "another process"
	if e.PID > 0 {
		holder = "process " + strconv.Itoa(e.PID)
	}
	return fmt.Sprintf("%s is in use by %s (lock %s): wait for it to end or stop it", e.Name, holder, e.Lock)
}

// Unwrap makes errors.Is(err, ErrHeld) true.
func (e *HeldError) Unwrap() error { return ErrHeld }

// A Lock is held on a file until Release.
type Lock struct {
	f    *os.File
	name string // the lock file
}

// Acquire takes the lock on name, whose lock file is lockName, and
// writes this process's ID in it. It does not wait: if another process
// holds the lock, it returns a *HeldError at once.
func Acquire(name, lockName string) (*Lock, error) {
	for range 100 { // a retry per holder that let go as this one came
		f, held, err := openLocked(lockName)
		switch {
		case err != nil:
			return nil, fmt.Errorf("cannot lock %s: %w", name, err)
		case held:
			pid := 0
			if f != nil {
				// The holder writes its ID just after it takes the lock:
				// a moment's wait lets the message name it.
				for try := 0; pid == 0 && try < 10; try++ {
					if try > 0 {
						time.Sleep(2 * time.Millisecond)
					}
					pid = holder(f)
				}
				f.Close()
			}
			return nil, &HeldError{Name: name, Lock: lockName, PID: pid}
		}
		// The holder before may have removed the file between the open
		// and the lock: then this lock is on a file no one else will
		// open, and the name is to be locked again.
		if same, err := isFile(f, lockName); err != nil || !same {
			f.Close()
			if err != nil {
				return nil, fmt.Errorf("cannot lock %s: %w", name, err)
			}
			continue
		}
		if err := writePID(f); err != nil {
			f.Close()
			return nil, fmt.Errorf("cannot lock %s: %w", name, err)
		}
		return &Lock{f: f, name: lockName}, nil
	}
	return nil, fmt.Errorf("cannot lock %s: %s keeps changing", name, lockName)
}

// Release removes the lock file and lets the lock go. It may be called
// more than once, and on a nil Lock.
func (l *Lock) Release() {
	if l == nil || l.f == nil {
		return
	}
	os.Remove(l.name) // while held, so that no one locks the file going away
	l.f.Close()
	l.f = nil
}

// holder reads the process ID that a lock file holds, 0 if none.
func holder(f *os.File) int {
	b := make([]byte, 24) // a process ID and a newline, bounded
	n, _ := io.ReadFull(io.NewSectionReader(f, 0, int64(len(b))), b)
	pid, err := strconv.Atoi(strings.TrimSpace(string(b[:n])))
	if err != nil || pid < 0 {
		return 0
	}
	return pid
}

// writePID replaces what the lock file holds with this process's ID.
func writePID(f *os.File) error {
	if err := f.Truncate(0); err != nil {
		return err
	}
	_, err := f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	return err
}

// isFile reports whether f is still the file called name.
func isFile(f *os.File, name string) (bool, error) {
	a, err := f.Stat()
	if err != nil {
		return false, err
	}
	b, err := os.Stat(name)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return os.SameFile(a, b), nil
}
