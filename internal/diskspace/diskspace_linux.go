// Package diskspace tells how much room a file system has left: the
// frontier count checks it while it writes its layers, and the command
// line before a count whose layers will go to disk.
package diskspace

import "syscall"

// Free returns the bytes that an unprivileged writer can still add to the
// file system that holds dir, and true; false if it cannot tell.
func Free(dir string) (int64, bool) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0, false
	}
	return int64(st.Bavail) * int64(st.Bsize), true
}
