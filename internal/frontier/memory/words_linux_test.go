package memory

import (
	"context"
	"math/rand/v2"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// allocSmall returns n zeroed words in small pages only, all faulted in:
// the tables of a pass where the kernel found no room for huge pages.
func allocSmall(n int) ([]uint64, error) {
	w, err := AllocWords(n)
	if err != nil {
		return nil, err
	}
	const madvNoHugepage = 15
	syscall.Syscall(syscall.SYS_MADVISE, uintptr(unsafe.Pointer(&w[0])), uintptr(n*8), madvNoHugepage)
	for i := 0; i < n; i += PageWords {
		w[i] = 0
	}
	return w, nil
}

// BenchmarkProbe adds one to words at random in 1 GiB of memory mapped in
// small pages and in the huge ones allocHuge asks for, 1024 words at a
// time, reading them all first as stager.flush does: what a probe into a
// pass's tables costs where neither the words nor their page table
// entries are in the processor's caches (ns/probe).
func BenchmarkProbe(b *testing.B) {
	const words = 1 << 30 / 8
	for _, pages := range []struct {
		name  string
		alloc func(int) ([]uint64, error)
	}{{"small", allocSmall}, {"huge", func(n int) ([]uint64, error) { return allocHuge(context.Background(), n, 2) }}} {
		b.Run(pages.name, func(b *testing.B) {
			w, err := pages.alloc(words)
			if err != nil {
				b.Fatal(err)
			}
			defer FreeWords(w)
			rng := rand.New(rand.NewPCG(1, 2))
			var at [1024]int
			var sum uint64
			for b.Loop() {
				for j := range at {
					at[j] = int(rng.Uint64N(words))
				}
				for _, i := range at {
					sum += w[i]
				}
				for _, i := range at {
					w[i]++
				}
			}
			if sum == 1 {
				b.Log("") // keeps the reads
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(at)), "ns/probe")
		})
	}
}

// BenchmarkFaultIn maps 4 GiB and faults it in (allocHuge) on 2 workers,
// whole, and stopped 100 ms in as a count told to stop is: what a pass
// waits for its tables where no pass before kept them, and what a stop
// waits for (ms to return once stopped). Under a hypervisor that takes
// back the memory its guest frees, both depend on how much of what the
// process freed the host has taken back.
func BenchmarkFaultIn(b *testing.B) {
	const words = 4 << 30 / 8
	for _, stop := range []time.Duration{0, 100 * time.Millisecond} {
		name := "whole"
		if stop > 0 {
			name = "stopped"
		}
		b.Run(name, func(b *testing.B) {
			var waited time.Duration
			for b.Loop() {
				ctx, cancel := context.WithCancel(context.Background())
				start := time.Now()
				if stop > 0 {
					time.AfterFunc(stop, cancel)
				}
				w, err := allocHuge(ctx, words, 2)
				if err != nil {
					b.Fatal(err)
				}
				if stop > 0 {
					waited += time.Since(start) - stop
				}
				cancel()
				FreeWords(w)
			}
			if stop > 0 {
				b.ReportMetric(float64(waited.Milliseconds())/float64(b.N), "ms/stop")
			} else {
				b.ReportMetric(float64(b.N)*words*8/b.Elapsed().Seconds()/1e9, "GB/s")
			}
		})
	}
}
