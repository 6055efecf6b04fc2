package frontier

import (
	"path/filepath"
	"syscall"
)

// freeBytes returns the bytes that an unprivileged writer can still add
// to the file system that holds files named after prefix (a path and the
// start of a name), and true; false if it cannot tell.
func freeBytes(prefix string) (int64, bool) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(filepath.Dir(prefix), &st); err != nil {
		return 0, false
	}
	return int64(st.Bavail) * int64(st.Bsize), true
}
