package knightstour_test

import (
	"context"
	"fmt"
	"log"

	"github.com/euler1758/knightstour"
)

// Example_readme is the program README.md shows; TestReadmeExample keeps
// the two the same.
func Example_readme() {
	ctx := context.Background()

	// Every open tour of 3x4 from the lower-left corner, in move order.
	s, err := knightstour.NewSolver(3, 4)
	if err != nil {
		log.Fatal(err)
	}
	tours, err := s.FindMovesParallel(ctx)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(tours.Len(), "tours, the first:")
	fmt.Print(tours.At(0).Board())

	// Too many to list: count the closed tours of 6x8 instead.
	res, err := knightstour.CountDP(ctx, 6, 8, knightstour.WithClosed())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Undirected, "closed tours of 6x8")

	// One closed tour of a large board, in linear time.
	tour, _, err := knightstour.FindTour(ctx, 1000, 1000, knightstour.WithClosed(), knightstour.WithMethod(knightstour.MethodConstruct))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(tour.Kind(), "tour of", tour.Len(), "squares")
	// Output:
	// 2 tours, the first:
	//    3    6   11    8
	//   12    9    2    5
	//    1    4    7   10
	// 55488142 closed tours of 6x8
	// closed tour of 1000000 squares
}
