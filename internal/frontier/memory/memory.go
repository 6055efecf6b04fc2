// Package memory keeps a count within its memory limit: a Budget that
// accounts for the bytes its states, tables and buffers take, and words
// mapped from the kernel outside the Go heap, which a count frees the
// moment it is done with them.
package memory

import (
	"fmt"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"
)

// Budget accounts for the bytes that the states, tables and buffers of
// one count take, against a limit, so that the count can stop with an
// error before the machine runs out of memory.
type Budget struct {
	limit      int64
	used, peak atomic.Int64
	// lazy, once the count is being cancelled, sends the memory it frees
	// to a goroutine of its own (unmap).
	lazy    atomic.Bool
	mu      sync.Mutex
	later   [][]uint64 // memory waiting to be unmapped
	reaping bool       // a goroutine is unmapping later
	// spare holds slabs the arenas gave back while recycle is set, still
	// mapped and counted as used, for the arenas' next slabs (see Keep).
	recycle atomic.Bool
	spare   [][]uint64
	spared  atomic.Int64 // bytes in spare
	// reserve is a space that a step made in passes kept for the next
	// step's tables (Reserve), and reserved its bytes, not counted as
	// used: memory counted past the limit beside them unmaps it first.
	reserve  *Space
	reserved atomic.Int64
	// runtime is what the Go runtime holds beyond base, what it held when
	// the count began to add squares, and beyond runtimeSlack: its heap of
	// small things (lists of groups and bins, buffers) and the garbage the
	// collector has yet to take, which grow with the layers. On 8x10 from
	// the corner they came to 0.7 GB beside 17 GB of states, all of it
	// past the limit until it was counted. It is sampled whenever memory
	// is mapped (Watch).
	watching atomic.Bool
	base     int64
	runtime  atomic.Int64
	// collecting serialises collect; collected is runtime after the last
	// collection, below which another would not help.
	collecting sync.Mutex
	collected  int64
}

// NewBudget returns a budget that allows limit bytes.
func NewBudget(limit int64) *Budget { return &Budget{limit: limit} }

// Limit returns the bytes the budget allows.
func (m *Budget) Limit() int64 { return m.limit }

// Used returns the bytes recorded as used, without the Go runtime's share
// (see Held).
func (m *Budget) Used() int64 { return m.used.Load() }

// SetUsed records bytes as all that is used: for a count that starts
// again, keeping only what it keeps from one attempt to the next.
func (m *Budget) SetUsed(bytes int64) { m.used.Store(bytes) }

// Peak returns the most bytes held at once.
func (m *Budget) Peak() int64 { return m.peak.Load() }

// Spared returns the bytes of the spare slabs, counted as used, that Keep
// holds for Reuse.
func (m *Budget) Spared() int64 { return m.spared.Load() }

// StartRecycling makes Keep hold the slabs it takes as spare, for Reuse,
// until StopRecycling: while a step expands a layer, the slabs it gives
// back are the right size for the new one.
func (m *Budget) StartRecycling() { m.recycle.Store(true) }

// StopRecycling makes Keep give the slabs it takes back to the kernel. The
// spare slabs stay, for DropSpare or Reuse.
func (m *Budget) StopRecycling() { m.recycle.Store(false) }

// UnmapLater sends the memory freed from now on to a goroutine that
// unmaps it, so that a cancelled count returns without waiting for the
// kernel to take gigabytes back.
func (m *Budget) UnmapLater() { m.lazy.Store(true) }

// Watch makes the limit count, from now on, the memory the Go runtime
// comes to hold beyond what it holds now.
func (m *Budget) Watch() {
	m.base = runtimeHeld()
	m.runtime.Store(0)
	m.watching.Store(true)
}

// Within brings the Go runtime's share up to date and reports whether
// what the count holds is within the limit, after a collection if need
// be: for work whose buffers live on the Go heap, as the demand passes'
// do, which no Grab records.
func (m *Budget) Within() bool {
	m.SampleRuntime()
	if m.Held() > m.limit && (!m.Collect() || m.Held() > m.limit) {
		return false
	}
	m.reached(m.Held())
	return true
}

// SampleRuntime brings the Go runtime's share (see Held) up to date, once
// Watch was called.
func (m *Budget) SampleRuntime() {
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

// Collect collects the Go runtime's garbage and gives the free pages back
// to the kernel, where the runtime holds more than it did after the last
// collection, and reports whether that left less counted. Garbage is not
// the count's alone: in a process that did other work first, the collector
// may let the heap grow by hundreds of MiB before it runs, and a count
// under a small limit would stop for memory that a collection frees.
func (m *Budget) Collect() bool {
	if m.runtime.Load() == 0 {
		return false
	}
	m.collecting.Lock()
	defer m.collecting.Unlock()
	before := m.runtime.Load()
	m.SampleRuntime()
	if m.runtime.Load() < before { // another goroutine collected
		return true
	}
	if before <= m.collected {
		return false
	}
	debug.FreeOSMemory()
	m.SampleRuntime()
	m.collected = m.runtime.Load()
	return m.collected < before
}

// Held returns the bytes counted against the limit: those recorded as
// used, and those the Go runtime took since Watch.
func (m *Budget) Held() int64 { return m.used.Load() + m.runtime.Load() }

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
func (m *Budget) unmap(w []uint64) {
	if !m.lazy.Load() {
		if FreeWords(w) != nil {
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
func (m *Budget) discard(w []uint64) {
	if !m.lazy.Load() {
		discardWords(w)
	}
}

func (m *Budget) reap() {
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
			_ = FreeWords(w) // the count is over: nothing is left to limit
		}
	}
}

// Grab records bytes as used and reports whether the total is within the
// limit, after a collection and the spare slabs if need be. The bytes stay
// recorded either way: a caller refused releases them.
func (m *Budget) Grab(bytes int64) bool { return m.grabLeaving(bytes, 0) }

// grabLeaving is Grab that reports whether room bytes are left below the
// limit besides. The spare slabs go before it gives up.
func (m *Budget) grabLeaving(bytes, room int64) bool {
	u := m.used.Add(bytes)
	m.roomFor(u + room)
	over := func() bool { return u+m.runtime.Load()+room > m.limit }
	if over() && (!m.Collect() || over()) {
		if m.spared.Load() == 0 {
			return false // the caller releases them: the peak is what was held
		}
		m.DropSpare()
		if u = m.used.Load(); over() {
			return false
		}
	}
	m.reached(u + m.runtime.Load())
	return true
}

// reached records u bytes held as the peak if it is one.
func (m *Budget) reached(u int64) {
	for {
		p := m.peak.Load()
		if u <= p || m.peak.CompareAndSwap(p, u) {
			return
		}
	}
}

// Release records bytes as no longer used.
func (m *Budget) Release(bytes int64) { m.used.Add(-bytes) }

// Hold records bytes as used even past the limit, for memory the count
// cannot go without; what comes after has the less room.
func (m *Budget) Hold(bytes int64) {
	u := m.used.Add(bytes)
	m.roomFor(u)
	m.reached(u + m.runtime.Load())
}

// Reserve takes a space that a step made in passes kept (Space.Keep),
// for the tables of the next step's first pass (TakeReserve): still
// mapped, but no longer counted as used, so that the next step plans its
// passes with the whole limit. Should memory the count needs before then
// pass the limit beside it, the space is unmapped first (roomFor). A
// space the budget held already is unmapped.
func (m *Budget) Reserve(sp *Space) {
	bytes := sp.counted.Swap(0)
	m.Release(bytes)
	m.mu.Lock()
	old := m.reserve
	m.reserve = sp
	m.reserved.Store(bytes)
	m.mu.Unlock()
	if old != nil {
		old.Free()
	}
}

// TakeReserve returns the space Reserve holds, or nil.
func (m *Budget) TakeReserve() *Space {
	m.mu.Lock()
	defer m.mu.Unlock()
	sp := m.reserve
	m.reserve = nil
	m.reserved.Store(0)
	return sp
}

// DropReserve unmaps the space Reserve holds, if any.
func (m *Budget) DropReserve() {
	if sp := m.TakeReserve(); sp != nil {
		sp.Free()
	}
}

// roomFor unmaps the space Reserve holds if u bytes counted would pass
// the limit beside it.
func (m *Budget) roomFor(u int64) {
	if r := m.reserved.Load(); r > 0 && u+m.runtime.Load()+r > m.limit {
		m.DropReserve()
	}
}

// Keep takes the words of an empty slab (counted as used): into spare
// while recycling, otherwise back to the kernel.
func (m *Budget) Keep(w []uint64) {
	if m.recycle.Load() && !m.lazy.Load() {
		m.mu.Lock()
		m.spare = append(m.spare, w)
		m.mu.Unlock()
		m.spared.Add(int64(cap(w)) * 8)
		return
	}
	m.Release(int64(cap(w)) * 8)
	m.unmap(w)
}

// Reuse returns a spare slab of at least n words, not zeroed, or nil if
// there is none.
func (m *Budget) Reuse(n int) []uint64 {
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

// DropSpare gives every spare slab back to the kernel.
func (m *Budget) DropSpare() {
	m.mu.Lock()
	spare := m.spare
	m.spare = nil
	m.mu.Unlock()
	for _, w := range spare {
		m.spared.Add(-int64(cap(w)) * 8)
		m.Release(int64(cap(w)) * 8)
		m.unmap(w)
	}
}

// Alloc returns n zeroed words counted as used; false, with nothing
// allocated or counted, if they would pass the limit. It gives up the
// spare slabs before it gives up.
func (m *Budget) Alloc(n int) ([]uint64, bool) { return m.AllocLeaving(n, 0) }

// AllocLeaving is Alloc for words that must leave room bytes below the
// limit, for what will be allocated past it once they are filled (the
// bins of a buffered pass leave room for its merge buffers).
func (m *Budget) AllocLeaving(n int, room int64) ([]uint64, bool) {
	m.SampleRuntime()
	if !m.grabLeaving(int64(n)*8, room) {
		m.Release(int64(n) * 8)
		return nil, false
	}
	w, err := AllocWords(n)
	if err != nil {
		m.Release(int64(n) * 8)
		return nil, false
	}
	return w, true
}

// AllocPast returns n zeroed words counted as used even past the limit:
// for memory a pass cannot finish without once its states are made. What
// comes after has the less room.
func (m *Budget) AllocPast(n int) ([]uint64, error) {
	m.roomFor(m.used.Load() + int64(n)*8)
	w, err := AllocWords(n)
	if err != nil {
		return nil, fmt.Errorf("frontier: mapping %d bytes: %w", n*8, err)
	}
	m.SampleRuntime()
	u := m.used.Add(int64(n) * 8)
	if u+m.runtime.Load() > m.limit {
		m.Collect()
	}
	m.reached(u + m.runtime.Load())
	return w, nil
}

// Free returns words from Alloc, AllocLeaving or AllocPast to the kernel and the limit.
func (m *Budget) Free(w []uint64) {
	if cap(w) == 0 {
		return
	}
	m.unmap(w)
	m.Release(int64(cap(w)) * 8)
}
