package frontier

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestLayerBytes checks what the compact layers of a count of keys in
// digits (9x3 with free ends, across) take on disk, stopped after a wide
// square: less where a buffered step groups them by mix than by hash, by
// about the 3 bits a difference that 61-bit mixes spare over 64-bit
// hashes.
func TestLayerBytes(t *testing.T) {
	t.Parallel() // a memory limit of 1 GiB, with room for the Go heap the counts beside it grow
	var perState [2]float64
	for i, hash := range []bool{false, true} {
		cfg := Config{Rows: 9, Cols: 3, Mode: FreeEnds, Sweep: SweepNarrow, Across: true, Workers: 2, MemoryLimit: 1 << 30, compact: true, hashGroups: hash}
		cfg.Checkpoint = filepath.Join(t.TempDir(), "c")
		if err := interrupted(t, cfg, 14); !errors.Is(err, context.Canceled) {
			t.Fatalf("stopped with %v", err)
		}
		m := readManifest(t, cfg.Checkpoint)
		var size int64
		for _, f := range m.Files {
			if f.Coding != "rice" {
				t.Errorf("hash %v: a layer file in coding %q, want rice", hash, f.Coding)
			}
			size += f.Size
		}
		perState[i] = float64(size) / float64(m.States[m.Squares-1])
		t.Logf("grouped by hash %v: %.3f bytes a state after square %d", hash, perState[i], m.Squares)
	}
	if saved := (perState[1] - perState[0]) * 8; saved < 2.5 || saved > 3.5 {
		t.Errorf("grouped by mix: %.2f bits a state fewer than by hash, want about 3", saved)
	}
}

// TestWiden checks that states read from a file of narrower counts gain
// zero limbs in place, the last state first.
func TestWiden(t *testing.T) {
	for _, tt := range []struct {
		from, stride int
		in, want     []uint64
	}{
		{2, 2, []uint64{1, 2, 3, 4}, []uint64{1, 2, 3, 4}},
		{2, 3, []uint64{1, 2, 3, 4, 9, 9}, []uint64{1, 2, 0, 3, 4, 0}},
		{2, 4, []uint64{1, 2, 3, 4, 5, 6, 9, 9, 9, 9, 9, 9}, []uint64{1, 2, 0, 0, 3, 4, 0, 0, 5, 6, 0, 0}},
		{3, 4, []uint64{1, 2, 3, 4, 5, 6, 9, 9}, []uint64{1, 2, 3, 0, 4, 5, 6, 0}},
	} {
		got := append([]uint64(nil), tt.in...)
		widen(got, tt.from, tt.stride)
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("widen(%v, %d, %d) (-want +got):\n%s", tt.in, tt.from, tt.stride, diff)
		}
	}
}
