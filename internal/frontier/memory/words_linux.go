package memory

import (
	"context"
	"syscall"
	"unsafe"

	"github.com/euler1758/knightstour/internal/pool"
)

// AllocWords returns n zeroed words of memory that the garbage collector
// does not manage: mapped from the kernel, and unmapped by FreeWords. The
// layers and tables are nearly all of a count's memory and live and die
// a group at a time; on the Go heap, memory freed in a step would wait for
// a collection, which comes when the heap has doubled, so the process
// would hold up to twice what the count needs. Small mappings are mapped
// at once (populated), which costs less than a fault on each first touch;
// large ones ask for huge pages, which fault 2 MiB at a time and spare the
// processor a miss in its page tables on nearly every probe into a large
// table.
//
// The calls go to the kernel directly: syscall.Mmap keeps a record of each
// mapping and syscall.Munmap unmaps only whole ones, where the lean step
// gives back the pages of one table out of a mapping of many.
func AllocWords(n int) ([]uint64, error) {
	if n == 0 {
		return nil, nil
	}
	flags := syscall.MAP_ANON | syscall.MAP_PRIVATE
	huge := n >= hugeWords
	if !huge {
		flags |= syscall.MAP_POPULATE
	}
	addr, _, errno := syscall.Syscall6(syscall.SYS_MMAP, 0, uintptr(n*8), syscall.PROT_READ|syscall.PROT_WRITE, uintptr(flags), ^uintptr(0), 0)
	if errno != 0 {
		return nil, errno
	}
	if huge {
		syscall.Syscall(syscall.SYS_MADVISE, addr, uintptr(n*8), syscall.MADV_HUGEPAGE) // a hint: without it, small pages
	}
	// The memory is the kernel's, not the collector's: a pointer to it may
	// come from a number.
	p := *(*unsafe.Pointer)(unsafe.Pointer(&addr))
	return unsafe.Slice((*uint64)(p), n), nil
}

// Advice the syscall package does not name (Linux 5.14 and 6.1).
const (
	madvPopulateWrite = 23 // fault the range in now, writable
	madvCollapse      = 25 // gather the range's small pages into huge ones now
)

// allocHuge is AllocWords for a mapping that will be written all over at
// once and then probed at random, such as the tables of a pass: it faults
// the mapping in at once (faultIn).
func allocHuge(ctx context.Context, n, workers int) ([]uint64, error) {
	w, err := AllocWords(n)
	if err != nil || n < hugeWords {
		return w, err
	}
	faultIn(ctx, w, workers)
	return w, nil
}

// faultIn faults every page of w, part of a mapping from AllocWords, in
// now, and asks the kernel to gather into huge pages those it could not
// fault in as huge. A huge page is only a hint at fault time, which the
// kernel drops where free memory lies in small pieces, as it does once
// the page cache fills the machine: one pass of 8x12 with free ends found
// three quarters of its 9 GiB of tables in small pages, where a probe
// costs a miss in the page tables too (BenchmarkProbe: about 80 ns a
// probe in small pages, 55 in huge ones). Gathering is synchronous, about
// a second a gigabyte where nothing was huge, against minutes of probing;
// kernels without it leave the pages as they are.
//
// Workers goroutines fault w in, a piece of spaceChunk words at a time,
// cut where huge pages begin, until ctx is done: the rest then faults in
// at its first touch. As one call, 12 GiB kept a count that was told to
// stop waiting for three minutes.
func faultIn(ctx context.Context, w []uint64, workers int) {
	if len(w) == 0 {
		return
	}
	const hugePage = 2 << 20
	n, addr := len(w), uintptr(unsafe.Pointer(&w[0]))
	skew := min(n, int((hugePage-addr%hugePage)%hugePage)/8) // the words before the first huge page
	_ = pool.Run(ctx, workers, 1+pieces(n-skew), func(_, i int) error {
		lo, hi := 0, skew // piece 0: those before the first huge page
		if i > 0 {
			lo, hi = skew+(i-1)*spaceChunk, min(n, skew+i*spaceChunk)
		}
		if lo >= hi {
			return nil
		}
		at, size := addr+uintptr(lo*8), uintptr((hi-lo)*8)
		if _, _, errno := syscall.Syscall(syscall.SYS_MADVISE, at, size, madvPopulateWrite); errno == 0 {
			syscall.Syscall(syscall.SYS_MADVISE, at, size, madvCollapse)
		}
		return nil
	})
}

// FreeWords returns memory from AllocWords to the kernel at once. The
// kernel can refuse: a mapping cut in two takes one more of the mappings a
// process may have (vm.max_map_count, 65530 by default).
func FreeWords(w []uint64) error {
	if cap(w) == 0 {
		return nil
	}
	w = w[:cap(w)]
	if _, _, errno := syscall.Syscall(syscall.SYS_MUNMAP, uintptr(unsafe.Pointer(&w[0])), uintptr(len(w)*8), 0); errno != 0 {
		return errno
	}
	return nil
}

// discardZeroes says that words discardWords gives back read as zeros.
const discardZeroes = true

// discardWords gives the pages of w, whole pages inside a mapping from
// AllocWords, back to the kernel but keeps them mapped, as zeros: unlike
// unmapping part of a mapping, it never cuts the mapping in two.
func discardWords(w []uint64) {
	if cap(w) == 0 {
		return
	}
	w = w[:cap(w)]
	syscall.Syscall(syscall.SYS_MADVISE, uintptr(unsafe.Pointer(&w[0])), uintptr(len(w)*8), syscall.MADV_DONTNEED)
}
