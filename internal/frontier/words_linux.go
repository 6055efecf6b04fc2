package frontier

import (
	"syscall"
	"unsafe"
)

// allocWords returns n zeroed words of memory that the garbage collector
// does not manage: mapped from the kernel, and unmapped by freeWords. The
// layers and tables are nearly all of a count's memory and live and die
// a group at a time; on the Go heap, memory freed in a step would wait for
// a collection, which comes when the heap has doubled, so the process
// would hold up to twice what the count needs. Small mappings are mapped
// at once (populated), which costs less than a fault on each first touch;
// large ones ask for huge pages, which fault 2 MiB at a time and spare the
// processor a miss in its page tables on nearly every probe into a large
// table.
func allocWords(n int) ([]uint64, error) {
	if n == 0 {
		return nil, nil
	}
	flags := syscall.MAP_ANON | syscall.MAP_PRIVATE
	huge := n*8 >= 4<<20
	if !huge {
		flags |= syscall.MAP_POPULATE
	}
	b, err := syscall.Mmap(-1, 0, n*8, syscall.PROT_READ|syscall.PROT_WRITE, flags)
	if err != nil {
		return nil, err
	}
	if huge {
		_ = syscall.Madvise(b, syscall.MADV_HUGEPAGE) // a hint: without it, small pages
	}
	return unsafe.Slice((*uint64)(unsafe.Pointer(&b[0])), n), nil
}

// freeWords returns memory from allocWords to the kernel at once.
func freeWords(w []uint64) {
	if cap(w) == 0 {
		return
	}
	w = w[:cap(w)]
	_ = syscall.Munmap(unsafe.Slice((*byte)(unsafe.Pointer(&w[0])), len(w)*8))
}
