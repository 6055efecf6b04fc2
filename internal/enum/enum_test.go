package enum

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// seedOrder is the case study's move order.
var seedOrder = []Jump{{-2, 1}, {-1, 2}, {1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}}

// plain lists the tours from root by plain backtracking, without pruning.
func plain(g *Graph, root uint16) [][]uint16 {
	var out [][]uint16
	seen := make([]bool, g.n)
	path := []uint16{root}
	seen[root] = true
	var walk func()
	walk = func() {
		if len(path) == g.n {
			out = append(out, append([]uint16(nil), path...))
			return
		}
		for _, t := range g.Jumps(path[len(path)-1]) {
			if !seen[t] {
				seen[t] = true
				path = append(path, t)
				walk()
				path = path[:len(path)-1]
				seen[t] = false
			}
		}
	}
	walk()
	return out
}

// TestWalk checks that Walk gives plain backtracking's tours in its order,
// with both engines, on one and three workers, cut into tasks or not.
func TestWalk(t *testing.T) {
	for _, b := range []struct{ rows, cols int }{{3, 4}, {4, 3}, {3, 7}, {4, 5}, {5, 5}} {
		g := NewGraph(b.rows, b.cols, seedOrder)
		root := uint16((b.rows - 1) * b.cols)
		want := plain(g, root)
		for _, graph := range []*Graph{g, g.WideOnly()} {
			for _, workers := range []int{1, 3} {
				for _, depth := range []int{-1, 0, 2} {
					j := Job{Graph: graph, Root: []uint16{root}, Config: Config{SplitDepth: depth}}
					var got [][]uint16
					st, err := j.Walk(context.Background(), workers, func(p []uint16) bool {
						got = append(got, append([]uint16(nil), p...))
						return true
					})
					if err != nil {
						t.Fatal(err)
					}
					if diff := cmp.Diff(want, got); diff != "" || st.Tours != uint64(len(want)) {
						t.Errorf("%dx%d, wide %v, %d workers, depth %d: %d tours (-plain +walk):\n%s",
							b.rows, b.cols, graph.adj == nil, workers, depth, st.Tours, diff)
					}
					count, err := j.Walk(context.Background(), workers, nil)
					if err != nil || count.Tours != uint64(len(want)) {
						t.Errorf("%dx%d, wide %v, %d workers: counted %d, %v; want %d", b.rows, b.cols, graph.adj == nil, workers, count.Tours, err, len(want))
					}
				}
			}
		}
	}
}

// TestWideOnly checks that a graph without its bitboard tables is searched
// by the wide engine, which the tests above rely on.
func TestWideOnly(t *testing.T) {
	g := NewGraph(5, 5, seedOrder)
	if _, ok := newSearcher(g, new(atomic.Bool), nil).(*bitSearch); !ok {
		t.Errorf("5x5: not the bitboard search")
	}
	if _, ok := newSearcher(g.WideOnly(), new(atomic.Bool), nil).(*wideSearch); !ok {
		t.Errorf("5x5 wide only: not the wide search")
	}
}

// TestShards checks that the shards of a walk add up to the whole, and
// that a spent budget gives ErrGaveUp.
func TestShards(t *testing.T) {
	g := NewGraph(5, 5, seedOrder)
	whole, err := (&Job{Graph: g, Root: []uint16{20}, Config: Config{SplitDepth: -1}}).Walk(context.Background(), 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	var sum, nodes uint64
	for i := range 3 {
		st, err := (&Job{Graph: g, Root: []uint16{20}, Config: Config{SplitDepth: -1, Shard: i, Shards: 3}}).Walk(context.Background(), 2, nil)
		if err != nil {
			t.Fatal(err)
		}
		sum, nodes = sum+st.Tours, nodes+st.Nodes
	}
	if sum != whole.Tours || nodes != whole.Nodes || whole.Tours != 304 {
		t.Errorf("3 shards: %d tours, %d nodes; whole %d, %d (want 304 tours)", sum, nodes, whole.Tours, whole.Nodes)
	}
	_, err = (&Job{Graph: g, Root: []uint16{20}, Config: Config{SplitDepth: -1, Budget: 1000}}).Walk(context.Background(), 2, nil)
	if !errors.Is(err, ErrGaveUp) {
		t.Errorf("a budget of 1000 nodes: %v, want ErrGaveUp", err)
	}
}

// TestWarnsdorff checks that Warnsdorff's rule finds an open and a closed
// tour of 8x8 with at most a few backtracks, each square entered once more
// than it backtracks, and that each is a tour.
func TestWarnsdorff(t *testing.T) {
	g := NewGraph(8, 8, seedOrder)
	for _, ends := range [][]uint16{nil, g.Jumps(56)} {
		path, nodes, backtracks := Warnsdorff(g, []uint16{56}, ends, 1<<20, new(atomic.Bool))
		if len(path) != 64 || backtracks > 10 || nodes != 64+backtracks {
			t.Fatalf("ends %v: %d squares, %d nodes, %d backtracks", ends, len(path), nodes, backtracks)
		}
		seen := make(map[uint16]bool)
		for i, s := range path {
			if seen[s] || i > 0 && !jumpsTo(g, path[i-1], s) {
				t.Fatalf("ends %v: not a tour at move %d: %v", ends, i, path)
			}
			seen[s] = true
		}
		if ends != nil && !jumpsTo(g, path[63], 56) {
			t.Errorf("not closed: ends on %d", path[63])
		}
	}
}

func jumpsTo(g *Graph, a, b uint16) bool {
	for _, t := range g.Jumps(a) {
		if t == b {
			return true
		}
	}
	return false
}
