package construct

import (
	"context"
	"fmt"
	"math"
)

// trace follows the links from start and returns the squares in order:
// all of them around a cycle, or up to the end of a path.
func trace(ctx context.Context, rows, cols int, next []uint32, start Square) ([]uint32, error) {
	n := rows * cols
	tour, err := makeWords(ctx, n)
	if err != nil {
		return nil, err
	}
	s := uint32(start.Row*cols + start.Col)
	for i := range n {
		if s == noLink {
			return nil, fmt.Errorf("construct: internal error: the path ends after %d of %d squares", i, n)
		}
		tour[i] = s
		s = next[s]
		// Each step is a load from a table far larger than the caches:
		// 2^16 of them take a few milliseconds.
		if i%(1<<16) == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
	}
	return tour, nil
}

// makeWords returns n zeroed words, or ctx's error as soon as ctx is done.
// The heap zeroes a large slice it reuses before handing it out, a few
// hundred milliseconds for the 1.6 GB of a 20000x20000 board, and no
// cancel can stop it: so a large slice is made on another goroutine, whose
// work is dropped if ctx is done first (it ends as soon as the slice is
// made).
func makeWords(ctx context.Context, n int) ([]uint32, error) {
	if n < 1<<22 {
		return make([]uint32, n), nil
	}
	made := make(chan []uint32, 1)
	go func() { made <- make([]uint32, n) }()
	select {
	case w := <-made:
		return w, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// noLink marks the end of a path in a table of links.
const noLink = math.MaxUint32

// check reports an error unless tour is a knight's tour of rows x cols,
// closed if closed says so: the construction checks its strips' tours,
// whose search it cannot prove as it can the joins of blocks.
func check(rows, cols int, tour []uint32, closed bool) error {
	n := rows * cols
	if len(tour) != n {
		return fmt.Errorf("%d squares of %d", len(tour), n)
	}
	seen := make([]bool, n)
	for i, s := range tour {
		if int(s) >= n || seen[s] {
			return fmt.Errorf("square %d at move %d: off the board or seen before", s, i+1)
		}
		seen[s] = true
		if i > 0 && !jump(int(tour[i-1]), int(s), cols) {
			return fmt.Errorf("move %d is no knight's jump", i+1)
		}
	}
	if closed && !jump(int(tour[n-1]), int(tour[0]), cols) {
		return fmt.Errorf("the tour is open")
	}
	return nil
}

// jump reports whether squares a and b (row*cols+col) are a knight's jump
// apart.
func jump(a, b, cols int) bool {
	dr, dc := abs(b/cols-a/cols), abs(b%cols-a%cols)
	return dr == 1 && dc == 2 || dr == 2 && dc == 1
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
