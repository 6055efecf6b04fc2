package knightstour

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
)

// TestCensusPublished reproduces published totals (OEIS A165134, A001230,
// A169696, A079137, A070030), on the board and its mirror, on one and two workers.
func TestCensusPublished(t *testing.T) {
	t.Parallel()
	tests := []struct {
		rows, cols           int
		closed               bool
		directed, undirected uint64
	}{
		{5, 5, false, 1728, 864},
		{6, 6, false, 6637920, 3318960},
		{6, 6, true, 710064, 9862},
		{3, 8, false, 792, 396},
		{4, 5, false, 164, 82},
		{3, 4, false, 16, 8},
		{3, 10, true, 960, 16}, // A070030: closed tours on 3 x 2n boards, 0 0 0 0 16 176 ...
		{3, 12, true, 12672, 176},
	}
	for _, tt := range tests {
		boards := [][2]int{{tt.rows, tt.cols}, {tt.cols, tt.rows}}
		if tt.rows == tt.cols {
			boards = boards[:1] // its own transpose
		}
		for _, b := range boards {
			for _, workers := range []int{1, 2} {
				if (testing.Short() || !exhaustive) && tt.directed > 1e6 && workers == 1 {
					continue
				}
				name := fmt.Sprintf("%dx%d closed=%v workers=%d", b[0], b[1], tt.closed, workers)
				opts := []CensusOption{WithWorkers(workers)}
				if tt.closed {
					opts = append(opts, WithClosed())
				}
				var c *Census
				if workers == 2 {
					c = sharedCensus(t, b[0], b[1], tt.closed)
				} else {
					var err error
					if c, err = RunCensus(context.Background(), b[0], b[1], opts...); err != nil {
						t.Fatalf("%s: %v", name, err)
					}
				}
				if c.Directed.Uint64() != tt.directed || c.Undirected.Uint64() != tt.undirected {
					t.Errorf("%s: %d directed, %d undirected; want %d, %d", name, c.Directed.Uint64(), c.Undirected.Uint64(), tt.directed, tt.undirected)
				}
				if tt.closed {
					for r := range b[0] {
						for k := range b[1] {
							if c.At(Coordinate{r, k}).Cmp(c.At(Coordinate{0, 0})) != 0 {
								t.Errorf("%s: closed counts differ between squares: %v", name, c)
							}
						}
					}
				}
			}
		}
	}
}

// censuses holds the censuses on two workers that more than one test
// takes (6x6 open is half a second), keyed by board and kind.
var censuses sync.Map

// sharedCensus returns the census of an R x C board, closed or open, on
// two workers, made once for all the tests that ask.
func sharedCensus(t *testing.T, rows, cols int, closed bool) *Census {
	t.Helper()
	key := fmt.Sprint(rows, cols, closed)
	if c, ok := censuses.Load(key); ok {
		return c.(*Census)
	}
	opts := []CensusOption{WithWorkers(2)}
	if closed {
		opts = append(opts, WithClosed())
	}
	c, err := RunCensus(context.Background(), rows, cols, opts...)
	if err != nil {
		t.Fatalf("census of %dx%d, closed %v: %v", rows, cols, closed, err)
	}
	censuses.Store(key, c)
	return c
}

// TestCensusAgainstSolver checks every square's count against a solver
// started there: the symmetry classes must not lose or invent a square.
func TestCensusAgainstSolver(t *testing.T) {
	for _, b := range [][2]int{{5, 5}, {4, 6}, {3, 7}, {5, 6}} {
		c, err := RunCensus(context.Background(), b[0], b[1])
		if err != nil {
			t.Fatal(err)
		}
		for r := range b[0] {
			for k := range b[1] {
				st, err := mustSolver(t, b[0], b[1], WithStart(Coordinate{r, k})).Count(context.Background())
				if err != nil || st.Tours.Cmp(c.At(Coordinate{r, k})) != 0 {
					t.Errorf("%dx%d from {%d,%d}: census %d, solver %d, %v", b[0], b[1], r, k, c.At(Coordinate{r, k}), st.Tours, err)
				}
			}
		}
	}
}

func TestCensusString(t *testing.T) {
	c, err := RunCensus(context.Background(), 5, 5)
	if err != nil {
		t.Fatal(err)
	}
	want := "" +
		"304   0  56   0 304\n" +
		"  0  56   0  56   0\n" +
		" 56   0  64   0  56\n" +
		"  0  56   0  56   0\n" +
		"304   0  56   0 304\n" +
		"5x5 open tours: 1728 directed, 864 undirected\n"
	if got := c.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestSymmetries checks that each symmetry maps the board onto itself (a
// bijection) and knight jumps onto knight jumps.
func TestSymmetries(t *testing.T) {
	for _, b := range [][2]int{{5, 5}, {3, 4}, {4, 7}} {
		syms := symmetries(b[0], b[1])
		if want := map[bool]int{true: 8, false: 4}[b[0] == b[1]]; len(syms) != want {
			t.Errorf("%dx%d: %d symmetries, want %d", b[0], b[1], len(syms), want)
		}
		for _, s := range syms {
			seen := map[Coordinate]bool{}
			for r := range b[0] {
				for k := range b[1] {
					c := Coordinate{r, k}
					img := s.apply(c, b[0], b[1])
					if !img.contains(b[0], b[1]) || seen[img] {
						t.Errorf("%dx%d %v: %v maps to %v, off the board or twice", b[0], b[1], s, c, img)
					}
					seen[img] = true
					for _, m := range SeedOrder() {
						d := Coordinate{c.Row + m.DRow, c.Col + m.DCol}
						if !d.contains(b[0], b[1]) {
							continue
						}
						i2 := s.apply(d, b[0], b[1])
						if !(Move{i2.Row - img.Row, i2.Col - img.Col}).isKnight() {
							t.Errorf("%v: jump %v-%v maps to %v-%v", s, c, d, img, i2)
						}
					}
				}
			}
		}
	}
}

// naiveShape is an independent canonical form: all images of the tour's
// squares under the symmetries and reversal (and every rotation, for a
// cycle), spelled out as strings, and the smallest taken.
func naiveShape(rows, cols int, path []Coordinate, cycle bool) string {
	var forms []string
	n := len(path)
	for _, s := range symmetries(rows, cols) {
		for _, rev := range []bool{false, true} {
			shifts := 1
			if cycle {
				shifts = n
			}
			for shift := range shifts {
				var sb strings.Builder
				for i := range n {
					j := (i + shift) % n
					if rev {
						j = (n - 1 - i + shift) % n
					}
					c := s.apply(path[j], rows, cols)
					fmt.Fprintf(&sb, "%04d", c.Row*cols+c.Col)
				}
				forms = append(forms, sb.String())
			}
		}
	}
	sort.Strings(forms)
	return forms[0]
}

// TestUnique counts tours up to symmetry with Unique and, independently,
// by enumerating every tour from every square with the unpruned search and
// comparing naive canonical forms.
func TestUnique(t *testing.T) {
	for _, b := range []struct {
		rows, cols int
		closed     bool
	}{{3, 4, false}, {4, 5, false}, {5, 5, false}, {3, 7, false}, {4, 4, false}, {3, 4, true}, {4, 5, true}, {3, 10, true}} {
		if (testing.Short() || !exhaustive) && b.rows*b.cols > 20 {
			continue
		}
		shapes := map[string]bool{}
		for r := range b.rows {
			for k := range b.cols {
				for _, line := range referenceTours(b.rows, b.cols, Coordinate{r, k}, SeedOrder()) {
					var path []Coordinate
					for _, f := range splitSquares(line) {
						c, _ := ParseCoordinate(f, b.rows, b.cols)
						path = append(path, c)
					}
					closed, _ := validate(b.rows, b.cols, path)
					if b.closed && !closed {
						continue
					}
					shapes[naiveShape(b.rows, b.cols, path, b.closed)] = true
				}
			}
		}
		opts := []CensusOption{WithWorkers(2)}
		if b.closed {
			opts = append(opts, WithClosed())
		}
		got, err := Unique(context.Background(), b.rows, b.cols, opts...)
		if err != nil || got.Int64() != int64(len(shapes)) {
			t.Errorf("%dx%d closed=%v: Unique = %d, %v; naive count %d", b.rows, b.cols, b.closed, got, err, len(shapes))
		}
	}
}

// TestUniqueClosed6x6 reproduces the published 1,245 closed 6x6 tours up to
// symmetry.
func TestUniqueClosed6x6(t *testing.T) {
	got, err := Unique(context.Background(), 6, 6, WithClosed())
	if err != nil || got.Int64() != 1245 {
		t.Errorf("Unique(6x6 closed) = %d, %v; want 1245", got, err)
	}
}

func TestShape(t *testing.T) {
	s := mustSolver(t, 5, 6, WithClosed(), WithStart(Coordinate{0, 0}))
	tour, err := s.First(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	path := tour.coordinates()
	n := len(path)
	// The same cycle read backwards from another square, then mirrored.
	var other []Coordinate
	for i := range n {
		c := path[(n+7-i)%n]
		other = append(other, mirrorLeftRight.apply(c, 5, 6))
	}
	mirrored, err := NewTour(5, 6, other)
	if err != nil {
		t.Fatal(err)
	}
	if !sameShape(tour, mirrored) {
		t.Errorf("sameShape(%v, %v) = false", tour, mirrored)
	}
	if slices.Equal(Canonical(tour, Open).coordinates(), Canonical(mirrored, Open).coordinates()) {
		t.Errorf("as paths the two start at different squares and must differ")
	}
	next := 0
	for t2, err := range s.All(context.Background()) {
		if err != nil {
			t.Fatal(err)
		}
		if next++; next == 2 {
			if sameShape(tour, t2) == (naiveShape(5, 6, tour.coordinates(), true) != naiveShape(5, 6, t2.coordinates(), true)) {
				t.Errorf("sameShape disagrees with the naive form for %v and %v", tour, t2)
			}
			break
		}
	}
}
