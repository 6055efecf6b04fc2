//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package filelock

import (
	"errors"
	"os"
)

// openLocked, without flock, holds the lock by creating the lock file:
// the process that creates it holds it until Release removes it. A
// process that dies holding it leaves the file, which the HeldError
// names, to be removed by hand.
func openLocked(name string) (f *os.File, held bool, err error) {
	f, err = os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, os.ErrExist) {
		f, err = os.Open(name)
		if err != nil {
			return nil, true, nil
		}
		return f, true, nil
	}
	return f, false, err
}
