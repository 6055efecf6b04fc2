package frontier

import (
	"fmt"
	"path/filepath"
	"sync/atomic"

	"github.com/euler1758/knightstour/internal/diskspace"
)

// A count never fills its disk: a full disk stops whatever else needs it
// (the shell that started the count among them), and a count that runs
// out of room in the middle of a file can only fail there. So the writers
// of layers ask the file system for its free space after every
// diskCheckEvery bytes they write, and the count stops with ErrDiskFull,
// its last checkpoint kept, once less than diskReserve would be left.
const (
	diskReserve    = 2 << 30
	diskCheckEvery = 256 << 20
)

// freeBytes returns the bytes that can still be written to the file
// system that holds files named after prefix (a path and the start of a
// name), and true; false if it cannot tell.
func freeBytes(prefix string) (int64, bool) { return diskspace.Free(filepath.Dir(prefix)) }

// diskGuard counts the bytes a count writes and checks the free space.
type diskGuard struct {
	prefix    string                            // where the files go (a path and the start of a name)
	free      func(prefix string) (int64, bool) // freeBytes, or a test's stand-in
	every     int64                             // diskCheckEvery, or less for tests
	unchecked atomic.Int64                      // bytes written since the last check
	// seen is the free space the last check found, for progress reports:
	// 0 before the first, or where the file system cannot tell.
	seen atomic.Int64
}

// newDiskGuard returns a guard for files named after prefix that checks
// at its first write, then every diskCheckEvery bytes. A test's stand-in
// for freeBytes is asked at every write.
func newDiskGuard(prefix string, free func(string) (int64, bool)) *diskGuard {
	g := &diskGuard{prefix: prefix, free: free, every: diskCheckEvery}
	if free == nil {
		g.free = freeBytes
	} else {
		g.every = 0
	}
	g.unchecked.Store(g.every)
	return g
}

// wrote records n bytes about to be written and returns ErrDiskFull if
// the file system then has less than diskReserve left.
func (g *diskGuard) wrote(n int) error {
	if g == nil || g.unchecked.Add(int64(n)) < g.every {
		return nil
	}
	g.unchecked.Store(0)
	free, ok := g.free(g.prefix)
	if ok {
		g.seen.Store(free)
	}
	if ok && free-int64(n) < diskReserve {
		return fmt.Errorf("%w: %d MiB left beside %s*, fewer than the %d MiB a count leaves free; free some and run the same command again",
			ErrDiskFull, free>>20, g.prefix, diskReserve>>20)
	}
	return nil
}

// lastFree returns the free space the last check found: 0 before the
// first, for a count with no guard, or where the file system cannot tell.
func (g *diskGuard) lastFree() int64 {
	if g == nil {
		return 0
	}
	return g.seen.Load()
}
