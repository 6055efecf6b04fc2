package memory

import "testing"

// TestAllocHuge checks that the memory allocHuge hands out is zeroed and
// writable at every size, below the huge-page size and above it.
func TestAllocHuge(t *testing.T) {
	for _, n := range []int{0, 1, PageWords + 1, hugeWords, 3*hugeWords + 5} {
		w, err := allocHuge(n)
		if err != nil {
			t.Fatalf("allocHuge(%d): %v", n, err)
		}
		if len(w) != n {
			t.Fatalf("allocHuge(%d) gave %d words", n, len(w))
		}
		for i, x := range w {
			if x != 0 {
				t.Fatalf("allocHuge(%d): word %d is %#x, not zero", n, i, x)
			}
			w[i] = uint64(i)
		}
		if err := FreeWords(w); err != nil {
			t.Fatalf("FreeWords after allocHuge(%d): %v", n, err)
		}
	}
}
