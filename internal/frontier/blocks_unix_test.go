//go:build unix

package frontier

import (
	"io/fs"
	"syscall"
)

// blocksOf returns the bytes a file takes on disk.
func blocksOf(info fs.FileInfo) int64 {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return st.Blocks * 512
	}
	return info.Size()
}
