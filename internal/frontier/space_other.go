//go:build !linux

package frontier

// freeBytes cannot tell the free space here: the count writes its layers
// until a write fails.
func freeBytes(prefix string) (int64, bool) { return 0, false }
