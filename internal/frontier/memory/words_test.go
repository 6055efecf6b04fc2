package memory

import (
	"context"
	"fmt"
	"testing"
)

// TestAllocHuge checks that the memory allocHuge hands out is zeroed and
// writable at every size, below the huge-page size and above it, whether
// it was faulted in whole or a count was stopped before (ctx done).
func TestAllocHuge(t *testing.T) {
	stopped, stop := context.WithCancel(context.Background())
	stop()
	for _, ctx := range []context.Context{context.Background(), stopped} {
		for _, n := range []int{0, 1, PageWords + 1, hugeWords, 3*hugeWords + 5, 2*spaceChunk + hugeWords} {
			t.Run(fmt.Sprintf("%d words, stopped %v", n, ctx.Err() != nil), func(t *testing.T) {
				w, err := allocHuge(ctx, n, 2)
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
			})
		}
	}
}
