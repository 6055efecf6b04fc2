package knightstour_test

import (
	"bytes"
	"context"
	"fmt"
	"time"

	"github.com/euler1758/knightstour"
)

// RunCensus counts the open tours from every square of a board.
func ExampleRunCensus() {
	c, err := knightstour.RunCensus(context.Background(), 5, 5)
	if err != nil {
		panic(err)
	}
	fmt.Print(c)
	fmt.Println(c.Directed, "directed,", c.Undirected, "undirected,", c.At(knightstour.Coordinate{Row: 4, Col: 0}), "from a1")
	// Output:
	// 304   0  56   0 304
	//   0  56   0  56   0
	//  56   0  64   0  56
	//   0  56   0  56   0
	// 304   0  56   0 304
	// 5x5 open tours: 1728 directed, 864 undirected
	// 1728 directed, 864 undirected, 304 from a1
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
	fmt.Println(t.Len(), t.Kind())
	// Output:
	// 900 closed
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
	fmt.Println(whole.Tours, "tours;", whole.Work.Tasks, "of", whole.Work.AllTasks, "tasks")
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

// WithMoveOrder sets the order in which the search tries the eight
// jumps: it changes which tour comes first, never how many there are.
func ExampleWithMoveOrder() {
	order := []knightstour.Move{{DRow: 1, DCol: 2}, {DRow: 2, DCol: 1}, {DRow: 2, DCol: -1}, {DRow: 1, DCol: -2},
		{DRow: -1, DCol: -2}, {DRow: -2, DCol: -1}, {DRow: -2, DCol: 1}, {DRow: -1, DCol: 2}}
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

// WithProgress watches a long count. A CountDP reports at once, before
// its first square: how many squares it will add, where it resumes from
// (with WithCheckpoint), and whether it follows half of the tours, as it
// does from a corner of a square board (it then keeps fewer states, and
// doubles its total). Then it reports every interval, and once at the
// end.
func ExampleWithProgress() {
	var reports []knightstour.Progress
	res, err := knightstour.CountDP(context.Background(), 6, 6,
		knightstour.WithProgress(time.Hour, func(p knightstour.Progress) { reports = append(reports, p) }))
	if err != nil {
		panic(err)
	}
	first, last := reports[0], reports[len(reports)-1]
	fmt.Printf("first: %d of %d squares, halved %v\n", first.TasksDone, first.Tasks, first.Halved)
	fmt.Printf("last: %d of %d squares\n", last.TasksDone, last.Tasks)
	fmt.Println(res.Tours, "tours, halved:", res.Work.Halved)
	// Output:
	// first: 0 of 36 squares, halved true
	// last: 36 of 36 squares
	// 524486 tours, halved: true
}

// WithAllLengths counts every board on the way in one pass: here 5x1 to
// 5x7 with free ends. Each shorter board's tours are final once the count
// has added its column, and the reports of WithProgress hold them from
// then on, so that a count of days gives them as it goes.
func ExampleWithAllLengths() {
	var last knightstour.Progress
	res, err := knightstour.CountDP(context.Background(), 5, 7, knightstour.WithFreeEnds(), knightstour.WithAllLengths(),
		knightstour.WithProgress(time.Hour, func(p knightstour.Progress) { last = p }))
	if err != nil {
		panic(err)
	}
	fmt.Println("reported:", last.ByLength)
	fmt.Println("result:  ", res.ByLength)
	// Output:
	// reported: [0 0 0 164 1728 37568]
	// result:   [0 0 0 164 1728 37568 1245736]
}

// WithAcross counts the same tours through other states: its columns run
// along the board's shorter side, each as long as the longer one, a
// second computation to check a count by.
func ExampleWithAcross() {
	ctx := context.Background()
	along, err := knightstour.CountDP(ctx, 4, 7)
	if err != nil {
		panic(err)
	}
	across, err := knightstour.CountDP(ctx, 4, 7, knightstour.WithAcross())
	if err != nil {
		panic(err)
	}
	fmt.Printf("%v tours along (columns of %d), %v across (columns of %d)\n", along.Tours, along.Work.Width, across.Tours, across.Work.Width)
	// Output:
	// 1682 tours along (columns of 4), 1682 across (columns of 7)
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

// NewTour checks a tour given square by square; Canonical compares tours
// up to the board's symmetries: two tours have the same shape when their
// canonical forms are equal.
func ExampleCanonical() {
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
	for i := range a.Len() {
		c := a.At(i)
		turned = append(turned, knightstour.Coordinate{Row: 2 - c.Row, Col: 3 - c.Col})
	}
	b, err := knightstour.NewTour(3, 4, turned)
	if err != nil {
		panic(err)
	}
	sameShape := func(x, y knightstour.Tour) bool {
		return knightstour.Canonical(x, x.Kind()).String() == knightstour.Canonical(y, y.Kind()).String()
	}
	fmt.Println(b.At(0), sameShape(a, b), sameShape(a, tours.At(1)))
	// Output:
	// {0,3} true false
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

// A tour's Board holds its move numbers, as the seed's KnightProblemBoard
// does, and prints them as the seed's program does.
func ExampleTour_Board() {
	t, err := knightstour.NewTour(3, 4, []knightstour.Coordinate{
		{2, 0}, {1, 2}, {0, 0}, {2, 1}, {1, 3}, {0, 1},
		{2, 2}, {0, 3}, {1, 1}, {2, 3}, {0, 2}, {1, 0},
	})
	if err != nil {
		panic(err)
	}
	b := t.Board()
	fmt.Print(b)
	fmt.Println(b.At(knightstour.Coordinate{Row: 1, Col: 2}))
	// Output:
	//    3    6   11    8
	//   12    9    2    5
	//    1    4    7   10
	// 2
}

// Taken as an open tour, a path and the same path read backwards have one
// canonical form.
func ExampleCanonical_path() {
	s, err := knightstour.NewSolver(3, 4)
	if err != nil {
		panic(err)
	}
	t, err := s.First(context.Background())
	if err != nil {
		panic(err)
	}
	var back []knightstour.Coordinate
	for i := t.Len() - 1; i >= 0; i-- {
		back = append(back, t.At(i))
	}
	r, err := knightstour.NewTour(3, 4, back)
	if err != nil {
		panic(err)
	}
	fmt.Println(knightstour.Canonical(t, knightstour.Open).String() == knightstour.Canonical(r, knightstour.Open).String())
	// Output:
	// true
}
