package frontier

import (
	"context"
	"math/rand/v2"
	"testing"
)

// TestMappedFilter checks that a filter large enough to be mapped from
// the kernel, off the Go heap, is, holds every key it was made from, and
// gives its memory back with its viability.
func TestMappedFilter(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	keys := make([]uint64, 1<<18)
	for i := range keys {
		keys[i] = rng.Uint64()
	}
	fl := newFilter(keys, 0xff)
	if !fl.mapped || len(fl.words) < mappedFilterWords {
		t.Fatalf("a filter of %d words, mapped %v; want one of at least %d, mapped", len(fl.words), fl.mapped, mappedFilterWords)
	}
	for _, k := range keys {
		if !fl.has(k) {
			t.Fatalf("the filter lost key %#x", k)
		}
	}
	small := newFilter(keys[:10], 0xff)
	if small.mapped {
		t.Error("a filter of a few words was mapped")
	}
	vb := &viability{after: []*filter{fl, small, nil}}
	vb.free()
	for i, f := range vb.after {
		if f != nil {
			t.Errorf("filter %d kept after free", i)
		}
	}
}

// BenchmarkViability runs the demand passes of 7x8 from the corner, which
// precede its count; -benchmem shows the Go heap they allocate, most of it
// garbage the collector lets grow beside the lists it keeps.
func BenchmarkViability(b *testing.B) {
	cfg := Config{Rows: 7, Cols: 8, Mode: FromStart, Workers: 2, MemoryLimit: 1 << 30}
	f := mustBoard(b, cfg)
	b.ReportAllocs()
	for b.Loop() {
		r := &counter{cfg: cfg, f: f, mem: &memory{limit: cfg.MemoryLimit}}
		vb, err := r.viability(context.Background(), r.f.packDemand(0, 0, r.firstZ()))
		if err != nil {
			b.Fatal(err)
		}
		vb.free()
	}
}
