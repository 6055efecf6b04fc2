package memory

import (
	"context"
	"fmt"
	"testing"
)

// TestSpaceReuse checks a space kept from one pass to the next: what a
// pass gives back stays counted until the next pass makes the space
// ready, every word the next pass takes is zero again, whether its
// tables take as much as the pass before, less, more, or none, and
// whether words given back to the kernel read as zeros or not (Linux and
// the rest), and nothing is counted once the space is freed.
func TestSpaceReuse(t *testing.T) {
	const first = 4 * hugeWords // the tables the first pass starts with
	for _, passes := range [][]int{
		{first, first},
		{first, first / 2, first},
		{first, 2 * first, first},
		{first, PageWords, first / 2, first},
		{first, 0, first},
	} {
		for _, zeroes := range []bool{discardZeroes, false} {
			t.Run(fmt.Sprintf("%v, given back as zeros %v", passes, zeroes), func(t *testing.T) {
				mem := NewBudget(1 << 30)
				sp := NewSpace(mem, 2)
				sp.zeroes = zeroes
				for p, words := range passes {
					sp.Ready(context.Background(), words)
					if got := mem.Used(); got != 0 {
						t.Fatalf("pass %d: Used %d once the space is ready, want 0", p, got)
					}
					// The pass's tables, then one that grows past them.
					var taken [][]uint64
					for _, n := range []int{words / 2, words - words/2, 2 * PageWords} {
						w, ok := sp.Alloc(n)
						if !ok {
							t.Fatalf("pass %d: Alloc(%d) refused", p, n)
						}
						for i, x := range w {
							if x != 0 {
								t.Fatalf("pass %d: word %d of %d is %#x, not zero", p, i, n, x)
							}
							w[i] = ^uint64(i)
						}
						taken = append(taken, w)
					}
					used := mem.Used()
					if want := int64(words+2*PageWords) * 8; used != want || sp.Counted() != want {
						t.Fatalf("pass %d: Used %d, Counted %d after its tables, want %d", p, used, sp.Counted(), want)
					}
					sp.Keep()
					for _, w := range taken {
						sp.Give(w)
					}
					if got := mem.Used(); got != used {
						t.Errorf("pass %d: Used %d once a kept space's tables are given back, want %d still", p, got, used)
					}
				}
				sp.Free()
				if got := mem.Used(); got != 0 {
					t.Errorf("Used %d once the space is freed, want 0", got)
				}
			})
		}
	}
}

// BenchmarkSpacePass makes the tables of a pass, 1 GiB, a word of each
// page written, in a space new each pass and in one kept from the pass before and
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

// TestReserve checks the space a step hands to the next (Budget.Reserve):
// no longer counted, it stays for TakeReserve while what the count holds
// leaves room for it beside the limit, and is unmapped as soon as memory
// counted would pass the limit beside it.
func TestReserve(t *testing.T) {
	const words = 4 * hugeWords // 16 MiB
	for _, tt := range []struct {
		name  string
		grab  int64 // bytes counted after Reserve
		stays bool
	}{
		{"room beside it", 8 << 20, true},
		{"no room beside it", 20 << 20, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			mem := NewBudget(32 << 20)
			sp := NewSpace(mem, 2)
			sp.Ready(context.Background(), words)
			w, ok := sp.Alloc(words)
			if !ok {
				t.Fatal("Alloc refused")
			}
			sp.Keep()
			sp.Give(w)
			mem.Reserve(sp)
			if got := mem.Used(); got != 0 {
				t.Errorf("Used %d once the space is reserved, want 0", got)
			}
			if !mem.Grab(tt.grab) {
				t.Fatalf("Grab(%d) refused under a limit of %d", tt.grab, mem.Limit())
			}
			got := mem.TakeReserve()
			if stays := got != nil; stays != tt.stays {
				t.Errorf("reserve kept %v after %d bytes counted, want %v", stays, tt.grab, tt.stays)
			}
			if got != nil {
				got.Ready(context.Background(), words)
				w, _ := got.Alloc(PageWords)
				if w[0] != 0 {
					t.Error("the reserved space's first word is not zero once ready")
				}
				got.Free()
			}
			mem.Release(tt.grab)
			if u := mem.Used(); u != 0 {
				t.Errorf("Used %d at the end, want 0", u)
			}
		})
	}
}
