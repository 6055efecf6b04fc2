//go:build !linux

package sysmem

// Total is the memory the process may use, in bytes; 0 where it cannot
// be told, as here.
func Total() int64 { return 0 }
