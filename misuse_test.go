package knightstour_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"testing"
	"time"

	"github.com/euler1758/knightstour"
)

// TestMisuse calls every exported function and method with what a
// careless caller might give it: zero values, a nil context, a nil
// option, squares and sizes out of range. Nothing may panic; what
// returns an error must return one that wraps a sentinel of errors.go.
func TestMisuse(t *testing.T) {
	var nilCtx context.Context //nolint:staticcheck // the point of the test
	ctx := context.Background()
	var nilOpt knightstour.SolverOption
	var nilDPOpt knightstour.CountDPOption
	far := knightstour.Coordinate{Row: math.MaxInt, Col: -1}
	sentinels := []error{knightstour.ErrBadSize, knightstour.ErrOffBoard,
		knightstour.ErrBadOption, knightstour.ErrMerge, knightstour.ErrBadFile, knightstour.ErrNoTour,
		knightstour.ErrMisuse}
	// wantErr: the call must fail, with a sentinel or a *TourError.
	wantErr := func(err error) error {
		if err == nil {
			return errors.New("no error")
		}
		var te *knightstour.TourError
		if errors.As(err, &te) {
			return nil
		}
		for _, s := range sentinels {
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
		{"NewSolver nil option", func() error { _, err := knightstour.NewSolver(3, 4, nilOpt); return wantErr(err) }},
		{"CountDP nil context", func() error { _, err := knightstour.CountDP(nilCtx, 3, 4); return wantErr(err) }},
		{"CountDP nil option", func() error { _, err := knightstour.CountDP(ctx, 3, 4, nilDPOpt); return wantErr(err) }},
		{"RunCensus nil context", func() error { _, err := knightstour.RunCensus(nilCtx, 3, 4); return wantErr(err) }},
		{"Unique nil context", func() error { _, err := knightstour.Unique(nilCtx, 3, 4); return wantErr(err) }},
		{"FindTour nil context", func() error { _, _, err := knightstour.FindTour(nilCtx, 8, 8); return wantErr(err) }},
		{"FindTour bad method", func() error {
			_, _, err := knightstour.FindTour(ctx, 8, 8, knightstour.WithMethod(9))
			return wantErr(err)
		}},
		{"Solver nil context", func() error {
			s, _ := knightstour.NewSolver(3, 4)
			_, err1 := s.FindMoves(nilCtx)
			_, err2 := s.FindMovesParallel(nilCtx)
			_, err3 := s.Count(nilCtx)
			_, err4 := s.First(nilCtx)
			var err5 error
			for _, err := range s.All(nilCtx) {
				err5 = err
			}
			return errors.Join(wantErr(err1), wantErr(err2), wantErr(err3), wantErr(err4), wantErr(err5))
		}},
		{"zero Solver", func() error {
			var s knightstour.Solver
			_, err1 := s.FindMoves(ctx)
			_, err2 := s.FindMovesParallel(ctx)
			_, err3 := s.Count(ctx)
			_, err4 := s.First(ctx)
			var err5 error
			for _, err := range s.All(ctx) {
				err5 = err
			}
			return errors.Join(wantErr(err1), wantErr(err2), wantErr(err3), wantErr(err4), wantErr(err5))
		}},
		{"nil Solver", func() error {
			var s *knightstour.Solver
			_, err := s.Count(ctx)
			return wantErr(err)
		}},
		{"zero Tours", func() error {
			var ts knightstour.Tours
			_, _ = ts.Len(), ts.Stats()
			ts.At(0)
			ts.At(-1)
			for range ts.All() {
			}
			return nil
		}},
		{"zero Tour", func() error {
			var tr knightstour.Tour
			tr.At(0)
			tr.At(-5)
			_, _, _, _ = tr.Len(), tr.Rows(), tr.Cols(), tr.Kind()
			_ = tr.String()
			tr.Board().At(far)
			tr.Clone()
			knightstour.Canonical(tr, knightstour.Closed)
			return wantErr(knightstour.WriteSVG(io.Discard, tr, knightstour.SVGOptions{}))
		}},
		{"zero Board", func() error {
			var b knightstour.Board
			b.At(far)
			_ = b.String()
			return nil
		}},
		{"zero Census", func() error {
			var c knightstour.Census
			c.At(far)
			_ = c.String()
			return nil
		}},
		{"NewTourWriter bad size", func() error {
			var buf bytes.Buffer
			tw := knightstour.NewTourWriter(&buf, -3, 5, knightstour.Open)
			err := errors.Join(tw.Write(knightstour.Tour{}), tw.Close())
			return wantErr(err)
		}},
		{"zero TourWriter", func() error {
			var tw knightstour.TourWriter
			return wantErr(errors.Join(tw.Write(knightstour.Tour{}), tw.Flush(), tw.Close()))
		}},
		{"zero TourReader", func() error {
			var tr knightstour.TourReader
			tr.Header()
			var err error
			for _, e := range tr.Tours() {
				err = e
			}
			return wantErr(err)
		}},
		{"NewTourReader nil", func() error { _, err := knightstour.NewTourReader(nil); return wantErr(err) }},
		{"WriteSVG zero tour", func() error {
			return wantErr(knightstour.WriteSVG(io.Discard, knightstour.Tour{}, knightstour.SVGOptions{}))
		}},
		{"WriteSVG nil writer", func() error {
			tour, _, err := knightstour.FindTour(ctx, 5, 5)
			if err != nil {
				return err
			}
			return wantErr(knightstour.WriteSVG(nil, tour, knightstour.SVGOptions{}))
		}},
		{"options out of range", func() error {
			var errs []error
			for _, opt := range []knightstour.SolverOption{
				knightstour.WithProgress(0, nil), knightstour.WithProgress(time.Second, nil), knightstour.WithStart(far),
				knightstour.WithMoveOrder(), knightstour.WithShard(5, 2), knightstour.WithShard(-1, 0), knightstour.WithLimit(-1),
				knightstour.WithWorkers(-1), knightstour.WithSplitDepth(-5), knightstour.WithNodeBudget(-1),
			} {
				_, err := knightstour.NewSolver(5, 5, opt)
				errs = append(errs, wantErr(err))
			}
			for _, opt := range []knightstour.CountDPOption{
				knightstour.WithMemoryLimit(-1), knightstour.WithSpill(""), knightstour.WithCheckpoint(""), knightstour.WithSweep(99),
			} {
				_, err := knightstour.CountDP(ctx, 5, 5, opt)
				errs = append(errs, wantErr(err))
			}
			return errors.Join(errs...)
		}},
		{"MergeStats of zero values", func() error {
			_, err := knightstour.MergeStats(knightstour.Stats{}, knightstour.Stats{})
			return wantErr(err)
		}},
		{"WriteSVG odd options", func() error {
			tour, _, err := knightstour.FindTour(ctx, 5, 5)
			if err != nil {
				return err
			}
			return knightstour.WriteSVG(io.Discard, tour, knightstour.SVGOptions{Square: -4})
		}},
		{"NewTour off the board", func() error { _, err := knightstour.NewTour(3, 4, []knightstour.Coordinate{far}); return wantErr(err) }},
		{"ParseCoordinate", func() error {
			_, err := knightstour.ParseCoordinate("{99999999999999999999,1}", 3, 4)
			return wantErr(err)
		}},
		{"MergeStats none", func() error { _, err := knightstour.MergeStats(); return wantErr(err) }},
		{"MergeDP none", func() error { _, err := knightstour.MergeDP(); return wantErr(err) }},
		{"MergeDP nil", func() error { _, err := knightstour.MergeDP(nil, nil); return wantErr(err) }},
		{"MergeDP zero", func() error { _, err := knightstour.MergeDP(&knightstour.DPCount{}); return wantErr(err) }},
		{"Exists", func() error {
			knightstour.Exists(-1, math.MaxInt, knightstour.Closed)
			knightstour.StartPossible(-1, 0, far, knightstour.Open)
			return nil
		}},
		{"Coordinate", func() error {
			_, err := far.Algebraic(3, 4)
			return wantErr(err)
		}},
		{"String of bad values", func() error {
			_, _, _, _ = knightstour.Kind(-7).String(), knightstour.Method(99).String(), knightstour.Sweep(-3).String(), knightstour.Move{}.String()
			return nil
		}},
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
