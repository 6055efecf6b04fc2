package frontier

import "testing"

// TestBinPoolPastTheLimit checks that the bins a pool hands out past the
// memory limit, from the Go heap, are not taken back: a step made in
// passes drops a pass that passed the limit and puts its bins back, and
// the passes that follow must hold only bins the limit counts.
func TestBinPoolPastTheLimit(t *testing.T) {
	mem := &memory{limit: 4 << 20}
	p := newBinPool(1, mem)
	defer p.release()
	var bins [][]uint64
	counted := 0
	for range 1000 {
		b, ok := p.get()
		bins = append(bins, b)
		if ok {
			counted++
		}
	}
	if counted == 0 || counted == len(bins) {
		t.Fatalf("%d of %d bins within a limit of %d bytes, want some and not all", counted, len(bins), mem.limit)
	}
	p.put(bins)
	if got := len(p.free); got != counted {
		t.Errorf("the pool took back %d bins, want the %d it counted", got, counted)
	}
	if used := mem.used.Load(); used > mem.limit {
		t.Errorf("%d bytes used, over the limit %d", used, mem.limit)
	}
}
