package sysmem

import (
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

func TestCgroupMemoryLimit(t *testing.T) {
	file := func(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s)} }
	tests := []struct {
		name  string
		files fstest.MapFS
		want  int64
	}{
		{"no cgroup file", fstest.MapFS{}, 0},
		{"v2, limited", fstest.MapFS{
			"proc/self/cgroup":                       file("0::/kubepods/pod1\n"),
			"sys/fs/cgroup/kubepods/pod1/memory.max": file("8589934592\n"),
		}, 8 << 30},
		{"v2, unlimited", fstest.MapFS{
			"proc/self/cgroup":                    file("0::/user.slice\n"),
			"sys/fs/cgroup/user.slice/memory.max": file("max\n"),
		}, 0},
		{"v2, a parent limits", fstest.MapFS{
			"proc/self/cgroup":                          file("0::/slurm/job7/step0\n"),
			"sys/fs/cgroup/slurm/job7/step0/memory.max": file("max\n"),
			"sys/fs/cgroup/slurm/job7/memory.max":       file("4294967296\n"),
		}, 4 << 30},
		{"v1, limited", fstest.MapFS{
			"proc/self/cgroup": file("9:pids:/\n4:memory:/docker/abc\n1:cpu,cpuacct:/\n"),
			"sys/fs/cgroup/memory/docker/abc/memory.limit_in_bytes": file("2147483648\n"),
		}, 2 << 30},
		{"v1, no limit", fstest.MapFS{
			"proc/self/cgroup":                           file("4:memory:/\n"),
			"sys/fs/cgroup/memory/memory.limit_in_bytes": file("9223372036854771712\n"),
		}, 0},
		{"v1 inside a container, the group at the root", fstest.MapFS{
			"proc/self/cgroup":                           file("4:memory:/process_api/f7e\n"),
			"sys/fs/cgroup/memory/memory.limit_in_bytes": file("1073741824\n"),
		}, 1 << 30},
		{"garbage", fstest.MapFS{
			"proc/self/cgroup":           file("0::/x\n"),
			"sys/fs/cgroup/x/memory.max": file("lots\n"),
		}, 0},
	}
	var got, want []int64
	for _, tt := range tests {
		got, want = append(got, cgroupMemoryLimit(tt.files)), append(want, tt.want)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("limits (-want +got):\n%s", diff)
	}
}
