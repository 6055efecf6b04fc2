package knightstour

import "syscall"

// defaultMemoryLimit is half the machine's memory: CountDP's states may
// take that much before it stops with ErrMemoryLimit.
func defaultMemoryLimit() int64 {
	var info syscall.Sysinfo_t
	if err := syscall.Sysinfo(&info); err != nil || info.Totalram == 0 {
		return fallbackMemoryLimit
	}
	return int64(info.Totalram) * int64(info.Unit) / 2
}
