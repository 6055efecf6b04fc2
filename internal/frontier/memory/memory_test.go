package memory

import (
	"runtime"
	"runtime/debug"
	"testing"
)

// TestMemoryCountsRuntime checks that what the Go runtime takes during a
// count, past its slack, counts against the limit: a heap that grew by
// 48 MiB, and may grow to twice that before the collector runs, leaves at
// least 24 MiB less, and at most 96, less the slack, for mapped memory
// (the collector may give back some of what the process held before).
func TestMemoryCountsRuntime(t *testing.T) {
	debug.FreeOSMemory() // what earlier tests left
	m := NewBudget(256 << 20)
	m.Watch()
	heap := make([]byte, 48<<20)
	for i := range heap {
		heap[i] = byte(i) // touched: held from the kernel
	}
	m.SampleRuntime()
	const least = 24 << 20
	if got := m.runtime.Load(); got < least {
		t.Errorf("runtime = %d bytes after a 48 MiB heap, want at least %d", got, least)
	}
	if m.Grab(240 << 20) {
		t.Errorf("240 MiB of 256 granted beside a 48 MiB heap")
	}
	m.Release(240 << 20)
	if !m.Grab(150 << 20) {
		t.Errorf("150 MiB of 256 refused beside a 48 MiB heap (runtime %d bytes)", m.runtime.Load())
	}
	if p := m.peak.Load(); p < 150<<20+least {
		t.Errorf("peak %d bytes, without the heap", p)
	}
	runtime.KeepAlive(heap)
}
