package knightstour_test

import (
	"context"
	"errors"
	"fmt"
	"log"

	"github.com/euler1758/knightstour"
)

// The seed's first example: all tours of a 3x4 board from the lower-left
// corner, listed as the seed's getSolutions prints them.
func ExampleSolver_FindMoves() {
	s, err := knightstour.NewSolver(3, 4)
	if err != nil {
		panic(err)
	}
	tours, err := s.FindMoves(context.Background())
	if err != nil {
		panic(err)
	}
	for i, t := range tours.All() {
		fmt.Printf("%d: %v\n", i, t)
	}
	fmt.Println("Found:", tours.Len())
	// Output:
	// 0: {2,0} {1,2} {0,0} {2,1} {1,3} {0,1} {2,2} {0,3} {1,1} {2,3} {0,2} {1,0}
	// 1: {2,0} {1,2} {0,0} {2,1} {1,3} {0,1} {2,2} {1,0} {0,2} {2,3} {1,1} {0,3}
	// Found: 2
}

// FindMovesParallel gives the same list in the same order on any number of
// workers.
func ExampleSolver_FindMovesParallel() {
	s, err := knightstour.NewSolver(4, 7, knightstour.WithWorkers(4))
	if err != nil {
		panic(err)
	}
	tours, err := s.FindMovesParallel(context.Background())
	if err != nil {
		panic(err)
	}
	fmt.Println("Found:", tours.Len())
	fmt.Print(tours.At(0).Board())
	// Output:
	// Found: 1682
	//   28   13   26   11   20    7   18
	//   25    2   15    4   17   10   21
	//   14   27   12   23    8   19    6
	//    1   24    3   16    5   22    9
}

// Count only counts, keeping no tours.
func ExampleSolver_Count() {
	s, err := knightstour.NewSolver(5, 6)
	if err != nil {
		panic(err)
	}
	stats, err := s.Count(context.Background())
	if err != nil {
		panic(err)
	}
	fmt.Println(stats.Tours, "tours of 5x6 from the lower-left corner")
	// Output: 4542 tours of 5x6 from the lower-left corner
}

// First with the Pascal program's jump table and start square prints the
// board that program prints.
func ExampleSolver_First() {
	s, err := knightstour.NewSolver(5, 5,
		knightstour.WithStart(knightstour.Coordinate{Row: 0, Col: 0}),
		knightstour.WithMoveOrder(knightstour.WirthOrder()...))
	if err != nil {
		panic(err)
	}
	tour, err := s.First(context.Background())
	if err != nil {
		panic(err)
	}
	fmt.Print(tour.Board())
	// Output:
	//    1    6   15   10   21
	//   14    9   20    5   16
	//   19    2    7   22   11
	//    8   13   24   17    4
	//   25   18    3   12   23
}

// All streams tours without storing them; breaking out of the loop stops
// the search.
func ExampleSolver_All() {
	s, err := knightstour.NewSolver(6, 6, knightstour.WithWorkers(2))
	if err != nil {
		panic(err)
	}
	closed := 0
	for tour, err := range s.All(context.Background()) {
		if err != nil {
			panic(err)
		}
		if tour.Kind() == knightstour.Closed {
			closed++
			if closed == 3 {
				fmt.Println("third closed tour ends at", tour.At(tour.Len()-1))
				break
			}
		}
	}
	// Output: third closed tour ends at {4,2}
}

func ExampleParseCoordinate() {
	for _, in := range []string{"a1", "{0,3}", "d3", "e9", "b"} {
		c, err := knightstour.ParseCoordinate(in, 3, 4)
		switch {
		case err != nil:
			fmt.Println(in, "is not a square of the 3x4 board")
		default:
			fmt.Println(in, "is", c)
		}
	}
	// Output:
	// a1 is {2,0}
	// {0,3} is {0,3}
	// d3 is {0,3}
	// e9 is not a square of the 3x4 board
	// b is not a square of the 3x4 board
}

// NewTour checks the path it is given: here too short for the board.
func ExampleNewTour_notATour() {
	path := []knightstour.Coordinate{{Row: 2, Col: 0}, {Row: 1, Col: 2}, {Row: 0, Col: 0}, {Row: 1, Col: 1}}
	_, err := knightstour.NewTour(3, 4, path)
	fmt.Println(err)
	// Output: knightstour: not a knight's tour: 4 squares, a 3x4 board has 12
}

func ExampleNewSolver_badInput() {
	_, err := knightstour.NewSolver(0, 4)
	fmt.Println(errors.Is(err, knightstour.ErrBadSize), err)
	_, err = knightstour.NewSolver(3, 4, knightstour.WithStart(knightstour.Coordinate{Row: 3, Col: 0}))
	fmt.Println(errors.Is(err, knightstour.ErrOffBoard), err)
	// Output:
	// true knightstour: invalid board size: 0x4 (both sides must be at least 1)
	// true knightstour: not a square of the board: start {3,0} on a 3x4 board
}

// CountDP counts tours without listing them: here the closed tours of 3x18
// (Elkies and Knuth's 3 x n sequence), and the tours from the corner of
// 5x8, 3.7 million, that enumeration would find one by one.
func ExampleCountDP() {
	ctx := context.Background()
	closed, err := knightstour.CountDP(ctx, 3, 18, knightstour.WithClosed())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("3x18 closed tours:", closed.Undirected)
	open, err := knightstour.CountDP(ctx, 5, 8)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("5x8 tours from the corner:", open.Tours)
	// Output:
	// 3x18 closed tours: 147728
	// 5x8 tours from the corner: 3742739
}

// FindTour builds a tour on any board that has one, here a closed tour of
// a board far beyond what a search could cover, started where asked: the
// construction.
func ExampleFindTour_construct() {
	tour, method, err := knightstour.FindTour(context.Background(), 2000, 3000,
		knightstour.WithClosed(), knightstour.WithStart(knightstour.Coordinate{Row: 1000, Col: 1500}))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(method, tour.Len(), tour.At(0), tour.Kind())
	// Output: construct 6000000 {1000,1500} closed
}
