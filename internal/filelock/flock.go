//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package filelock

import (
	"errors"
	"os"
	"syscall"
)

// openLocked opens the lock file, creating it if need be, and takes an
// exclusive flock on it without waiting. If another process holds it,
// held is true and f is open for reading who. The kernel lets a flock go
// when its process ends.
func openLocked(name string) (f *os.File, held bool, err error) {
	f, err = os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, false, err
	}
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		switch {
		case err == nil:
			return f, false, nil
		case errors.Is(err, syscall.EINTR):
			continue
		case errors.Is(err, syscall.EWOULDBLOCK):
			return f, true, nil
		default:
			f.Close()
			return nil, false, err
		}
	}
}
