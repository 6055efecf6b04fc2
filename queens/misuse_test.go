package queens_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/euler1758/knightstour/queens"
)

// TestMisuse calls every exported function and method with what a
// careless caller might give it: zero values, a nil context, a nil
// option, values out of range. Nothing may panic; what returns an error
// must return one that wraps a sentinel.
func TestMisuse(t *testing.T) {
	var nilCtx context.Context //nolint:staticcheck // the point of the test
	var nilOpt queens.Option
	wantErr := func(err error) error {
		if err == nil {
			return errors.New("no error")
		}
		for _, s := range []error{queens.ErrBadN, queens.ErrBadOption, queens.ErrMisuse, queens.ErrInvalid, queens.ErrMerge, queens.ErrResult} {
			if errors.Is(err, s) {
				return nil
			}
		}
		return fmt.Errorf("%v wraps no sentinel", err)
	}
	calls := []struct {
		name string
		call func() error
	}{
		{"Count nil context", func() error { _, err := queens.Count(nilCtx, 8); return wantErr(err) }},
		{"Count nil option", func() error { _, err := queens.Count(context.Background(), 8, nilOpt); return wantErr(err) }},
		{"Count n out of range", func() error { _, err := queens.Count(context.Background(), -1); return wantErr(err) }},
		{"Solutions nil context", func() error {
			var err error
			for _, e := range queens.Solutions(nilCtx, 6) {
				err = e
			}
			return wantErr(err)
		}},
		{"Solutions n out of range", func() error {
			var err error
			for _, e := range queens.Solutions(context.Background(), 1000) {
				err = e
			}
			return wantErr(err)
		}},
		{"zero and bad Placements", func() error {
			for _, p := range []queens.Placement{nil, {}, {-1}, {5, 5}, make(queens.Placement, 100)} {
				_, _ = p.String(), p.Board()
				if err := wantErr(queens.Validate(p)); err != nil && len(p) != 0 {
					return fmt.Errorf("%v: %w", p, err)
				}
			}
			return nil
		}},
		{"zero Result", func() error { return wantErr(queens.Result{}.Check()) }},
		{"Merge none", func() error { _, err := queens.Merge(); return wantErr(err) }},
		{"bad Method", func() error {
			_, _ = queens.Method(200).String(), queens.Method(200).Resolve(-5)
			_, err := queens.ParseMethod("")
			return wantErr(err)
		}},
		{"zero Progress", func() error { var p queens.Progress; _, _ = p.Fraction(), p.ETA(); return nil }},
	}
	for _, c := range calls {
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Errorf("%s: panic: %v", c.name, p)
				}
			}()
			if err := c.call(); err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
		}()
	}
}
