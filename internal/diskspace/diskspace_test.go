package diskspace

import (
	"path/filepath"
	"runtime"
	"testing"
)

func TestFree(t *testing.T) {
	dir := t.TempDir()
	free, ok := Free(dir)
	if runtime.GOOS == "linux" && (!ok || free <= 0) {
		t.Errorf("Free(%s) = %d, %v; want some room, true", dir, free, ok)
	}
	if _, ok := Free(filepath.Join(dir, "missing")); ok {
		t.Errorf("Free of a directory that is not there: told")
	}
}
