package knightstour

import (
	"context"
	"reflect"
	"testing"
)

// TestOptionsThatDoNotApply checks that an option given to an entry point
// it does not apply to does not compile: the type each With function
// returns is not the kind of option the entry point takes. (A census "of
// shard 0/3" that counted everything answered another question than the
// one asked; now it cannot be asked.)
func TestOptionsThatDoNotApply(t *testing.T) {
	kinds := map[string]reflect.Type{
		"NewSolver": reflect.TypeFor[SolverOption](),
		"RunCensus": reflect.TypeFor[CensusOption](),
		"Unique":    reflect.TypeFor[CensusOption](),
		"CountDP":   reflect.TypeFor[CountDPOption](),
		"FindTour":  reflect.TypeFor[FindTourOption](),
	}
	tests := []struct {
		entry string
		with  any // a With function
		name  string
	}{
		{"NewSolver", WithFreeEnds, "WithFreeEnds"},
		{"NewSolver", WithMemoryLimit, "WithMemoryLimit"},
		{"NewSolver", WithAllLengths, "WithAllLengths"},
		{"NewSolver", WithSpill, "WithSpill"},
		{"NewSolver", WithSweep, "WithSweep"},
		{"RunCensus", WithShard, "WithShard"},
		{"RunCensus", WithLimit, "WithLimit"},
		{"RunCensus", WithStart, "WithStart"},
		{"Unique", WithShard, "WithShard"},
		{"Unique", WithLimit, "WithLimit"},
		{"FindTour", WithCheckpoint, "WithCheckpoint"},
		{"CountDP", WithLimit, "WithLimit"},
		{"CountDP", WithMoveOrder, "WithMoveOrder"},
		{"CountDP", WithNodeBudget, "WithNodeBudget"},
		{"CountDP", WithSplitDepth, "WithSplitDepth"},
		{"FindTour", WithLimit, "WithLimit"},
		{"FindTour", WithShard, "WithShard"},
		{"FindTour", WithFreeEnds, "WithFreeEnds"},
		{"FindTour", WithSplitDepth, "WithSplitDepth"},
		{"NewSolver", WithMethod, "WithMethod"},
		{"RunCensus", WithMethod, "WithMethod"},
		{"CountDP", WithMethod, "WithMethod"},
	}
	for _, tt := range tests {
		if out := reflect.TypeOf(tt.with).Out(0); out.Implements(kinds[tt.entry]) {
			t.Errorf("%s(%s(...)) compiles: %v is a %v", tt.entry, tt.name, out, kinds[tt.entry])
		}
	}
}

// TestOptionsThatApply checks that each entry point still takes the
// options its documentation names.
func TestOptionsThatApply(t *testing.T) {
	ctx := context.Background()
	errs := map[string]error{}
	_, errs["RunCensus"] = RunCensus(ctx, 3, 4, WithWorkers(2), WithMoveOrder(WirthOrder()...), WithSplitDepth(1))
	_, errs["CountDP"] = CountDP(ctx, 3, 4, WithWorkers(2), WithStart(Coordinate{0, 0}), WithMemoryLimit(1<<30), WithAllLengths())
	_, _, errs["FindTour, construct"] = FindTour(ctx, 6, 6, WithWorkers(2), WithStart(Coordinate{0, 0}), WithClosed(), WithMethod(MethodConstruct))
	_, _, errs["FindTour, Warnsdorff"] = FindTour(ctx, 6, 6, WithNodeBudget(1000), WithMoveOrder(WirthOrder()...), WithStart(Coordinate{0, 0}), WithMethod(MethodWarnsdorff))
	_, _, errs["FindTour"] = FindTour(ctx, 6, 6, WithWorkers(2), WithMoveOrder(WirthOrder()...), WithClosed())
	_, _, errs["FindTour, constructed"] = FindTour(ctx, 300, 300, WithWorkers(2), WithMoveOrder(WirthOrder()...))
	for entry, err := range errs {
		if err != nil {
			t.Errorf("%s: %v", entry, err)
		}
	}
}
