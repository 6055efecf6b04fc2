package memory

import (
	"context"
	"fmt"
	"testing"
)

// TestSpaceReuse checks a space kept from one pass to the next: what the
// first pass gives back stays counted until the next pass reuses the
// space, every word the next pass takes is zero again, whether its
// tables take as much, less or more than the first pass's or none, and
// nothing is counted once the space is freed.
func TestSpaceReuse(t *testing.T) {
	const first = 4 * hugeWords // the tables the first pass starts with
	for _, next := range []int{first, first / 2, 2 * first, PageWords, 0} {
		t.Run(fmt.Sprintf("%d words then %d", first, next), func(t *testing.T) {
			mem := NewBudget(1 << 30)
			sp := NewSpace(mem, 2)
			sp.Ready(context.Background(), first)
			// The first pass: its tables, and one grown past the first
			// mapping into a second.
			var taken [][]uint64
			for range 4 {
				w, ok := sp.Alloc(first / 4)
				if !ok {
					t.Fatal("Alloc refused in the first mapping")
				}
				taken = append(taken, w)
			}
			grown, ok := sp.Alloc(2 * PageWords)
			if !ok {
				t.Fatal("Alloc refused past the first mapping")
			}
			taken = append(taken, grown)
			for _, w := range taken {
				for i := range w {
					w[i] = ^uint64(i)
				}
			}
			used := mem.Used()
			if want := int64(first+2*PageWords) * 8; used != want || sp.Counted() != want {
				t.Fatalf("Used %d, Counted %d after the first pass's tables, want %d", used, sp.Counted(), want)
			}
			sp.Keep()
			for _, w := range taken {
				sp.Give(w)
			}
			if got := mem.Used(); got != used {
				t.Errorf("Used %d once a kept space's tables are given back, want %d still", got, used)
			}
			sp.Ready(context.Background(), next)
			if got := mem.Used(); got != 0 {
				t.Errorf("Used %d once the space is reused, want 0", got)
			}
			if next > 0 {
				w, ok := sp.Alloc(next)
				if !ok {
					t.Fatalf("Alloc(%d) refused after Reuse", next)
				}
				for i, x := range w {
					if x != 0 {
						t.Fatalf("word %d of the reused space is %#x, not zero", i, x)
					}
				}
				more, ok := sp.Alloc(PageWords) // past the first tables: a table that grows
				if !ok {
					t.Fatal("Alloc refused past the reused tables")
				}
				for i, x := range more {
					if x != 0 {
						t.Fatalf("word %d past the reused tables is %#x, not zero", i, x)
					}
				}
				sp.Give(w)
				sp.Give(more)
			}
			if got := mem.Used(); got != 0 || sp.Counted() != 0 {
				t.Errorf("Used %d, Counted %d once the second pass gave its tables back, want 0", got, sp.Counted())
			}
			sp.Keep()
			if w, ok := sp.Alloc(PageWords); ok {
				sp.Give(w) // kept: still counted, till Free
			}
			sp.Free()
			if got := mem.Used(); got != 0 {
				t.Errorf("Used %d once the space is freed, want 0", got)
			}
		})
	}
}

// BenchmarkSpacePass makes the tables of a pass, 1 GiB, written all
// over, in a space new each pass and in one kept from the pass before and
// reused: what a pass waits for its tables before its first state, and
// after its last, where the kernel gives back and faults in again the
// pages of a new space (GB/s of tables made ready).
func BenchmarkSpacePass(b *testing.B) {
	const words = 1 << 30 / 8
	for _, way := range []string{"new", "reused"} {
		b.Run(way, func(b *testing.B) {
			mem := NewBudget(4 << 30)
			var sp *Space
			for b.Loop() {
				if sp == nil || way == "new" {
					sp = NewSpace(mem, 2)
				}
				sp.Ready(context.Background(), words)
				w, ok := sp.Alloc(words)
				if !ok {
					b.Fatal("Alloc refused")
				}
				for i := 0; i < words; i += PageWords {
					w[i] = 1 // the pass's states, a word a page
				}
				if way == "reused" {
					sp.Keep()
				}
				sp.Give(w)
				if way == "new" {
					sp.Free()
				}
			}
			if sp != nil {
				sp.Free()
			}
			b.ReportMetric(float64(b.N)*words*8/b.Elapsed().Seconds()/1e9, "GB/s")
		})
	}
}
