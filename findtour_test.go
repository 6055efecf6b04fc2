package knightstour

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestMethodString(t *testing.T) {
	got := []string{MethodSearch.String(), MethodWarnsdorff.String(), MethodConstruct.String(), Method(0).String()}
	want := []string{"search", "warnsdorff", "construct", "Method(0)"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Method.String (-want +got):\n%s", diff)
	}
}

func TestKindString(t *testing.T) {
	got := []string{Open.String(), Closed.String(), kindOf(true).String(), Kind(5).String()}
	want := []string{"open", "closed", "closed", "Kind(5)"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Kind.String (-want +got):\n%s", diff)
	}
}

// TestMethodRefusesUnused checks that FindTour refuses an option that the
// one method asked for does not use, and takes the same options without
// WithMethod.
func TestMethodRefusesUnused(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		method Method
		opt    FindTourOption
	}{
		{MethodConstruct, WithMoveOrder(WirthOrder()...)},
		{MethodConstruct, WithNodeBudget(1000)},
		{MethodWarnsdorff, WithWorkers(2)},
		{MethodSearch, WithWorkers(2)},
	} {
		if _, _, err := FindTour(ctx, 8, 8, tt.opt, WithMethod(tt.method)); !errors.Is(err, ErrBadOption) {
			t.Errorf("%v with an option it does not use: %v, want ErrBadOption", tt.method, err)
		}
		if _, _, err := FindTour(ctx, 8, 8, tt.opt); err != nil {
			t.Errorf("the same option without WithMethod: %v", err)
		}
	}
	for _, m := range []Method{MethodSearch, MethodWarnsdorff, MethodConstruct} {
		if _, got, err := FindTour(ctx, 8, 8, WithClosed(), WithMethod(m)); err != nil || got != m {
			t.Errorf("WithMethod(%v): found by %v, %v", m, got, err)
		}
	}
}
