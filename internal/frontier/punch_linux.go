package frontier

import (
	"os"
	"syscall"
)

// fallocate's modes that free a range of a file and keep its length.
const (
	fallocKeepSize  = 0x1
	fallocPunchHole = 0x2
)

// punchHole gives back the disk of n bytes of f from byte off: they read
// as zeros from then on, and the file keeps its length.
func punchHole(f *os.File, off, n int64) error {
	for {
		err := syscall.Fallocate(int(f.Fd()), fallocPunchHole|fallocKeepSize, off, n)
		if err != syscall.EINTR {
			return err
		}
	}
}

// canPunchHoles reports whether the file system of f punches holes:
// those that cannot (and every system but Linux) keep a layer whole
// until its step ends.
func canPunchHoles(f *os.File) bool {
	// A hole of no bytes is refused by the ones that punch (EINVAL) as by
	// the others (EOPNOTSUPP): a byte past the file's end is tried
	// instead, which holds nothing to lose.
	st, err := f.Stat()
	if err != nil {
		return false
	}
	return syscall.Fallocate(int(f.Fd()), fallocPunchHole|fallocKeepSize, st.Size(), 1) == nil
}
