//go:build !linux

package frontier

// freeBytes cannot tell the free space here: the step writes its runs and,
// should the disk fill, drops them and expands again in each pass.
func freeBytes(prefix string) (int64, bool) { return 0, false }
