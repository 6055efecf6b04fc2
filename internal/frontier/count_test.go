package frontier

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCount(t *testing.T) {
	tests := []struct {
		cfg  Config
		want string
	}{
		{Config{Rows: 3, Cols: 4, Mode: FromStart, StartRow: 2}, "2"},
		{Config{Rows: 4, Cols: 7, Mode: FromStart, StartRow: 3}, "1682"},
		{Config{Rows: 5, Cols: 5, Mode: FromStart, StartRow: 4}, "304"},
		{Config{Rows: 5, Cols: 6, Mode: FreeEnds}, "37568"},
		{Config{Rows: 6, Cols: 6, Mode: Closed}, "19724"}, // A001230(6) = 9862 cycles, each in two directions
	}
	var got, want []string
	for _, tt := range tests {
		tt.cfg.Workers, tt.cfg.MemoryLimit = 2, 1<<30
		res, err := Count(context.Background(), tt.cfg)
		if err != nil {
			t.Fatalf("%+v: %v", tt.cfg, err)
		}
		got, want = append(got, res.Tours.String()), append(want, tt.want)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("counts (-want +got):\n%s", diff)
	}
}

func TestCountRefusesBadConfig(t *testing.T) {
	for _, cfg := range []Config{
		{Rows: 0, Cols: 4, Workers: 1, MemoryLimit: 1 << 20},
		{Rows: 4, Cols: 4, Workers: 0, MemoryLimit: 1 << 20},
		{Rows: 4, Cols: 4, Workers: 1},
		{Rows: 4, Cols: 4, Workers: 1, MemoryLimit: 1 << 20, StartRow: 4},
	} {
		if _, err := Count(context.Background(), cfg); err == nil {
			t.Errorf("%+v: no error", cfg)
		}
	}
	_, err := Count(context.Background(), Config{Rows: 9, Cols: 9, Workers: 1, MemoryLimit: 1 << 20})
	if !errors.Is(err, ErrTooWide) {
		t.Errorf("9x9: %v, want ErrTooWide", err)
	}
}

func TestModeString(t *testing.T) {
	got := []string{FromStart.String(), FreeEnds.String(), Closed.String(), Mode(7).String()}
	want := []string{"from a start", "free ends", "closed", "Mode(7)"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Mode.String (-want +got):\n%s", diff)
	}
}
