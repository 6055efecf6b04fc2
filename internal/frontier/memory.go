package frontier

import (
	"fmt"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"
)

// The memory accountant: what the states, tables and buffers of a count
// take, against its limit.

// memory accounts for the bytes of the states, tables and buffers of one
// count, so that it can stop with ErrMemoryLimit before the machine runs
// out.
type memory struct {
	limit      int64
	used, peak atomic.Int64
	// lazy, once the count is being cancelled, sends the memory it frees
	// to a goroutine of its own (unmap).
	lazy    atomic.Bool
	mu      sync.Mutex
	later   [][]uint64 // memory waiting to be unmapped
	reaping bool       // a goroutine is unmapping later
	// spare holds slabs the arenas gave back while recycle is set, still
	// mapped and counted as used, for the arenas' next slabs (see keep).
	recycle atomic.Bool
	spare   [][]uint64
	spared  atomic.Int64 // bytes in spare
	// runtime is what the Go runtime holds beyond base, what it held when
	// the count began to add squares, and beyond runtimeSlack: its heap of
	// small things (lists of groups and bins, buffers) and the garbage the
	// collector has yet to take, which grow with the layers. On 8x10 from
	// the corner they came to 0.7 GB beside 17 GB of states, all of it
	// past the limit until it was counted. It is sampled whenever memory
	// is mapped (watch).
	watching atomic.Bool
	base     int64
	runtime  atomic.Int64
	// collecting serialises collect; collected is runtime after the last
	// collection, below which another would not help.
	collecting sync.Mutex
	collected  int64
}

// watch makes the limit count, from now on, the memory the Go runtime
// comes to hold beyond what it holds now.
func (m *memory) watch() {
	m.base = runtimeHeld()
	m.runtime.Store(0)
	m.watching.Store(true)
}

// within brings the Go runtime's share up to date and reports whether
// what the count holds is within the limit, after a collection if need
// be: for work whose buffers live on the Go heap, as the demand passes'
// do, which no grab records.
func (m *memory) within() bool {
	m.sampleRuntime()
	if m.held() > m.limit && (!m.collect() || m.held() > m.limit) {
		return false
	}
	m.reached(m.held())
	return true
}

// sampleRuntime brings runtime up to date, once watch was called.
func (m *memory) sampleRuntime() {
	if m.watching.Load() {
		m.runtime.Store(max(0, runtimeHeld()-m.base-runtimeSlack))
	}
}

// runtimeSlack is what the Go runtime may take during a count before the
// limit counts it: a small count's heap and garbage (the collector lets
// the heap reach 4 MiB before it starts), which would otherwise fail the
// limits of a few MiB that tests use. A process holds this, the program
// and its heap before the count besides the limit.
const runtimeSlack = 16 << 20

// collect, when the Go runtime holds more than it did after the last
// collection, collects its garbage and gives the free pages back to the
// kernel, and reports whether that left less counted. Garbage is not the
// count's alone: in a process that did other work first, the collector
// may let the heap grow by hundreds of MiB before it runs, and a count
// under a small limit would stop for memory that a collection frees.
func (m *memory) collect() bool {
	if m.runtime.Load() == 0 {
		return false
	}
	m.collecting.Lock()
	defer m.collecting.Unlock()
	before := m.runtime.Load()
	m.sampleRuntime()
	if m.runtime.Load() < before { // another goroutine collected
		return true
	}
	if before <= m.collected {
		return false
	}
	debug.FreeOSMemory()
	m.sampleRuntime()
	m.collected = m.runtime.Load()
	return m.collected < before
}

// held returns the bytes counted against the limit: those recorded as
// used, and those the Go runtime took since watch.
func (m *memory) held() int64 { return m.used.Load() + m.runtime.Load() }

// runtimeHeld returns the bytes the Go runtime holds from the kernel (its
// heap, free parts included until it gives them back, its stacks and its
// own records), and those its heap will take before the collector next
// runs: the collector lets the heap grow to a goal, twice what was live
// after the last collection, and a count's heap of small things comes to
// hundreds of MiB on 8 rows. Reading them does not stop the program,
// unlike runtime.ReadMemStats.
func runtimeHeld() int64 {
	s := []metrics.Sample{
		{Name: "/memory/classes/total:bytes"},
		{Name: "/memory/classes/heap/released:bytes"},
		{Name: "/gc/heap/goal:bytes"},
		{Name: "/memory/classes/heap/objects:bytes"},
		{Name: "/memory/classes/heap/unused:bytes"},
	}
	metrics.Read(s)
	v := func(i int) int64 { return int64(s[i].Value.Uint64()) }
	return v(0) - v(1) + max(0, v(2)-v(3)-v(4))
}

// unmap returns mapped words to the kernel. Freeing gigabytes of pages
// takes the kernel the better part of a second, which a cancelled count
// should not wait for: once lazy is set, the words go to a goroutine that
// unmaps them after the count has returned, and ends when none are left.
func (m *memory) unmap(w []uint64) {
	if !m.lazy.Load() {
		if freeWords(w) != nil {
			m.used.Add(int64(cap(w)) * 8) // still held: the limit must know
		}
		return
	}
	m.mu.Lock()
	m.later = append(m.later, w)
	start := !m.reaping
	m.reaping = true
	m.mu.Unlock()
	if start {
		go m.reap()
	}
}

// discard gives back the pages of w, part of a larger mapping that stays
// (see discardWords); the count unmaps the whole later.
func (m *memory) discard(w []uint64) {
	if !m.lazy.Load() {
		discardWords(w)
	}
}

func (m *memory) reap() {
	for {
		m.mu.Lock()
		ws := m.later
		m.later = nil
		if len(ws) == 0 {
			m.reaping = false
			m.mu.Unlock()
			return
		}
		m.mu.Unlock()
		for _, w := range ws {
			_ = freeWords(w) // the count is over: nothing is left to limit
		}
	}
}

// grab records bytes as used and reports whether the total is within the
// limit.
func (m *memory) grab(bytes int64) bool { return m.grabLeaving(bytes, 0) }

// grabLeaving is grab that reports whether room bytes are left below the
// limit besides. The spare slabs go before it gives up.
func (m *memory) grabLeaving(bytes, room int64) bool {
	u := m.used.Add(bytes)
	over := func() bool { return u+m.runtime.Load()+room > m.limit }
	if over() && (!m.collect() || over()) {
		if m.spared.Load() == 0 {
			return false // the caller releases them: the peak is what was held
		}
		m.dropSpare()
		if u = m.used.Load(); over() {
			return false
		}
	}
	m.reached(u + m.runtime.Load())
	return true
}

// reached records u bytes held as the peak if it is one.
func (m *memory) reached(u int64) {
	for {
		p := m.peak.Load()
		if u <= p || m.peak.CompareAndSwap(p, u) {
			return
		}
	}
}

func (m *memory) release(bytes int64) { m.used.Add(-bytes) }

// hold records bytes as used even past the limit, for memory the count
// cannot go without; what comes after has the less room.
func (m *memory) hold(bytes int64) { m.reached(m.used.Add(bytes) + m.runtime.Load()) }

// keep takes the words of an empty slab (counted as used): into spare
// while recycling, otherwise back to the kernel.
func (m *memory) keep(w []uint64) {
	if m.recycle.Load() && !m.lazy.Load() {
		m.mu.Lock()
		m.spare = append(m.spare, w)
		m.mu.Unlock()
		m.spared.Add(int64(cap(w)) * 8)
		return
	}
	m.release(int64(cap(w)) * 8)
	m.unmap(w)
}

// reuse returns a spare slab of at least n words, not zeroed, or nil if
// there is none.
func (m *memory) reuse(n int) []uint64 {
	if m.spared.Load() == 0 {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for i, w := range m.spare {
		if cap(w) >= n {
			last := len(m.spare) - 1
			m.spare[i], m.spare[last] = m.spare[last], nil
			m.spare = m.spare[:last]
			m.spared.Add(-int64(cap(w)) * 8)
			return w
		}
	}
	return nil
}

// dropSpare gives every spare slab back to the kernel.
func (m *memory) dropSpare() {
	m.mu.Lock()
	spare := m.spare
	m.spare = nil
	m.mu.Unlock()
	for _, w := range spare {
		m.spared.Add(-int64(cap(w)) * 8)
		m.release(int64(cap(w)) * 8)
		m.unmap(w)
	}
}

// alloc returns n zeroed words counted as used; false, with nothing
// allocated or counted, if they would pass the limit. It gives up the
// spare slabs before it gives up.
func (m *memory) alloc(n int) ([]uint64, bool) { return m.allocLeaving(n, 0) }

// allocLeaving is alloc for words that must leave room bytes below the
// limit, for what will be allocated past it once they are filled (the
// bins of a buffered pass leave room for its merge buffers).
func (m *memory) allocLeaving(n int, room int64) ([]uint64, bool) {
	m.sampleRuntime()
	if !m.grabLeaving(int64(n)*8, room) {
		m.release(int64(n) * 8)
		return nil, false
	}
	w, err := allocWords(n)
	if err != nil {
		m.release(int64(n) * 8)
		return nil, false
	}
	return w, true
}

// allocPast returns n zeroed words counted as used even past the limit:
// for memory a pass cannot finish without once its states are made. What
// comes after has the less room.
func (m *memory) allocPast(n int) ([]uint64, error) {
	w, err := allocWords(n)
	if err != nil {
		return nil, fmt.Errorf("frontier: mapping %d bytes: %w", n*8, err)
	}
	m.sampleRuntime()
	u := m.used.Add(int64(n) * 8)
	if u+m.runtime.Load() > m.limit {
		m.collect()
	}
	m.reached(u + m.runtime.Load())
	return w, nil
}

// free returns words from alloc or allocPast to the kernel and the limit.
func (m *memory) free(w []uint64) {
	if cap(w) == 0 {
		return
	}
	m.unmap(w)
	m.release(int64(cap(w)) * 8)
}
