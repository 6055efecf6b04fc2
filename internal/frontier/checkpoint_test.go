package frontier

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/euler1758/knightstour/internal/filelock"
	"github.com/euler1758/knightstour/internal/frontier/compact"
	gocmp "github.com/google/go-cmp/cmp"
)

// interrupted runs cfg until about square stop, cancelling it there, and
// returns the error it stopped with.
func interrupted(t testing.TB, cfg Config, stop int) error {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg.afterStep = func(v, _ int) {
		if v+1 == stop {
			cancel()
		}
	}
	_, err := Count(ctx, cfg)
	return err
}

// copyCheckpoint copies the checkpoint ckpt and the files beside it to a
// directory of t's own and returns the copy's path, so that the subtests
// that damage a checkpoint each start from one stop instead of a count
// of their own.
func copyCheckpoint(t *testing.T, ckpt string) string {
	t.Helper()
	dir := t.TempDir()
	entries, err := os.ReadDir(filepath.Dir(ckpt))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(filepath.Dir(ckpt), e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, filepath.Base(ckpt))
}

// TestCheckpointResume stops counts part way, at the end of a column or
// in the middle of one, and checks that rerunning them gives the count of
// a run without a stop, and leaves nothing behind.
//
// The cases that differ from another only by the layers' form on disk, by
// the step or by the mode are for -tags exhaustive.
func TestCheckpointResume(t *testing.T) {
	t.Parallel() // a memory limit of 1 GiB, with room for the Go heap the counts beside it grow
	type stopped struct {
		cfg  Config
		stop int
	}
	mr, mc := middle()
	counts := []stopped{
		{Config{Rows: 5, Cols: 7, Mode: FreeEnds, AllLengths: true}, 12},
		{Config{Rows: 3, Cols: 45, Mode: FromStart, StartRow: 2}, 90},                                                          // two limbs
		{Config{Rows: mr, Cols: mc, Mode: FromStart, StartRow: mr - 1, Sweep: SweepNarrow, Lean: true, compact: true}, 4 * mr}, // at the end of a column
		{Config{Rows: 9, Cols: 3, Mode: FreeEnds, Sweep: SweepNarrow, Across: true, compact: true}, 14},                        // keys of 18 squares
	}
	if exhaustive {
		counts = append(counts,
			stopped{Config{Rows: 6, Cols: 6, Mode: FromStart, StartRow: 5}, 20},
			stopped{Config{Rows: 6, Cols: 6, Mode: FromStart, StartRow: 5, Lean: true, compact: true}, 24}, // at the end of a column
			stopped{Config{Rows: 6, Cols: 6, Mode: Closed, Shard: 1, Shards: 3}, 25},
			stopped{Config{Rows: 6, Cols: 6, Mode: FromStart, StartRow: 5, compact: true}, 20},
			stopped{Config{Rows: 6, Cols: 6, Mode: FromStart, StartRow: 5, Lean: true}, 24},
			stopped{Config{Rows: 3, Cols: 45, Mode: FromStart, StartRow: 2, compact: true}, 90},
			stopped{Config{Rows: 6, Cols: 6, Mode: FromStart, StartRow: 5, Sweep: SweepNarrow}, 21})
	}
	for _, tt := range counts {
		cfg := tt.cfg
		cfg.Workers, cfg.MemoryLimit = 2, 1<<30
		want := wholeCount(t, cfg)
		dir := t.TempDir()
		cfg.Checkpoint = filepath.Join(dir, "count.ckpt")
		if err := interrupted(t, cfg, tt.stop); !errors.Is(err, context.Canceled) {
			t.Fatalf("%dx%d: stopped with %v, want context.Canceled", cfg.Rows, cfg.Cols, err)
		}
		if _, err := os.Stat(cfg.Checkpoint); err != nil {
			t.Fatalf("%dx%d: no checkpoint after the stop: %v", cfg.Rows, cfg.Cols, err)
		}
		// As a count killed in a step made in passes, in writing a
		// checkpoint, or after it wrote a layer no checkpoint names yet,
		// leaves them (the last two as TestCrashAndConcurrency found).
		for _, stale := range []string{cfg.Checkpoint + ".7-run123-0", filepath.Join(dir, ".count.ckpt.123.tmp"),
			cfg.Checkpoint + ".934-1.layer", cfg.Checkpoint + ".935-0-after2.layer"} {
			if err := os.WriteFile(stale, []byte("unmerged states"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		// While another process holds the checkpoint, a count refuses it
		// and touches none of its files.
		before := dirState(t, dir)
		held, err := filelock.Acquire(cfg.Checkpoint, cfg.Checkpoint+".lock")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Count(context.Background(), cfg); !errors.Is(err, filelock.ErrHeld) {
			t.Errorf("%dx%d: a count on a checkpoint in use: %v, want ErrHeld", cfg.Rows, cfg.Cols, err)
		}
		held.Release()
		if diff := gocmp.Diff(before, dirState(t, dir)); diff != "" {
			t.Errorf("%dx%d: a refused count changed the checkpoint's files (-before +after):\n%s", cfg.Rows, cfg.Cols, diff)
		}
		got, err := Count(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if diff := gocmp.Diff(want.Tours.String(), got.Tours.String()); diff != "" {
			t.Errorf("%dx%d %v: resumed count (-whole +resumed):\n%s", cfg.Rows, cfg.Cols, cfg.Mode, diff)
		}
		if got.Resumed != tt.stop {
			t.Errorf("%dx%d: resumed after square %d, stopped at about %d", cfg.Rows, cfg.Cols, got.Resumed, tt.stop)
		}
		if diff := gocmp.Diff(want.States, got.States); diff != "" {
			t.Errorf("%dx%d %v: resumed states (-whole +resumed):\n%s", cfg.Rows, cfg.Cols, cfg.Mode, diff)
		}
		if left, _ := os.ReadDir(dir); len(left) != 0 {
			t.Errorf("%dx%d: %d files left after the count: %v", cfg.Rows, cfg.Cols, len(left), left[0].Name())
		}
	}
}

// TestCheckpointOrphansAtStart starts a count on a checkpoint that is not
// there yet, beside layer files a count killed before its first
// checkpoint left, and files that are not this count's: the count removes
// its orphans and leaves the rest.
func TestCheckpointOrphansAtStart(t *testing.T) {
	dir := t.TempDir()
	cfg := Config{Rows: 5, Cols: 5, Mode: FromStart, StartRow: 4, Workers: 2, MemoryLimit: 1 << 30,
		Checkpoint: filepath.Join(dir, "count.ckpt")}
	orphans := []string{"count.ckpt.3-0.layer", "count.ckpt.12-1-after2.layer"}
	others := []string{"count.ckpt.notes", "count.ckpt.x-0.layer", "other.ckpt.3-0.layer", "count.ckpt.3-0.layer.bak"}
	for _, name := range slices.Concat(orphans, others) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("states"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := Count(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	var left []string
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		left = append(left, e.Name())
	}
	if diff := gocmp.Diff(slices.Sorted(slices.Values(others)), left); diff != "" {
		t.Errorf("files left (-want +got):\n%s", diff)
	}
}

// dirState is the names and contents of the files in dir.
func dirState(t *testing.T, dir string) map[string]string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files[e.Name()] = string(b)
	}
	return files
}

// TestCheckpointKeepsPlan checks that a checkpoint records the most the
// merge buffers took and the scale of the passes' plans, that a count
// resumed from it starts from those, so that its first step's bins leave
// the merge buffers room and its passes are planned as the stopped
// count's would have been, and that values no count could have written
// are refused.
func TestCheckpointKeepsPlan(t *testing.T) {
	cfg := Config{Rows: 6, Cols: 6, Mode: FromStart, StartRow: 5, Workers: 2, MemoryLimit: 1 << 30}
	cfg.Checkpoint = filepath.Join(t.TempDir(), "count.ckpt")
	if err := interrupted(t, cfg, 24); !errors.Is(err, context.Canceled) {
		t.Fatalf("stopped with %v, want context.Canceled", err)
	}
	data, err := os.ReadFile(cfg.Checkpoint)
	if err != nil {
		t.Fatal(err)
	}
	body := data[:bytes.LastIndex(data, []byte("\ncrc32c"))]
	var m struct {
		MergeHigh int64 `json:"merge_high"`
	}
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatal(err)
	}
	if m.MergeHigh <= 0 {
		t.Fatalf("merge_high = %d after 24 buffered squares, want their merge buffers' most", m.MergeHigh)
	}
	load := func() (*manifest, *counter, error) {
		r := testCounter(t, cfg, 1)
		r.arena = &arena{mem: r.mem}
		defer r.arena.release()
		man, l, err := r.loadCheckpoint(context.Background())
		if l != nil {
			l.free(r.arena)
		}
		return man, r, err
	}
	man, _, err := load()
	if err != nil {
		t.Fatal(err)
	}
	if man.MergeHigh != m.MergeHigh {
		t.Errorf("loaded merge_high %d, written %d", man.MergeHigh, m.MergeHigh)
	}
	edit := func(field, value string) {
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(body, &fields); err != nil {
			t.Fatal(err)
		}
		fields[field] = json.RawMessage(value)
		edited, err := json.Marshal(fields)
		if err != nil {
			t.Fatal(err)
		}
		writeManifest(t, cfg.Checkpoint, edited)
	}
	edit("plan_scale", "2.5")
	if man, _, err = load(); err != nil || man.PlanScale != 2.5 {
		t.Fatalf("plan_scale 2.5: loaded %v, %v", man, err)
	}
	for _, bad := range []struct{ field, value string }{
		{"plan_scale", "-1"}, {"plan_scale", "4.5"}, {"plan_scale", "1e400"}, {"merge_high", "-8"},
	} {
		edit(bad.field, bad.value)
		if _, _, err := load(); !errors.Is(err, ErrCheckpoint) {
			t.Errorf("%s %s: loaded with %v, want ErrCheckpoint", bad.field, bad.value, err)
		}
	}
}

// TestCheckpointWidens checks that a count whose counts overflow their
// limbs goes on from its last checkpoint with wider ones, reading the
// layer there widened, rather than from the first square: with layers of
// raw entries and compact, with counts of every length, and with the
// square that overflows made in passes, whose checkpoint between passes
// must be dropped.
func TestCheckpointWidens(t *testing.T) {
	t.Parallel() // a memory limit of 1 GiB, with room for the Go heap the counts beside it grow
	counts := []Config{
		{Rows: 3, Cols: 45, Mode: FromStart, StartRow: 2, compact: true, AllLengths: true},
		// Every state kept: passes of some classes keep a state's
		// reflection only within its class, and make more states than a
		// count at once.
		{Rows: 3, Cols: 45, Mode: FromStart, StartRow: 2, Lean: true, passPart: 0.4, noMirror: true},
		// As 8 x n with free ends is counted: keys in base 11, a z-state
		// that names a colour, every length, compact layers in passes.
		{Rows: 3, Cols: 40, Mode: FreeEnds, Base11: true, compact: true, AllLengths: true, passPart: 0.4, noMirror: true},
	}
	if exhaustive {
		counts = append(counts,
			Config{Rows: 3, Cols: 45, Mode: FromStart, StartRow: 2},
			Config{Rows: 3, Cols: 45, Mode: FromStart, StartRow: 2, compact: true})
	}
	for _, cfg := range counts {
		cfg.Workers, cfg.MemoryLimit = 2, 1<<30
		want := wholeCount(t, cfg)
		dir := t.TempDir()
		cfg.Checkpoint = filepath.Join(dir, "count.ckpt")
		steps := 0
		cfg.afterStep = func(int, int) { steps++ }
		// Made again from the checkpoint, the count goes on from the
		// squares it holds: its progress never shows square 0 again.
		var mu sync.Mutex
		most, backToZero := 0, 0
		cfg.Every = time.Millisecond
		cfg.Progress = func(p Progress) {
			mu.Lock()
			defer mu.Unlock()
			if p.Squares == 0 && most > 0 {
				backToZero++
			}
			most = max(most, p.Squares)
		}
		got, err := Count(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		if backToZero > 0 {
			t.Errorf("%+v: progress showed square 0 %d times after square %d", cfg, backToZero, most)
		}
		mu.Unlock()
		if diff := gocmp.Diff(want.Tours.String(), got.Tours.String()); diff != "" {
			t.Errorf("%+v: widened count (-whole +widened):\n%s", cfg, diff)
		}
		if diff := gocmp.Diff(want.States, got.States); diff != "" {
			t.Errorf("%+v: widened states (-whole +widened):\n%s", cfg, diff)
		}
		if diff := gocmp.Diff(want.ByLength, got.ByLength, gocmp.Comparer(func(a, b *big.Int) bool { return a.Cmp(b) == 0 })); diff != "" {
			t.Errorf("%+v: widened counts by length (-whole +widened):\n%s", cfg, diff)
		}
		if n := cfg.Rows * cfg.Cols; steps > n+n/4 {
			t.Errorf("%+v: %d squares added for %d, want the count to go on from a checkpoint near the end", cfg, steps, n)
		}
		if want.Tours.BitLen() <= 64 {
			t.Errorf("%+v: %v tours, which one limb holds: nothing widened", cfg, want.Tours)
		}
		if got.Resumed != 0 {
			t.Errorf("%+v: resumed after square %d, never stopped", cfg, got.Resumed)
		}
		if left, _ := os.ReadDir(dir); len(left) != 0 {
			t.Errorf("%+v: %d files left after the count: %v", cfg, len(left), left[0].Name())
		}
	}
}

// TestResumeWideReadsOnce checks that a count resumed from a checkpoint
// whose counts have more than one limb reads and checks the checkpoint
// once: an attempt with one limb read it all only to find it too narrow,
// which on 8 rows cost a pass over 10 to 20 GB of layers at every resume.
func TestResumeWideReadsOnce(t *testing.T) {
	t.Parallel() // a memory limit of 1 GiB, with room for the Go heap the counts beside it grow
	for _, cfg := range []Config{
		{Rows: 3, Cols: 45, Mode: FromStart, StartRow: 2, compact: true, AllLengths: true},
		{Rows: 3, Cols: 40, Mode: FreeEnds, Base11: true, compact: true, AllLengths: true, passPart: 0.4, noMirror: true},
	} {
		cfg.Workers, cfg.MemoryLimit = 2, 1<<30
		want := wholeCount(t, cfg)
		cfg.Checkpoint = filepath.Join(t.TempDir(), "count.ckpt")
		stop := cfg.Rows*cfg.Cols - 2
		if err := interrupted(t, cfg, stop); !errors.Is(err, context.Canceled) {
			t.Fatalf("%+v: stopped with %v", cfg, err)
		}
		if m := readManifest(t, cfg.Checkpoint); m.Limbs < 2 || m.Squares != stop {
			t.Fatalf("%+v: a checkpoint after square %d with %d limbs, want %d with 2", cfg, m.Squares, m.Limbs, stop)
		}
		var loads []int
		cfg.onLoad = func(squares int) { loads = append(loads, squares) }
		got, err := Count(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if diff := gocmp.Diff([]int{stop}, loads); diff != "" {
			t.Errorf("%+v: squares of each checkpoint read (-want +got):\n%s", cfg, diff)
		}
		if diff := gocmp.Diff(want.Tours.String(), got.Tours.String()); diff != "" {
			t.Errorf("%+v: resumed count (-whole +resumed):\n%s", cfg, diff)
		}
		if got.Resumed != stop {
			t.Errorf("%+v: resumed after square %d, want %d", cfg, got.Resumed, stop)
		}
	}
}

// TestCheckpointAtTheCut stops a shard just before the square where the
// shards part, and just after, and checks that the resumed shard still
// counts only its part.
func TestCheckpointAtTheCut(t *testing.T) {
	t.Parallel() // a memory limit of 1 GiB, with room for the Go heap the counts beside it grow
	mr, mc := middle()
	cfg := Config{Rows: mr, Cols: mc, Mode: FromStart, StartRow: mr - 1, Shard: 2, Shards: 3, Workers: 2, MemoryLimit: 1 << 30}
	want := wholeCount(t, cfg)
	if want.ShardAt < 1 {
		t.Fatalf("the shards parted at %d", want.ShardAt)
	}
	for _, stop := range []int{want.ShardAt, want.ShardAt + 1} {
		cfg.Checkpoint = filepath.Join(t.TempDir(), "c")
		if err := interrupted(t, cfg, stop); !errors.Is(err, context.Canceled) {
			t.Fatalf("stopped with %v", err)
		}
		got, err := Count(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if got.Tours.Cmp(want.Tours) != 0 || got.ShardAt != want.ShardAt {
			t.Errorf("stopped after square %d: %v tours, parted at %d; want %v, %d", stop, got.Tours, got.ShardAt, want.Tours, want.ShardAt)
		}
	}
}

// TestCheckpointRefused checks that a checkpoint of another count, a torn
// or edited one, and one whose layer files changed or went are refused
// with ErrCheckpoint, never used.
func TestCheckpointRefused(t *testing.T) {
	base := Config{Rows: 6, Cols: 6, Mode: FromStart, StartRow: 5, Workers: 2, MemoryLimit: 1 << 30}
	tests := []struct {
		name   string
		damage func(t *testing.T, ckpt string)
		cfg    func(Config) Config
	}{
		{"another start", nil, func(c Config) Config { c.StartRow = 0; return c }},
		{"another board", nil, func(c Config) Config { c.Cols = 7; return c }},
		{"another mode", nil, func(c Config) Config { c.Mode = FreeEnds; return c }},
		{"another shard", nil, func(c Config) Config { c.Shard, c.Shards = 1, 2; return c }},
		{"another sweep", nil, func(c Config) Config { c.Sweep = SweepNarrow; return c }},
		{"across", nil, func(c Config) Config { c.Across = true; return c }},
		{"truncated", func(t *testing.T, ckpt string) { truncate(t, ckpt, 0.5) }, nil},
		{"empty", func(t *testing.T, ckpt string) { truncate(t, ckpt, 0) }, nil},
		{"edited", func(t *testing.T, ckpt string) { flip(t, ckpt, 30) }, nil},
		{"layer file changed", func(t *testing.T, ckpt string) { flip(t, layerFiles(t, ckpt)[0], 100) }, nil},
		{"layer file truncated", func(t *testing.T, ckpt string) { truncate(t, layerFiles(t, ckpt)[0], 0.9) }, nil},
		{"layer file gone", func(t *testing.T, ckpt string) { os.Remove(layerFiles(t, ckpt)[0]) }, nil},
		{"layer file in an unknown coding", func(t *testing.T, ckpt string) {
			data, err := os.ReadFile(ckpt)
			if err != nil {
				t.Fatal(err)
			}
			body, _, _ := bytes.Cut(data, []byte("\ncrc32c "))
			edited := bytes.Replace(body, []byte(`"order":"hash"`), []byte(`"order":"hash","coding":"zstd"`), 1)
			if bytes.Equal(edited, body) {
				t.Fatal("no layer file to edit")
			}
			writeManifest(t, ckpt, edited)
		}, nil},
	}
	stopped := filepath.Join(t.TempDir(), "c")
	stop := base
	stop.Checkpoint = stopped
	if err := interrupted(t, stop, 26); !errors.Is(err, context.Canceled) {
		t.Fatalf("stopped with %v", err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := base
			cfg.Checkpoint = copyCheckpoint(t, stopped)
			if tt.damage != nil {
				tt.damage(t, cfg.Checkpoint)
			}
			if tt.cfg != nil {
				cfg = tt.cfg(cfg)
			}
			_, err := Count(context.Background(), cfg)
			if !errors.Is(err, ErrCheckpoint) {
				t.Fatalf("resumed with %v, want ErrCheckpoint", err)
			}
			t.Log(err)
		})
	}
}

// layerFiles returns the checkpoint's layer files, the largest first (a
// worker may have written none: damage to an empty file changes nothing).
func layerFiles(t *testing.T, ckpt string) []string {
	t.Helper()
	files, _ := filepath.Glob(ckpt + ".*.layer")
	size := func(name string) int64 {
		st, err := os.Stat(name)
		if err != nil {
			return 0
		}
		return st.Size()
	}
	slices.SortFunc(files, func(a, b string) int { return cmp.Compare(size(b), size(a)) })
	if len(files) == 0 || size(files[0]) == 0 {
		t.Fatalf("no layer file with states: %v", files)
	}
	return files
}

func truncate(t *testing.T, name string, keep float64) {
	t.Helper()
	st, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(name, int64(float64(st.Size())*keep)); err != nil {
		t.Fatal(err)
	}
}

func flip(t *testing.T, name string, at int64) {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil || int64(len(data)) <= at {
		t.Fatalf("%s: %d bytes, %v", name, len(data), err)
	}
	data[at] ^= 0x04
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestDiskFull lets the disk run short in the middle of counts on disk:
// each stops with ErrDiskFull, and with a checkpoint the same count, given
// room again, resumes to the count of a run without a stop.
func TestDiskFull(t *testing.T) {
	type fills struct {
		cfg  Config
		full int // the square after which the disk is full
	}
	mr, mc := middle()
	counts := []fills{
		{Config{Rows: mr, Cols: mc, Mode: FromStart, StartRow: mr - 1}, 20},
		{Config{Rows: 6, Cols: 6, Mode: FromStart, StartRow: 5, Lean: true, MemoryLimit: 3 << 20, compact: true}, 22}, // in passes
	}
	if exhaustive {
		counts = append(counts, fills{Config{Rows: 6, Cols: 6, Mode: FromStart, StartRow: 5, Lean: true, MemoryLimit: 3 << 20}, 22})
	}
	for _, tt := range counts {
		cfg := tt.cfg
		cfg.Workers = 2
		if cfg.MemoryLimit == 0 {
			cfg.MemoryLimit = 1 << 30
		}
		want := wholeCount(t, Config{Rows: cfg.Rows, Cols: cfg.Cols, Mode: cfg.Mode, StartRow: cfg.StartRow, Workers: 2, MemoryLimit: 1 << 30})
		dir := t.TempDir()
		cfg.Checkpoint = filepath.Join(dir, "count.ckpt")
		full := false
		cfg.afterStep = func(v, _ int) { full = full || v+1 == tt.full }
		cfg.freeBytes = func(string) (int64, bool) {
			if full {
				return diskReserve - 1, true
			}
			return 1 << 40, true
		}
		if _, err := Count(context.Background(), cfg); !errors.Is(err, ErrDiskFull) {
			t.Fatalf("%dx%d: stopped with %v, want ErrDiskFull", cfg.Rows, cfg.Cols, err)
		}
		full, cfg.afterStep = false, nil
		got, err := Count(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if got.Resumed == 0 || got.Resumed > tt.full || got.Tours.Cmp(want.Tours) != 0 {
			t.Errorf("%dx%d: resumed after square %d (disk full after %d): %v tours, want %v", cfg.Rows, cfg.Cols, got.Resumed, tt.full, got.Tours, want.Tours)
		}
		if left, _ := os.ReadDir(dir); len(left) != 0 {
			t.Errorf("%dx%d: %d files left after the count: %v", cfg.Rows, cfg.Cols, len(left), left[0].Name())
		}
	}
}

// TestDiskFreeSeen checks that progress reports the free space the disk
// guard last found: none before it looks, or without a guard.
func TestDiskFreeSeen(t *testing.T) {
	cfg := Config{Rows: 5, Cols: 5, Mode: FromStart, StartRow: 4, Workers: 1, MemoryLimit: 1 << 30}
	f, err := newBoard(cfg.Rows, cfg.Cols, cfg.Sweep, false)
	if err != nil {
		t.Fatal(err)
	}
	r := newCounter(f, cfg)
	var got []int64
	got = append(got, r.snapshot(time.Now()).DiskFree) // no guard
	r.disk = newDiskGuard(filepath.Join(t.TempDir(), "c."), func(string) (int64, bool) { return 5 << 30, true })
	got = append(got, r.snapshot(time.Now()).DiskFree) // before it looks
	if err := r.disk.wrote(100); err != nil {
		t.Fatal(err)
	}
	got = append(got, r.snapshot(time.Now()).DiskFree)
	if diff := gocmp.Diff([]int64{0, 0, 5 << 30}, got); diff != "" {
		t.Errorf("DiskFree without a guard, before and after it looks (-want +got):\n%s", diff)
	}
}

// TestCheckpointRaw resumes from a checkpoint of format /1, whose layer
// files hold raw entries (what counts wrote before layers were compact):
// made here from a checkpoint of today's format by decoding its layer.
func TestCheckpointRaw(t *testing.T) {
	t.Parallel() // a memory limit of 1 GiB, with room for the Go heap the counts beside it grow
	cfg := Config{Rows: 6, Cols: 6, Mode: FromStart, StartRow: 5, Workers: 2, MemoryLimit: 1 << 30, compact: true}
	cfg, want, m, cur := stoppedAt(t, cfg, 20)
	// Write the layer again, raw, one file per file, and a manifest of
	// format /1 for it.
	raw := *m
	raw.Format, raw.Files, raw.Groups = checkpointFormatRaw, nil, nil
	var files []*os.File
	sizes := make([]int64, len(cur.files))
	crcs := make([]hash.Hash32, len(cur.files))
	for i := range cur.files {
		name := fmt.Sprintf("%s.raw%d", cfg.Checkpoint, i)
		f, err := os.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
		crcs[i] = crc32.New(castagnoli)
	}
	for _, g := range cur.groups {
		fi := slices.Index(cur.files, g.file)
		b := wordBytes(readGroup(t, g, m.Stride))
		files[fi].Write(b)
		crcs[fi].Write(b)
		raw.Groups = append(raw.Groups, [4]int64{int64(fi), sizes[fi] / 8, int64(g.words)})
		sizes[fi] += int64(len(b))
	}
	for i, f := range files {
		f.Close()
		raw.Files = append(raw.Files, fileSum{Name: filepath.Base(f.Name()), Size: sizes[i], CRC32C: crcs[i].Sum32()})
	}
	removeLayer(cur)
	body, err := json.Marshal(raw)
	if err != nil {
		t.Fatal(err)
	}
	body = bytes.ReplaceAll(body, []byte(`,0]`), []byte(`]`)) // [file, word offset, words]
	writeManifest(t, cfg.Checkpoint, body)
	resumedAt(t, cfg, want, 20)
}

// TestCheckpointOldLayers resumes from checkpoints whose compact layers
// are as older versions wrote them, made here from one of today's by
// writing its layer, which a lean step made in mix order with Rice
// blocks, again: in hash order with varint blocks, as format /2 has them
// all (before lean steps ordered theirs by mix), and in mix order with
// varint blocks, as format /3 had them before Rice blocks.
func TestCheckpointOldLayers(t *testing.T) {
	t.Parallel() // a memory limit of 1 GiB, with room for the Go heap the counts beside it grow
	for _, tt := range []struct {
		name string
		hash bool // hash order, format /2
	}{
		{"format 2", true},
		{"varint blocks", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg := Config{Rows: 6, Cols: 6, Mode: FromStart, StartRow: 5, Workers: 2, MemoryLimit: 1 << 30, Lean: true, compact: true}
			cfg, want, m, cur := stoppedAt(t, cfg, 20)
			for _, fs := range m.Files {
				if fs.Order != "mix" || fs.Coding != "rice" {
					t.Fatalf("a layer file in order %q and coding %q, want mix and rice: %+v", fs.Order, fs.Coding, m.Files)
				}
			}
			var files []*layerFile
			for i, lf := range cur.files {
				order := lf.order
				if tt.hash {
					order = compact.Order{} // by hash
				}
				old, err := createLayerFile(cfg.Checkpoint+".h", 19, i, 0, m.Stride, true, order, nil)
				if err != nil {
					t.Fatal(err)
				}
				old.coding = compact.Varint
				files = append(files, old)
			}
			var groups []group
			for _, g := range cur.groups {
				out, err := files[slices.Index(cur.files, g.file)].write(readGroup(t, g, m.Stride))
				if err != nil {
					t.Fatal(err)
				}
				groups = append(groups, out)
			}
			old := *m
			if tt.hash {
				old.Format = checkpointFormatHash
			}
			var recs *groupRecords
			var err error
			if old.Files, recs, err = recordLayer(files, func() []group { return groups }); err != nil {
				t.Fatal(err)
			}
			old.Groups, old.Kinds = recs.lists()
			for i := range old.Files {
				if old.Files[i].Coding != "" {
					t.Fatalf("a file of varint blocks recorded in coding %q", old.Files[i].Coding)
				}
				if tt.hash {
					old.Files[i].Order = "" // format /2 has none
				}
			}
			for _, lf := range files {
				lf.f.Close()
			}
			removeLayer(cur)
			body, err := json.Marshal(old)
			if err != nil {
				t.Fatal(err)
			}
			writeManifest(t, cfg.Checkpoint, body)
			resumedAt(t, cfg, want, 20)
		})
	}
}

// TestCheckpointKinds resumes from checkpoints whose groups' kinds
// (kindSet) are as the count wrote them, or left out as before they were
// recorded, to the count of a run without a stop; and refuses ones whose
// kinds no group of states could have.
func TestCheckpointKinds(t *testing.T) {
	t.Parallel() // a memory limit of 1 GiB, with room for the Go heap the counts beside it grow
	tests := []struct {
		name    string
		edit    func(kinds []uint64) []uint64
		refused bool
	}{
		{"as written", func(k []uint64) []uint64 { return k }, false},
		{"left out", func([]uint64) []uint64 { return nil }, false},
		{"one short", func(k []uint64) []uint64 { return k[1:] }, true},
		{"a position without a kind", func(k []uint64) []uint64 { k[0] &^= 7 << 8; return k }, true},
		{"past the window", func(k []uint64) []uint64 { k[0] |= 1 << 63; return k }, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rows, cols := middle()
			cfg := Config{Rows: rows, Cols: cols, Mode: FromStart, StartRow: rows - 1, Workers: 2, MemoryLimit: 1 << 30}
			cfg, want, m, cur := stoppedAt(t, cfg, 20)
			for _, lf := range cur.files {
				lf.f.Close()
			}
			if len(m.Kinds) != len(m.Groups) || slices.Contains(m.Kinds, 0) {
				t.Fatalf("the checkpoint records the kinds of %d of %d groups: %x", len(m.Kinds), len(m.Groups), m.Kinds)
			}
			m.Kinds = tt.edit(m.Kinds)
			body, err := json.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			writeManifest(t, cfg.Checkpoint, body)
			if !tt.refused {
				resumedAt(t, cfg, want, 20)
				return
			}
			if _, err := Count(context.Background(), cfg); !errors.Is(err, ErrCheckpoint) {
				t.Fatalf("resumed with %v, want ErrCheckpoint", err)
			} else {
				t.Log(err)
			}
		})
	}
}

// TestStoreManifest checks that a manifest whose groups are written a
// group at a time is what json.Marshal makes of it with the lists whole,
// with its CRC.
func TestStoreManifest(t *testing.T) {
	f0, f1 := new(layerFile), new(layerFile)
	gs := []group{
		{file: f0, off: 0, words: 4098, blocks: []int64{0, 2000, 3001}, kinds: 0x7777767},
		{}, // no states: not recorded
		{file: f1, off: 12, words: 2, kinds: 0x1777777777777777},
		{file: f0, off: 3001, words: 40, blocks: []int64{3001, 3018}, kinds: 0x6},
	}
	records := func(gs []group) *groupRecords {
		r := &groupRecords{groups: func() []group { return gs }, index: map[*layerFile]int64{f0: 0, f1: 1}}
		for _, g := range gs {
			r.known = r.known || g.kinds != 0
		}
		return r
	}
	noKinds := slices.Clone(gs)
	for i := range noKinds {
		noKinds[i].kinds = 0
	}
	step := func(r *groupRecords) *stepPart {
		return &stepPart{Square: 9, GroupBits: 4, Buffered: true, Positions: []int{2, 5}, Left: []passRecord{{Classes: 6, Hi: 16, Share: 0.5}},
			Passes: 1, Total: []uint64{1<<63 + 5}, Files: []fileSum{{Name: "c.9-0.layer", Size: 3041, CRC32C: 7}}, records: r}
	}
	tests := []struct {
		name string
		m    manifest
	}{
		{"lists and a step's", manifest{records: records(gs), Step: step(records(gs[1:]))}},
		{"no kinds", manifest{records: records(noKinds), Step: step(records(noKinds[:1]))}},
		{"no step", manifest{records: records(gs)}},
		{"no groups", manifest{records: records(nil), Step: step(records(nil))}},
		{"a step's lists made whole", manifest{records: records(gs), Step: &stepPart{Square: 9, Groups: [][4]int64{{0, 8, 3, 0}}, Kinds: []uint64{5}}}},
		{"nothing", manifest{}},
	}
	for _, tt := range tests {
		m := tt.m
		m.Format, m.Limbs, m.Stride, m.Squares, m.States, m.Total = checkpointFormat, 1, 2, 9, []int{1, 2, 3}, []uint64{1<<63 + 7}
		m.Files = []fileSum{{Name: "c.8-0.layer", Size: 3041, CRC32C: 9, Order: "mix"}}
		whole := m // the lists made whole, for json.Marshal
		if m.records != nil {
			whole.Groups, whole.Kinds = m.records.lists()
		}
		if m.Step != nil {
			step := *m.Step
			if step.records != nil {
				step.Groups, step.Kinds = step.records.lists()
			}
			whole.Step = &step
		}
		body, err := json.Marshal(&whole)
		if err != nil {
			t.Fatal(err)
		}
		want := string(fmt.Appendf(body, "\ncrc32c %08x\n", crc32.Checksum(body, castagnoli)))
		name := filepath.Join(t.TempDir(), "m")
		f, err := os.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if err := storeManifest(f, &m); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		got, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if diff := gocmp.Diff(want, string(got)); diff != "" {
			t.Errorf("%s: (-json.Marshal +storeManifest):\n%s", tt.name, diff)
		}
	}
}

// TestCheckpointCheckedProgress checks what a resumed count's progress
// says while it reads back the files beside its checkpoint, which on 8
// rows takes minutes: the squares and states of the checkpoint, and the
// share of the files' bytes checked, the demand filters' first and then
// the layers', from the first byte to the last.
func TestCheckpointCheckedProgress(t *testing.T) {
	cfg := Config{Rows: 5, Cols: 6, Mode: FromStart, Workers: 2, MemoryLimit: 1 << 30, compact: true}
	cfg.Checkpoint = filepath.Join(t.TempDir(), "count.ckpt")
	if err := interrupted(t, cfg, 12); !errors.Is(err, context.Canceled) {
		t.Fatalf("stopped with %v", err)
	}
	r := testCounter(t, cfg, 1)
	early, err := r.readManifest()
	if err != nil || early == nil {
		t.Fatalf("reading the checkpoint: %v", err)
	}
	r.resuming(early) // as count does, before it takes the demand filters
	demands := r.demandsBytes()
	vb := r.loadDemands(context.Background())
	if vb == nil || demands == 0 {
		t.Fatalf("no demand filters beside the checkpoint (%d bytes)", demands)
	}
	defer vb.free()
	type view struct {
		Squares, States int
		Checked         float64
		Bytes, OfAll    int64
	}
	at := func() view {
		p := r.snapshot(time.Now())
		return view{Squares: p.Squares, States: p.States, Checked: p.Checked, Bytes: r.checked.Load(), OfAll: r.toCheck.Load()}
	}
	size := demands + early.layerBytes()
	want := view{Squares: early.Squares, States: early.States[early.Squares-1], Checked: float64(demands) / float64(size), Bytes: demands, OfAll: size}
	if diff := gocmp.Diff(want, at()); diff != "" {
		t.Errorf("after reading the demand filters (-want +got):\n%s", diff)
	}
	m, cur, err := r.loadCheckpoint(context.Background())
	if err != nil || m == nil {
		t.Fatalf("loading the checkpoint: %v", err)
	}
	defer removeLayer(cur)
	var layers int64
	for _, lf := range cur.files {
		layers += lf.size
	}
	want.Checked, want.Bytes = 0, size // done: no share shown
	if diff := gocmp.Diff(want, at()); diff != "" || layers == 0 || layers != size-demands {
		t.Errorf("after checking %d bytes of layers (-want +got):\n%s", layers, diff)
	}
	r.checked.Store(size / 4)
	if p := r.snapshot(time.Now()); p.Checked != float64(size/4)/float64(size) {
		t.Errorf("a quarter of the bytes checked: progress says %v", p.Checked)
	}
}

// TestDemandsProgress checks the share of the demand passes that progress
// reports before the first square: half way through their 2(n-1) squares,
// and none once they are done, as after viability.
func TestDemandsProgress(t *testing.T) {
	cfg := Config{Rows: 5, Cols: 5, Mode: FromStart, Workers: 1, MemoryLimit: 1 << 30}
	r := testCounter(t, cfg, 0)
	r.demanded.Store(int64(r.f.n - 1))
	if p := r.snapshot(time.Now()); p.Demands != 0.5 {
		t.Errorf("half the demand passes done: progress says %v", p.Demands)
	}
	r.demanded.Store(0)
	if _, err := r.viability(context.Background(), r.f.packDemand(0, 0, r.firstZ())); err != nil {
		t.Fatal(err)
	}
	if got, want := r.demanded.Load(), int64(2*(r.f.n-1)); got != want {
		t.Errorf("after the demand passes: %d squares done, want %d", got, want)
	}
	if p := r.snapshot(time.Now()); p.Demands != 0 {
		t.Errorf("after the demand passes: progress says %v", p.Demands)
	}
}

// TestPassProgress checks the share of a pass that progress reports as
// the next pass begins: none, not the share of the pass before.
func TestPassProgress(t *testing.T) {
	cfg := Config{Rows: 5, Cols: 5, Mode: FromStart, Workers: 1, MemoryLimit: 1 << 30}
	r := testCounter(t, cfg, 0)
	r.beginPass(4, 5)
	r.pieces.Store(8)
	r.expanded.Store(8) // pass 4 done
	type view struct {
		Pass, Passes int
		Expanded     float64
	}
	var got []view
	p := r.snapshot(time.Now())
	got = append(got, view{p.Pass, p.Passes, p.Expanded})
	r.beginPass(5, 5)
	p = r.snapshot(time.Now())
	got = append(got, view{p.Pass, p.Passes, p.Expanded})
	want := []view{{4, 5, 1}, {5, 5, 0}}
	if diff := gocmp.Diff(want, got); diff != "" {
		t.Errorf("progress at the end of pass 4 and as pass 5 begins (-want +got):\n%s", diff)
	}
}

// TestResumeProgress checks the first report of a count that resumes: it
// comes before the count checks its checkpoint's files and finds its
// demands, and says the squares done there and the states after them,
// not "0 squares added".
func TestResumeProgress(t *testing.T) {
	cfg := Config{Rows: 5, Cols: 6, Mode: FromStart, StartRow: 4, Workers: 2, MemoryLimit: 1 << 30}
	cfg, want, m, cur := stoppedAt(t, cfg, 20)
	for _, lf := range cur.files {
		lf.f.Close() // the resumed count opens them again
	}
	var first *Progress
	cfg.Every = time.Hour
	cfg.Progress = func(p Progress) {
		if first == nil {
			first = &p
		}
	}
	got, err := Count(context.Background(), cfg)
	if err != nil || got.Tours.Cmp(want.Tours) != 0 {
		t.Fatalf("resumed: %v tours, %v; want %v", got, err, want.Tours)
	}
	type view struct{ Squares, States, Resumes int }
	if first == nil {
		t.Fatal("no report")
	}
	if diff := gocmp.Diff(view{m.Squares, m.States[m.Squares-1], m.Squares}, view{first.Squares, first.States, first.Resumes}); diff != "" {
		t.Errorf("the first report of the resumed count (-want +got):\n%s", diff)
	}
}

// TestLengthsProgress checks that a count of every length reports the
// tours of each shorter board once it has added its column: every report
// a prefix of the result's ByLength, the last with every shorter board,
// the first of a resumed count with the boards done in its checkpoint,
// and none from a shard, whose counts are parts.
func TestLengthsProgress(t *testing.T) {
	t.Parallel()
	base := Config{Rows: 5, Cols: 6, Mode: FreeEnds, AllLengths: true, Workers: 2, MemoryLimit: 1 << 30}
	resumed, want, m, cur := stoppedAt(t, base, 17) // 3 columns of 5 done
	for _, lf := range cur.files {
		lf.f.Close() // the resumed count opens them again
	}
	shard := base
	shard.Shard, shard.Shards = 1, 2
	tests := []struct {
		name      string
		cfg       Config
		first     int // lengths in the first report
		last      int // and in the last
		resumedAt int
	}{
		{"whole", base, 0, 5, 0},
		{"resumed", resumed, 3, 5, 17},
		{"shard", shard, 0, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var mu sync.Mutex
			var said [][]*big.Int
			cfg := tt.cfg
			cfg.Every = time.Millisecond
			cfg.Progress = func(p Progress) {
				mu.Lock()
				defer mu.Unlock()
				said = append(said, p.ByLength)
			}
			got, err := Count(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if tt.cfg.Shards > 1 {
				got = want // its own counts are a part; its reports say none
			}
			if got.Resumed != tt.resumedAt || m.Squares != 17 {
				t.Fatalf("resumed after %d squares, want %d", got.Resumed, tt.resumedAt)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(said) == 0 {
				t.Fatal("no report")
			}
			if n := len(said[0]); n != tt.first {
				t.Errorf("the first report has %d lengths, want %d", n, tt.first)
			}
			if n := len(said[len(said)-1]); n != tt.last {
				t.Errorf("the last report has %d lengths, want %d", n, tt.last)
			}
			for i, lengths := range said {
				if i > 0 && len(lengths) < len(said[i-1]) {
					t.Errorf("report %d has %d lengths, fewer than the one before", i, len(lengths))
				}
				if len(lengths) == 0 {
					continue
				}
				if diff := gocmp.Diff(got.ByLength[:len(lengths)], lengths, gocmp.Comparer(func(a, b *big.Int) bool { return a.Cmp(b) == 0 })); diff != "" {
					t.Fatalf("report %d (-result +reported):\n%s", i, diff)
				}
			}
		})
	}
}

// stoppedAt counts cfg whole, then again with a checkpoint in a directory
// of its own, stopped after square stop, and returns cfg with the
// checkpoint, the whole count, and the checkpoint's manifest and layer.
func stoppedAt(t *testing.T, cfg Config, stop int) (Config, *Result, *manifest, *layer) {
	t.Helper()
	want := wholeCount(t, cfg)
	cfg.Checkpoint = filepath.Join(t.TempDir(), "count.ckpt")
	if err := interrupted(t, cfg, stop); !errors.Is(err, context.Canceled) {
		t.Fatalf("stopped with %v", err)
	}
	r := testCounter(t, cfg, 1)
	m, cur, err := r.loadCheckpoint(context.Background())
	if err != nil || m == nil || m.Format != checkpointFormat {
		t.Fatalf("loading the checkpoint: %v", err)
	}
	return cfg, want, m, cur
}

// readGroup returns the entries of group g of a layer on disk.
func readGroup(t *testing.T, g group, stride int) []uint64 {
	t.Helper()
	entries := make([]uint64, g.words)
	var buf []byte
	for lo := 0; lo < g.words/stride; lo += chunkStates {
		piece := entries[lo*stride : min(g.words, (lo+chunkStates)*stride)]
		if err := g.file.readPiece(g, lo, piece, stride, &buf); err != nil {
			t.Fatal(err)
		}
	}
	return entries
}

// removeLayer closes and removes the files of l.
func removeLayer(l *layer) {
	for _, lf := range l.files {
		lf.f.Close()
		os.Remove(lf.f.Name())
	}
}

// writeManifest writes body, a manifest, to ckpt with its checksum.
func writeManifest(t *testing.T, ckpt string, body []byte) {
	t.Helper()
	body = fmt.Appendf(body, "\ncrc32c %08x\n", crc32.Checksum(body, castagnoli))
	if err := os.WriteFile(ckpt, body, 0o644); err != nil {
		t.Fatal(err)
	}
}

// resumedAt resumes cfg and checks that it went on after square stop to
// the count and states of want, and left nothing behind.
func resumedAt(t *testing.T, cfg Config, want *Result, stop int) {
	t.Helper()
	got, err := Count(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got.Resumed != stop || got.Tours.Cmp(want.Tours) != 0 || !slices.Equal(got.States, want.States) {
		t.Errorf("resumed after square %d: %v tours, states %v; want after %d, %v, %v", got.Resumed, got.Tours, got.States, stop, want.Tours, want.States)
	}
	if left, _ := os.ReadDir(filepath.Dir(cfg.Checkpoint)); len(left) != 0 {
		t.Errorf("%d files left after the count: %v", len(left), left[0].Name())
	}
}

// testCounter returns the counter a count of cfg would make, with k limbs
// a count: to read its checkpoint as the count would.
func testCounter(t testing.TB, cfg Config, k int) *counter {
	t.Helper()
	r := newCounter(mustBoard(t, cfg), cfg)
	r.k = k
	return r
}

func mustBoard(t testing.TB, cfg Config) *board {
	t.Helper()
	f, err := newBoard(cfg.Rows, cfg.Cols, cfg.Sweep, cfg.Across)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestResumeStops checks that a stop while a resumed count checks its
// checkpoint's layers and loads its demand filters ends the count as
// stopped, not as a bad checkpoint to be removed, and that the checkpoint
// then resumes to the whole count.
func TestResumeStops(t *testing.T) {
	cfg := Config{Rows: 5, Cols: 6, Mode: FromStart, StartRow: 4, Workers: 2, MemoryLimit: 1 << 30}
	stopped, want, m, cur := stoppedAt(t, cfg, 20)
	for _, lf := range cur.files {
		lf.f.Close()
	}
	if len(m.Files) == 0 {
		t.Fatal("the checkpoint names no layer files to check")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := testCounter(t, stopped, 1)
	if _, _, err := r.loadCheckpoint(ctx); !errors.Is(err, context.Canceled) || errors.Is(err, ErrCheckpoint) {
		t.Errorf("checking the layers after a stop: %v, want context.Canceled and not ErrCheckpoint", err)
	}
	if vb := r.loadDemands(ctx); vb != nil {
		vb.free()
		t.Errorf("the demand filters loaded after a stop")
	}
	if _, err := Count(ctx, stopped); !errors.Is(err, context.Canceled) {
		t.Errorf("a count resumed after a stop: %v, want context.Canceled", err)
	}
	got, err := Count(context.Background(), stopped)
	if err != nil {
		t.Fatal(err)
	}
	if diff := gocmp.Diff(want.Tours.String(), got.Tours.String()); diff != "" {
		t.Errorf("resumed count (-want +got):\n%s", diff)
	}
}

// TestCheckpointBeforePairs resumes a count from a start that has a pair
// (counter.pair) from the checkpoint of a count from the start alone, as
// counts before pairs wrote them: it goes on from the start alone, to the
// count and states of one never stopped; and a paired checkpoint is
// refused by a count from the start alone.
func TestCheckpointBeforePairs(t *testing.T) {
	cfg := Config{Rows: 5, Cols: 7, Mode: FromStart, StartRow: 4, Sweep: SweepNarrow, Workers: 2, MemoryLimit: 1 << 30}
	alone := cfg
	alone.noMirror = true
	want := wholeCount(t, alone)
	alone.Checkpoint = filepath.Join(t.TempDir(), "count.ckpt")
	if err := interrupted(t, alone, 20); !errors.Is(err, context.Canceled) {
		t.Fatalf("stopped with %v", err)
	}
	if readManifest(t, alone.Checkpoint).Job.Paired {
		t.Fatal("a count from the start alone wrote a paired checkpoint")
	}
	cfg.Checkpoint = alone.Checkpoint
	got, err := Count(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got.Tours.Cmp(want.Tours) != 0 || got.Resumed != 20 || !slices.Equal(got.States, want.States) {
		t.Errorf("resumed: %v tours from square %d, states %v; want %v from 20, %v", got.Tours, got.Resumed, got.States, want.Tours, want.States)
	}

	cfg.Checkpoint = filepath.Join(t.TempDir(), "paired.ckpt")
	if err := interrupted(t, cfg, 20); !errors.Is(err, context.Canceled) {
		t.Fatalf("stopped with %v", err)
	}
	if !readManifest(t, cfg.Checkpoint).Job.Paired {
		t.Fatal("a paired count wrote a checkpoint that does not say so")
	}
	alone.Checkpoint = cfg.Checkpoint
	if _, err := Count(context.Background(), alone); !errors.Is(err, ErrCheckpoint) {
		t.Errorf("a count from the start alone resumed a paired checkpoint: %v", err)
	}
}
