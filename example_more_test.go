package knightstour_test

import (
	"bytes"
	"context"
	"fmt"

	"github.com/euler1758/knightstour"
)

// RunCensus counts the open tours from every square of a board.
func ExampleRunCensus() {
	c, err := knightstour.RunCensus(context.Background(), 5, 5)
	if err != nil {
		panic(err)
	}
	fmt.Print(c)
	fmt.Println(c.Directed(), "directed,", c.Undirected(), "undirected")
	// Output:
	// 304   0  56   0 304
	//   0  56   0  56   0
	//  56   0  64   0  56
	//   0  56   0  56   0
	// 304   0  56   0 304
	// 5x5 open tours: 1728 directed, 864 undirected
	// 1728 directed, 864 undirected
}

// Exists answers from the existence theorems, without a search.
func ExampleExists() {
	fmt.Println(knightstour.Exists(3, 4, knightstour.Open), knightstour.Exists(3, 4, knightstour.Closed), knightstour.Exists(5, 5, knightstour.Closed), knightstour.Exists(6, 6, knightstour.Closed))
	// Output:
	// true false false true
}

// Unique counts tours up to the board's rotations and reflections.
func ExampleUnique() {
	n, err := knightstour.Unique(context.Background(), 6, 6, knightstour.WithClosed())
	if err != nil {
		panic(err)
	}
	fmt.Println(n, "closed tours of 6x6 up to symmetry")
	// Output:
	// 1245 closed tours of 6x6 up to symmetry
}

// Warnsdorff's rule finds one tour quickly by moving to the square with
// the fewest ways on.
func ExampleWithMethod() {
	t, _, err := knightstour.FindTour(context.Background(), 30, 30, knightstour.WithClosed(), knightstour.WithMethod(knightstour.MethodWarnsdorff))
	if err != nil {
		panic(err)
	}
	fmt.Println(t.Len(), t.Kind(), t.Check() == nil)
	// Output:
	// 900 closed true
}

// FindTour picks the search, Warnsdorff's rule or the construction, and
// says which found the tour.
func ExampleFindTour() {
	t, method, err := knightstour.FindTour(context.Background(), 8, 8, knightstour.WithClosed())
	if err != nil {
		panic(err)
	}
	fmt.Println(method, t.Len(), t.Kind())
	// Output:
	// search 64 closed
}

// A count split into shards, added up: what the CLI's merge does with the
// shards' files.
func ExampleMergeStats() {
	var parts []knightstour.Stats
	for i := range 3 {
		s, err := knightstour.NewSolver(5, 6, knightstour.WithShard(i, 3))
		if err != nil {
			panic(err)
		}
		st, err := s.Count(context.Background())
		if err != nil {
			panic(err)
		}
		parts = append(parts, st)
	}
	whole, err := knightstour.MergeStats(parts...)
	if err != nil {
		panic(err)
	}
	fmt.Println(whole.Tours, "tours;", whole.Tasks, "of", whole.AllTasks, "tasks")
	// Output:
	// 4542 tours; 802 of 802 tasks
}

// Tours go to a tour file and come back, checked, in about a byte a square.
func ExampleNewTourWriter() {
	s, err := knightstour.NewSolver(3, 4)
	if err != nil {
		panic(err)
	}
	var file bytes.Buffer
	w := knightstour.NewTourWriter(&file, 3, 4, knightstour.Open)
	for t, err := range s.All(context.Background()) {
		if err != nil {
			panic(err)
		}
		if err := w.Write(t); err != nil {
			panic(err)
		}
	}
	if err := w.Close(); err != nil {
		panic(err)
	}
	fmt.Print(file.String())
	r, err := knightstour.NewTourReader(&file)
	if err != nil {
		panic(err)
	}
	for t, err := range r.Tours() {
		if err != nil {
			panic(err)
		}
		fmt.Println(t)
	}
	// Output:
	// # knightstour 3x4 open
	// 8:37037025165
	// 8:37037073073
	// # end 2
	// {2,0} {1,2} {0,0} {2,1} {1,3} {0,1} {2,2} {0,3} {1,1} {2,3} {0,2} {1,0}
	// {2,0} {1,2} {0,0} {2,1} {1,3} {0,1} {2,2} {1,0} {0,2} {2,3} {1,1} {0,3}
}

// ParseOrder reads a move order as the CLI's -order flag does.
func ExampleParseOrder() {
	order, err := knightstour.ParseOrder("(1,2) (2,1) (2,-1) (1,-2) (-1,-2) (-2,-1) (-2,1) (-1,2)")
	if err != nil {
		panic(err)
	}
	s, err := knightstour.NewSolver(3, 4, knightstour.WithMoveOrder(order...))
	if err != nil {
		panic(err)
	}
	t, err := s.First(context.Background())
	if err != nil {
		panic(err)
	}
	fmt.Println(t)
	// Output:
	// {2,0} {1,2} {0,0} {2,1} {1,3} {0,1} {2,2} {1,0} {0,2} {2,3} {1,1} {0,3}
}

// CountDP counts beyond what any search lists: the open tours of 5x6 with
// free ends, and the closed ones of 6x6.
func ExampleCountDP_freeEnds() {
	free, err := knightstour.CountDP(context.Background(), 5, 6, knightstour.WithFreeEnds())
	if err != nil {
		panic(err)
	}
	closed, err := knightstour.CountDP(context.Background(), 6, 6, knightstour.WithClosed())
	if err != nil {
		panic(err)
	}
	fmt.Println(free.Tours, "open tours (each from both ends),", closed.Tours, "closed (each from one square, both ways)")
	// Output:
	// 37568 open tours (each from both ends), 19724 closed (each from one square, both ways)
}

// StartPossible says, from the theorems alone, where a tour can start.
func ExampleStartPossible() {
	// On 5x5 an open tour starts and ends on the colour of the corners,
	// which has one square more.
	for _, sq := range []knightstour.Coordinate{{0, 0}, {1, 1}, {0, 1}} {
		fmt.Println(sq, knightstour.StartPossible(5, 5, sq, knightstour.Open))
	}
	// Output:
	// {0,0} true
	// {1,1} true
	// {0,1} false
}

// NewTour checks a tour given square by square; SameShape and Canonical
// compare tours up to the board's symmetries.
func ExampleSameShape() {
	s, err := knightstour.NewSolver(3, 4)
	if err != nil {
		panic(err)
	}
	tours, err := s.FindMoves(context.Background())
	if err != nil {
		panic(err)
	}
	a := tours.At(0)
	// The same tour turned half way round: another start, the same shape.
	var turned []knightstour.Coordinate
	for _, c := range a.Coordinates() {
		turned = append(turned, knightstour.Coordinate{Row: 2 - c.Row, Col: 3 - c.Col})
	}
	b, err := knightstour.NewTour(3, 4, turned)
	if err != nil {
		panic(err)
	}
	fmt.Println(b.Start(), knightstour.SameShape(a, b), knightstour.SameShape(a, tours.At(1)))
	fmt.Println(knightstour.Canonical(a).Check() == nil)
	// Output:
	// {0,3} true false
	// true
}

// WriteSVG draws a tour; the CLI's tour -svg writes the same picture.
func ExampleWriteSVG() {
	t, _, err := knightstour.FindTour(context.Background(), 8, 8, knightstour.WithClosed())
	if err != nil {
		panic(err)
	}
	var svg bytes.Buffer
	if err := knightstour.WriteSVG(&svg, t, knightstour.SVGOptions{Numbers: true}); err != nil {
		panic(err)
	}
	fmt.Println(bytes.HasPrefix(svg.Bytes(), []byte("<svg")), bytes.Count(svg.Bytes(), []byte("<text")))
	// Output:
	// true 64
}

// A Board holds move numbers, as the seed's KnightProblemBoard does, and
// prints them as the seed's program does.
func ExampleNewBoard() {
	b, err := knightstour.NewBoard(3, 4)
	if err != nil {
		panic(err)
	}
	for i, c := range []knightstour.Coordinate{{2, 0}, {1, 2}, {0, 0}} {
		if err := b.Set(c, i+1); err != nil {
			panic(err)
		}
	}
	fmt.Print(b)
	fmt.Println(b.Set(knightstour.Coordinate{Row: 3, Col: 0}, 4) != nil)
	// Output:
	//    3    0    0    0
	//    0    0    2    0
	//    1    0    0    0
	// true
}

// CanonicalPath is Canonical for open tours: a path and the same path read
// backwards have one canonical form.
func ExampleCanonicalPath() {
	s, err := knightstour.NewSolver(3, 4)
	if err != nil {
		panic(err)
	}
	t, err := s.First(context.Background())
	if err != nil {
		panic(err)
	}
	back := t.Coordinates()
	for i, j := 0, len(back)-1; i < j; i, j = i+1, j-1 {
		back[i], back[j] = back[j], back[i]
	}
	r, err := knightstour.NewTour(3, 4, back)
	if err != nil {
		panic(err)
	}
	fmt.Println(knightstour.CanonicalPath(t).String() == knightstour.CanonicalPath(r).String())
	// Output:
	// true
}
