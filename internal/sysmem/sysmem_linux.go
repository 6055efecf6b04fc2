// Package sysmem tells how much memory the process may use: the
// machine's, or its control group's where that is less.
package sysmem

import (
	"bufio"
	"bytes"
	"io/fs"
	"os"
	"path"
	"strconv"
	"strings"
	"syscall"
)

// Total is the memory the process may use, in bytes: the machine's, or
// its control group's where that is less (a container, a Kubernetes pod,
// a Slurm job); 0 where it cannot be told.
func Total() int64 {
	var info syscall.Sysinfo_t
	total := int64(0)
	if err := syscall.Sysinfo(&info); err == nil && info.Totalram != 0 {
		total = int64(info.Totalram) * int64(info.Unit)
	}
	if limit := cgroupMemoryLimit(os.DirFS("/")); limit > 0 && (total == 0 || limit < total) {
		total = limit
	}
	return total
}

// cgroupMemoryLimit returns the tightest memory limit of the control
// groups the process is in, and of their parents, in cgroup v2
// (memory.max) and v1 (memory.limit_in_bytes); 0 if there is none. root
// is the file system's root, so that tests can give it another.
func cgroupMemoryLimit(root fs.FS) int64 {
	data, err := fs.ReadFile(root, "proc/self/cgroup")
	if err != nil {
		return 0
	}
	best := int64(0)
	take := func(file string) {
		b, err := fs.ReadFile(root, file)
		if err != nil {
			return
		}
		s := strings.TrimSpace(string(b))
		if s == "max" {
			return
		}
		n, err := strconv.ParseInt(s, 10, 64)
		// v1 writes "no limit" as a huge number near 2^63.
		if err == nil && n > 0 && n < 1<<62 && (best == 0 || n < best) {
			best = n
		}
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		// hierarchy-ID:controllers:path
		parts := strings.SplitN(sc.Text(), ":", 3)
		if len(parts) != 3 {
			continue
		}
		var dir, file string
		switch {
		case parts[0] == "0" && parts[1] == "":
			dir, file = "sys/fs/cgroup", "memory.max"
		case hasController(parts[1], "memory"):
			dir, file = "sys/fs/cgroup/memory", "memory.limit_in_bytes"
		default:
			continue
		}
		// The group and every group above it: any of them may set the
		// limit. Inside a container the path may not exist; its root then
		// is the container's group.
		for p := path.Clean("/" + parts[2]); ; p = path.Dir(p) {
			take(path.Join(dir, p, file))
			if p == "/" {
				break
			}
		}
	}
	return best
}

func hasController(list, name string) bool {
	for _, c := range strings.Split(list, ",") {
		if c == name {
			return true
		}
	}
	return false
}
