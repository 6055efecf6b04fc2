package queens_test

import (
	"context"
	"fmt"

	"github.com/euler1758/knightstour/queens"
)

func ExampleCount() {
	r, err := queens.Count(context.Background(), 8)
	if err != nil {
		panic(err)
	}
	fmt.Println(r.Total, "solutions,", r.Unique, "up to symmetry")
	// Output: 92 solutions, 12 up to symmetry
}

// Shards of one count, run anywhere, add up to the whole.
func ExampleMerge() {
	var parts []queens.Result
	for i := range 3 {
		r, err := queens.Count(context.Background(), 10, queens.WithShard(i, 3))
		if err != nil {
			panic(err)
		}
		parts = append(parts, r)
	}
	whole, err := queens.Merge(parts...)
	if err != nil {
		panic(err)
	}
	fmt.Println(whole.Total, whole.Unique)
	// Output: 724 92
}

func ExampleSolutions() {
	for p, err := range queens.Solutions(context.Background(), 4) {
		if err != nil {
			panic(err)
		}
		fmt.Println(p)
		fmt.Print(p.Board())
		break
	}
	// Output:
	// 1 3 0 2
	// . Q . .
	// . . . Q
	// Q . . .
	// . . Q .
}

// Every method gives the same counts; Auto picks the faster for n.
func ExampleMethod() {
	for _, m := range []queens.Method{queens.Auto, queens.Constellations, queens.Classic} {
		fmt.Println(m, "counts 16 queens by", m.Resolve(16), "and 12 by", m.Resolve(12))
	}
	// Output:
	// auto counts 16 queens by constellations and 12 by classic
	// constellations counts 16 queens by constellations and 12 by constellations
	// classic counts 16 queens by classic and 12 by classic
}
