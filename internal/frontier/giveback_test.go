package frontier

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"
)

// TestCRCZeroed checks the CRC-32C of a message with a range of it
// zeroed, worked out from the message's CRC and the range's, against the
// CRC of the zeroed message.
func TestCRCZeroed(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tt := range []struct{ size, off, n int }{
		{1, 0, 1}, {2, 0, 1}, {2, 1, 1}, {100, 0, 100}, {100, 0, 37}, {100, 63, 37}, {100, 20, 30},
		{4096, 1000, 3000}, {1 << 20, 12345, 500000}, {1 << 20, 1<<20 - 1, 1},
	} {
		data := make([]byte, tt.size)
		for i := range data {
			data[i] = byte(rng.Uint32())
		}
		sum := crc32.Checksum(data, castagnoli)
		hole := crc32.Checksum(data[tt.off:tt.off+tt.n], castagnoli)
		clear(data[tt.off : tt.off+tt.n])
		want := crc32.Checksum(data, castagnoli)
		got := crcZeroed(sum, hole, int64(tt.n), int64(tt.size-tt.off-tt.n))
		if diff := gocmp.Diff(fmt.Sprintf("%08x", want), fmt.Sprintf("%08x", got)); diff != "" {
			t.Errorf("%d bytes, %d zeroed from %d: CRC (-zeroed +worked out):\n%s", tt.size, tt.n, tt.off, diff)
		}
	}
	for _, n := range []int64{0, 1, 7, 4096, 1 << 20} {
		if want, got := crc32.Checksum(make([]byte, n), castagnoli), crcOfZeros(n); want != got {
			t.Errorf("CRC of %d zero bytes: %08x, worked out %08x", n, want, got)
		}
	}
}

// TestMayGiveBack checks when a step may give back groups of its layer:
// not where a count could outgrow its limbs, nor where the layer's files
// hold narrower counts than the step's, read widened after an overflow.
func TestMayGiveBack(t *testing.T) {
	for _, tt := range []struct {
		name      string
		k, stride int // the count's limbs, and a file's words a state
		countBits int // of the file's largest count
		states    int
		total     []uint64
		want      bool
	}{
		{"small counts", 1, 2, 20, 1 << 20, []uint64{5}, true},
		{"at the bound", 1, 2, 63 - 2 - 21, 1 << 20, []uint64{5}, true},
		{"past the bound", 1, 2, 64 - 2 - 21, 1 << 20, []uint64{5}, false},
		{"totals past half", 1, 2, 20, 1 << 20, []uint64{1 << 63}, false},
		{"two limbs", 2, 3, 90, 1 << 30, []uint64{5, 7}, true},
		{"a file of narrower counts", 2, 2, 20, 1 << 20, []uint64{5, 0}, false},
		{"a file of unknown counts", 1, 2, 0, 1 << 20, []uint64{5}, false},
	} {
		r := &counter{k: tt.k}
		lf := &layerFile{stride: tt.stride, size: 100, countBits: tt.countBits}
		s := &stepper{r: r, cur: &layer{n: tt.states, files: []*layerFile{lf}}, total: tt.total}
		if got := s.mayGiveBack(); got != tt.want {
			t.Errorf("%s: may give back %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestWidensFirst checks that a count whose compact layers could give
// back no disk only because its counts could outgrow one limb widens them
// from its last checkpoint before the step, goes on giving disk back,
// and finds the counts of a count at once.
func TestWidensFirst(t *testing.T) {
	t.Parallel() // a memory limit of 1 GiB, with room for the Go heap the counts beside it grow
	cfg := Config{Rows: 3, Cols: 40, Mode: FreeEnds, Base11: true, compact: true, AllLengths: true, passPart: 0.4, noMirror: true,
		Workers: 2, MemoryLimit: 1 << 30}
	want := wholeCount(t, cfg)
	cfg.Checkpoint = filepath.Join(t.TempDir(), "count.ckpt")
	widened, gaveAfter := -1, int64(0)
	cfg.onWiden = func(v, k int) {
		if widened < 0 {
			widened = v
		}
	}
	cfg.onGiveBack = func(n int64) {
		if widened >= 0 {
			gaveAfter += n
		}
	}
	got, err := Count(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if diff := gocmp.Diff(countsOf(want), countsOf(got)); diff != "" {
		t.Errorf("counts (-at once +widened first):\n%s", diff)
	}
	if widened < 0 {
		t.Fatal("no step widened the counts first")
	}
	if punches(t, filepath.Dir(cfg.Checkpoint)) && gaveAfter == 0 {
		t.Errorf("widened before square %d, and gave back no disk after", widened+1)
	}
	t.Logf("widened before square %d of %d; %d bytes given back after", widened+1, cfg.Rows*cfg.Cols, gaveAfter)
}

// punches reports whether the file system of dir punches holes, where
// a step gives back the disk of its layer.
func punches(t *testing.T, dir string) bool {
	t.Helper()
	f, err := os.CreateTemp(dir, "probe")
	if err != nil {
		t.Fatal(err)
	}
	defer os.Remove(f.Name())
	defer f.Close()
	return canPunchHoles(f)
}

// TestGiveBack checks that counts whose steps are made in passes, their
// layers on disk, give back the disk of the groups their passes are done
// with and find the counts and states of a count at once, with layers
// raw and compact, lean and buffered.
func TestGiveBack(t *testing.T) {
	t.Parallel() // a memory limit of 1 GiB, with room for the Go heap the counts beside it grow
	for _, cfg := range []Config{
		{Rows: 5, Cols: 6, Mode: FreeEnds, AllLengths: true, passPart: 0.1, compact: true},
		{Rows: 5, Cols: 6, Mode: FreeEnds, AllLengths: true, passPart: 0.1, Base11: true, Lean: true},
		{Rows: 6, Cols: 5, Mode: FromStart, StartRow: 5, passPart: 0.1},
		// Keys in digits, compact: grouped by the next step's classes, in
		// groups of 64 states, enough of them for a group or more a class.
		{Rows: 5, Cols: 6, Mode: FreeEnds, AllLengths: true, passPart: 0.1, Base11: true, compact: true, groupStates: 64},
	} {
		name := fmt.Sprintf("%dx%d %v lean %v compact %v base 11 %v", cfg.Rows, cfg.Cols, cfg.Mode, cfg.Lean, cfg.compact, cfg.Base11)
		cfg.Workers, cfg.MemoryLimit, cfg.noMirror, cfg.SpillDir = 2, 1<<30, true, t.TempDir()
		want := wholeCount(t, cfg)
		var gave atomic.Int64
		cfg.onGiveBack = func(n int64) { gave.Add(n) }
		got, err := Count(context.Background(), cfg)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if diff := gocmp.Diff(countsOf(want), countsOf(got)); diff != "" {
			t.Errorf("%s: counts (-at once +in passes, giving back):\n%s", name, diff)
		}
		if got.Passes < 2 {
			t.Errorf("%s: at most %d passes a square, want several", name, got.Passes)
		}
		if punches(t, cfg.SpillDir) && gave.Load() == 0 {
			t.Errorf("%s: no disk given back", name)
		}
		t.Logf("%s: %d bytes given back, at most %d passes a square", name, gave.Load(), got.Passes)
	}
}

// TestGiveBackResumes stops a count after a pass that gave back part of
// the layer its step expands, and checks that the checkpoint lists the
// holes and the states given back, that the rerun goes on from there to
// the counts of a count at once, also where the holes were never punched
// (a stop between writing the checkpoint and punching them), and that a
// rerun that would make the step again (another rule of reflections) is
// refused rather than count without the groups given back.
func TestGiveBackResumes(t *testing.T) {
	t.Parallel() // a memory limit of 1 GiB, with room for the Go heap the counts beside it grow
	if !punches(t, t.TempDir()) {
		t.Skip("the file system punches no holes: nothing is given back")
	}
	type stopped struct {
		name string
		base Config
		rule groupingRule // of the step stopped
	}
	counts := []stopped{
		// Groups of 64 states: enough of them for a group or more a class.
		{"keys in digits", Config{Rows: 5, Cols: 6, Mode: FreeEnds, AllLengths: true, passPart: 0.1, compact: true, Base11: true, groupStates: 64}, groupsByNextClass},
	}
	if exhaustive {
		counts = append(counts, stopped{"keys in digits, longer", Config{Rows: 5, Cols: 7, Mode: FreeEnds, AllLengths: true, passPart: 0.1, compact: true, Base11: true, groupStates: 64}, groupsByNextClass})
		// Groups by the classes of the passes that made them.
		counts = append(counts, stopped{"packed keys", Config{Rows: 5, Cols: 7, Mode: FreeEnds, AllLengths: true, passPart: 0.1, compact: true}, groupsAsKeys})
	}
	for _, tt := range counts {
		t.Run(tt.name, func(t *testing.T) {
			base := tt.base
			base.Workers, base.MemoryLimit, base.noMirror = 2, 1<<30, true
			giveBackResumes(t, base, tt.rule)
		})
	}
}

func giveBackResumes(t *testing.T, base Config, rule groupingRule) {
	want := wholeCount(t, base)
	stop := func(t *testing.T, skipPunch bool) (Config, *manifest) {
		cfg := base
		cfg.Checkpoint, cfg.skipPunch = filepath.Join(t.TempDir(), "count.ckpt"), skipPunch
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var gave atomic.Int64
		cfg.onGiveBack = func(n int64) { gave.Add(n) }
		var before int64
		cfg.afterPass = func(v, _ int) { // after a pass that gave back some
			if g := gave.Load(); g > before && v >= 20 {
				cancel()
			}
			before = gave.Load()
		}
		if _, err := Count(ctx, cfg); !errors.Is(err, context.Canceled) {
			t.Fatalf("stopped with %v, want context.Canceled", err)
		}
		m := readManifest(t, cfg.Checkpoint)
		holes := 0
		for _, fs := range m.Files {
			holes += len(fs.Holes)
		}
		if m.Step == nil || m.Step.Freed <= 0 || holes == 0 {
			t.Fatalf("stopped after giving back %d bytes: the checkpoint's step %+v, %d holes; want states and holes given back", gave.Load(), m.Step, holes)
		}
		if groupingRule(m.Step.Grouping) != rule {
			t.Errorf("the step stopped groups its states by rule %d, want %d", m.Step.Grouping, rule)
		}
		cfg.afterPass, cfg.onGiveBack, cfg.skipPunch = nil, nil, false
		return cfg, m
	}
	for _, skip := range []bool{false, true} {
		t.Run(fmt.Sprintf("punched %v", !skip), func(t *testing.T) {
			cfg, m := stop(t, skip)
			got, err := Count(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if diff := gocmp.Diff(countsOf(want), countsOf(got)); diff != "" {
				t.Errorf("counts (-at once +resumed):\n%s", diff)
			}
			if got.Resumed != m.Squares {
				t.Errorf("resumed after square %d, want %d", got.Resumed, m.Squares)
			}
			if left, _ := os.ReadDir(filepath.Dir(cfg.Checkpoint)); len(left) != 0 {
				t.Errorf("%d files left after the count: %v", len(left), left[0].Name())
			}
		})
	}
	// The forged checkpoints are copies of one stopped count's, with
	// their checksums made good again: each must be refused.
	stopped, _ := stop(t, false)
	for _, tt := range []struct {
		name  string
		forge func(m *manifest)
	}{
		{"made again", func(m *manifest) { m.Step.Reflections++ }},
		{"a hole past the file", func(m *manifest) {
			for i := range m.Files {
				if len(m.Files[i].Holes) > 0 {
					m.Files[i].Holes[0][1] = m.Files[i].Size + 1
					return
				}
			}
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg := stopped
			cfg.Checkpoint = copyCheckpoint(t, stopped.Checkpoint)
			m := readManifest(t, cfg.Checkpoint)
			tt.forge(m)
			body, err := json.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			writeManifest(t, cfg.Checkpoint, body)
			if _, err := Count(context.Background(), cfg); !errors.Is(err, ErrCheckpoint) {
				t.Fatalf("resumed with %v, want ErrCheckpoint", err)
			} else {
				t.Log(err)
			}
		})
	}
}

// diskUsed returns the bytes the files of dir take on disk: holes take
// none.
func diskUsed(t *testing.T, dir string) int64 {
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Error(err)
		return 0
	}
	var used int64
	for _, e := range entries {
		if info, err := e.Info(); err == nil {
			used += blocksOf(info)
		}
	}
	return used
}

// TestDiskPeak measures, on the board KNIGHTSTOUR_DISKPEAK names ("8x6",
// "across 9x4", keys in digits, with free ends, every length along), what
// the layers of a count made in passes of a tenth of a layer, compact on
// disk, take on disk at most, against the largest two layers side by
// side, and how many states the passes read for each state of the
// layers: grouped by the classes of each step's own passes and kept
// whole to the step's end (as counts were before), given back by
// groups, and grouped by the classes of the next step's passes; each
// variant must find the counts of the first run.
func TestDiskPeak(t *testing.T) {
	board := os.Getenv("KNIGHTSTOUR_DISKPEAK")
	if board == "" {
		t.Skip("KNIGHTSTOUR_DISKPEAK names no board")
	}
	cfg := Config{Mode: FreeEnds, AllLengths: true, Base11: true}
	board, cfg.Across = strings.CutPrefix(board, "across ")
	cfg.AllLengths = !cfg.Across // across, the board's length is its columns' too
	if _, err := fmt.Sscanf(board, "%dx%d", &cfg.Rows, &cfg.Cols); err != nil {
		t.Fatalf("KNIGHTSTOUR_DISKPEAK=%q: %v", board, err)
	}
	// 4 GiB: the demand passes of 8x7 take more than 1.
	cfg.Workers, cfg.MemoryLimit, cfg.passPart, cfg.compact = 2, 4<<30, 0.1, true
	var want *Result // of the first variant run
	for _, v := range []struct {
		name                string
		ownClasses, keepCur bool
	}{{"own classes, kept whole", true, true}, {"own classes, given back", true, false}, {"next classes, given back", false, false}} {
		t.Run(v.name, func(t *testing.T) {
			cfg := cfg
			cfg.SpillDir, cfg.ownClasses, cfg.keepCur = t.TempDir(), v.ownClasses, v.keepCur
			var peak, read atomic.Int64
			var pairMax, last int64
			look := func() { peak.Store(max(peak.Load(), diskUsed(t, cfg.SpillDir))) }
			cfg.passMade = look
			cfg.afterStep = func(int, int) {
				used := diskUsed(t, cfg.SpillDir) // the new layer alone
				pairMax, last = max(pairMax, used+last), used
				look()
			}
			cfg.onRead = func(states int) { read.Add(int64(states)) }
			start := time.Now()
			got, err := Count(context.Background(), cfg)
			if err != nil {
				t.Fatalf("%s: %v", v.name, err)
			}
			if want == nil {
				want = got
			}
			if diff := gocmp.Diff(countsOf(want), countsOf(got)); diff != "" {
				t.Errorf("%s: counts (-first variant +this one):\n%s", v.name, diff)
			}
			t.Logf("%s: tours by length %v", v.name, got.ByLength)
			var states int64
			for _, n := range got.States {
				states += int64(n)
			}
			t.Logf("%s: at most %.1f MB on disk, %.2f of the largest two layers side by side (%.1f MB); %.2f states read a state; %.1f s",
				v.name, float64(peak.Load())/1e6, float64(peak.Load())/float64(pairMax), float64(pairMax)/1e6, float64(read.Load())/float64(states), time.Since(start).Seconds())
		})
	}
}

// TestRangesGroupByMix checks that a step whose passes make a class in
// ranges of the next layer's groups groups its states by mix alone, not
// by the next step's classes (whose groups a state of one class mostly
// cannot reach), and that the count stopped there goes on to the counts
// of a count at once.
func TestRangesGroupByMix(t *testing.T) {
	t.Parallel() // a memory limit of 1 GiB, with room for the Go heap the counts beside it grow
	cfg := Config{Rows: 5, Cols: 6, Mode: FreeEnds, AllLengths: true, passPart: 0.1, compact: true, Base11: true, groupStates: 64, noSplits: true,
		Workers: 2, MemoryLimit: 1 << 30, noMirror: true}
	stop := 18
	if exhaustive { // more passes, on a longer board
		cfg.Cols, cfg.passPart, stop = 7, 0.05, 20
	}
	want := wholeCount(t, cfg)
	cfg.Checkpoint = filepath.Join(t.TempDir(), "count.ckpt")
	m := stoppedBetweenPasses(t, cfg, stop, 1)
	ranges := 0
	for _, p := range m.Step.Left {
		if p.Lo != 0 || p.Hi != 1<<m.Step.GroupBits {
			ranges++
		}
	}
	if ranges == 0 || groupingRule(m.Step.Grouping) != groupsByMix {
		t.Fatalf("a step with %d passes of ranges of groups left grouped by rule %d, want some, grouped by %d", ranges, m.Step.Grouping, groupsByMix)
	}
	cfg.afterPass = nil
	got, err := Count(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if diff := gocmp.Diff(countsOf(want), countsOf(got)); diff != "" {
		t.Errorf("counts (-at once +resumed):\n%s", diff)
	}
}
