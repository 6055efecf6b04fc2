package knightstour

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestOptionsThatDoNotApply checks that every entry point refuses, by
// name, an option it cannot honour, instead of answering another question
// than the one asked (a census "of shard 0/3" that counted everything).
func TestOptionsThatDoNotApply(t *testing.T) {
	ctx := context.Background()
	calls := map[string]func(opts ...Option) error{
		"NewSolver": func(opts ...Option) error { _, err := NewSolver(5, 6, opts...); return err },
		"RunCensus": func(opts ...Option) error { _, err := RunCensus(ctx, 5, 6, opts...); return err },
		"Unique":    func(opts ...Option) error { _, err := Unique(ctx, 3, 4, opts...); return err },
		"CountDP":   func(opts ...Option) error { _, err := CountDP(ctx, 5, 6, opts...); return err },
		"Construct": func(opts ...Option) error { _, err := Construct(ctx, 5, 6, opts...); return err },
		"Warnsdorff": func(opts ...Option) error {
			_, _, err := Warnsdorff(ctx, 5, 6, opts...)
			return err
		},
		"FindTour": func(opts ...Option) error { _, _, err := FindTour(ctx, 5, 6, opts...); return err },
	}
	tests := []struct {
		entry  string
		option Option
		name   string
	}{
		{"NewSolver", WithFreeEnds(), "WithFreeEnds"},
		{"NewSolver", WithMemoryLimit(1 << 30), "WithMemoryLimit"},
		{"NewSolver", WithAllLengths(), "WithAllLengths"},
		{"RunCensus", WithShard(0, 3), "WithShard"},
		{"RunCensus", WithLimit(5), "WithLimit"},
		{"RunCensus", WithStart(Coordinate{0, 0}), "WithStart"},
		{"Unique", WithShard(1, 2), "WithShard"},
		{"Unique", WithLimit(1), "WithLimit"},
		{"NewSolver", WithSpill("."), "WithSpill"},
		{"Construct", WithCheckpoint("x"), "WithCheckpoint"},
		{"CountDP", WithLimit(5), "WithLimit"},
		{"CountDP", WithMoveOrder(WirthOrder()...), "WithMoveOrder"},
		{"CountDP", WithNodeBudget(10), "WithNodeBudget"},
		{"CountDP", WithSplitDepth(2), "WithSplitDepth"},
		{"CountDP", WithReduction(false), "WithReduction"},
		{"Construct", WithMoveOrder(WirthOrder()...), "WithMoveOrder"},
		{"Construct", WithLimit(1), "WithLimit"},
		{"Construct", WithNodeBudget(10), "WithNodeBudget"},
		{"Warnsdorff", WithLimit(100), "WithLimit"},
		{"Warnsdorff", WithWorkers(2), "WithWorkers"},
		{"Warnsdorff", WithShard(0, 2), "WithShard"},
		{"FindTour", WithLimit(1), "WithLimit"},
		{"FindTour", WithFreeEnds(), "WithFreeEnds"},
		{"FindTour", WithNodeBudget(10), "WithNodeBudget"},
	}
	for _, tt := range tests {
		t.Run(tt.entry+"/"+tt.name, func(t *testing.T) {
			err := calls[tt.entry](tt.option)
			if !errors.Is(err, ErrBadOption) {
				t.Fatalf("%s(%s) = %v, want ErrBadOption", tt.entry, tt.name, err)
			}
			for _, word := range []string{tt.entry, tt.name} {
				if !strings.Contains(err.Error(), word) {
					t.Errorf("%s(%s): %q does not name %s", tt.entry, tt.name, err, word)
				}
			}
		})
	}
}

// TestOptionsThatApply checks that each entry point still takes the
// options its documentation names.
func TestOptionsThatApply(t *testing.T) {
	ctx := context.Background()
	errs := map[string]error{}
	_, errs["RunCensus"] = RunCensus(ctx, 3, 4, WithWorkers(2), WithMoveOrder(WirthOrder()...), WithSplitDepth(1))
	_, errs["CountDP"] = CountDP(ctx, 3, 4, WithWorkers(2), WithStart(Coordinate{0, 0}), WithMemoryLimit(1<<30), WithAllLengths())
	_, errs["Construct"] = Construct(ctx, 6, 6, WithWorkers(2), WithStart(Coordinate{0, 0}), WithClosed())
	_, _, errs["Warnsdorff"] = Warnsdorff(ctx, 6, 6, WithNodeBudget(1000), WithMoveOrder(WirthOrder()...), WithStart(Coordinate{0, 0}))
	_, _, errs["FindTour"] = FindTour(ctx, 6, 6, WithWorkers(2), WithMoveOrder(WirthOrder()...), WithClosed())
	_, _, errs["FindTour, constructed"] = FindTour(ctx, 300, 300, WithWorkers(2), WithMoveOrder(WirthOrder()...))
	for entry, err := range errs {
		if err != nil {
			t.Errorf("%s: %v", entry, err)
		}
	}
}

func TestOptionKindString(t *testing.T) {
	got := []string{optStart.String(), optAllLengths.String(), (optStart | optShard).String()}
	want := []string{"WithStart", "WithAllLengths", "optionKind(0x101)"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("optionKind.String (-want +got):\n%s", diff)
	}
}
