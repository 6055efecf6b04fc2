package knightstour

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// closedOnly keeps the tours of a listing that are closed.
func closedOnly(t *testing.T, rows, cols int, listing []string) []string {
	var out []string
	for _, line := range listing {
		var path []Coordinate
		for _, f := range splitSquares(line) {
			c, err := ParseCoordinate(f, rows, cols)
			if err != nil {
				t.Fatal(err)
			}
			path = append(path, c)
		}
		if closed, err := validate(rows, cols, path); err != nil {
			t.Fatal(err)
		} else if closed {
			out = append(out, line)
		}
	}
	return out
}

func splitSquares(line string) []string {
	var out []string
	for start := 0; start < len(line); {
		end := start
		for line[end] != '}' {
			end++
		}
		out = append(out, line[start:end+1])
		start = end + 2
	}
	return out
}

// TestClosedAgainstReference lists closed tours from every square of the
// small boards and compares them, in order, with the unpruned search's
// tours that happen to be closed, for both engines.
func TestClosedAgainstReference(t *testing.T) {
	for _, b := range [][2]int{{3, 4}, {4, 3}, {2, 3}, {3, 6}, {4, 4}, {4, 5}, {5, 4}, {3, 8}, {6, 3}} {
		for r := range b[0] {
			for c := range b[1] {
				start := Coordinate{r, c}
				want := closedOnly(t, b[0], b[1], referenceTours(b[0], b[1], start, SeedOrder()))
				s := withoutProbe(mustSolver(t, b[0], b[1], WithStart(start), WithClosed(), WithWorkers(2)))
				for _, wide := range []bool{false, true} {
					if wide {
						s.job.Graph = s.job.Graph.WideOnly()
					}
					got, err := s.FindMovesParallel(context.Background())
					if err != nil {
						t.Fatal(err)
					}
					if diff := cmp.Diff(want, tourStrings(got)); diff != "" {
						t.Errorf("%dx%d from %v, wide %v (-want +got):\n%s", b[0], b[1], start, wide, diff)
					}
				}
			}
		}
	}
}

// TestClosedCounts checks closed counts, with and without seed 004's
// reduction, on one and two workers and on the mirror board, against the
// open tours that end next to their start.
func TestClosedCounts(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	boards := []struct {
		rows, cols int
		starts     []Coordinate
	}{
		{3, 4, []Coordinate{{2, 0}, {1, 1}}},
		{3, 10, []Coordinate{{2, 0}, {0, 1}, {1, 4}}},
		{4, 5, []Coordinate{{3, 0}, {1, 2}}},
		{4, 6, []Coordinate{{3, 0}, {0, 2}}},
		{5, 6, []Coordinate{{4, 0}, {2, 3}}},
		{4, 8, []Coordinate{{3, 0}}},
		{6, 6, []Coordinate{{5, 0}, {2, 2}}},
	}
	for _, b := range boards {
		for _, start := range b.starts {
			if (testing.Short() || !exhaustive) && b.rows*b.cols >= 36 && start != (Coordinate{b.rows - 1, 0}) {
				continue
			}
			t.Run(fmt.Sprintf("%dx%d from %v", b.rows, b.cols, start), func(t *testing.T) {
				var want uint64
				for tour, err := range mustSolver(t, b.rows, b.cols, WithStart(start)).All(ctx) {
					if err != nil {
						t.Fatal(err)
					}
					if tour.closed() {
						want++
					}
				}
				for _, reduce := range []bool{true, false} {
					for _, workers := range []int{1, 2} {
						for _, s := range bothWays(t, b.rows, b.cols, WithStart(start), WithClosed(), withReduction(reduce), WithWorkers(workers)) {
							st, err := s.Count(ctx)
							if err != nil || st.Tours.Uint64() != want {
								t.Errorf("reduce %v, %d workers: Count = %d, %v; want %d", reduce, workers, st.Tours, err, want)
							}
						}
					}
				}
				mirror, err := mustSolver(t, b.cols, b.rows, WithStart(Coordinate{start.Col, start.Row}), WithClosed()).Count(ctx)
				if err != nil || mirror.Tours.Uint64() != want {
					t.Errorf("mirror: Count = %d, %v; want %d", mirror.Tours, err, want)
				}
			})
		}
	}
}

// TestClosedOdd checks that boards with an odd number of squares answer at
// once, without searching.
func TestClosedOdd(t *testing.T) {
	for _, b := range [][2]int{{1, 1}, {5, 5}, {7, 7}, {9, 9}, {3, 7}} {
		st, err := mustSolver(t, b[0], b[1], WithClosed()).Count(context.Background())
		if err != nil || st.Tours.Uint64() != 0 || st.Work.Nodes != 0 {
			t.Errorf("%dx%d closed: %+v, %v; want no tours and no search", b[0], b[1], st, err)
		}
		if _, err := mustSolver(t, b[0], b[1], WithClosed()).First(context.Background()); err == nil {
			t.Errorf("%dx%d closed: First found a tour", b[0], b[1])
		}
	}
}

func TestClosedFirst(t *testing.T) {
	tour, err := mustSolver(t, 6, 6, WithClosed(), WithWorkers(2)).First(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	closed, err := validate(6, 6, tour.coordinates())
	if err != nil || !closed {
		t.Errorf("First closed tour %v: closed %v, %v", tour, closed, err)
	}
}
