package frontier

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"
)

// stoppedBetweenPasses runs cfg, made in passes with a checkpoint, until
// pass pass of the step adding square v is done, cancels it there, and
// returns the manifest it left.
func stoppedBetweenPasses(t *testing.T, cfg Config, v, pass int) *manifest {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg.afterPass = func(sq, passes int) {
		if sq == v && passes == pass {
			cancel()
		}
	}
	if _, err := Count(ctx, cfg); !errors.Is(err, context.Canceled) {
		t.Fatalf("%dx%d: stopped with %v, want context.Canceled", cfg.Rows, cfg.Cols, err)
	}
	m := readManifest(t, cfg.Checkpoint)
	if m.Step == nil || m.Step.Square != v || m.Step.Passes != pass || len(m.Step.Left) == 0 {
		t.Fatalf("%dx%d: stopped after pass %d of square %d, the checkpoint has %+v", cfg.Rows, cfg.Cols, pass, v+1, m.Step)
	}
	return m
}

// TestProgressAfterStop checks that a count stopped between the passes
// of a square reports, last, no pass under way: neither a pass nor how
// many the square planned, where it once said "pass 0 of 11".
func TestProgressAfterStop(t *testing.T) {
	cfg := Config{Rows: 4, Cols: 6, Mode: FromStart, StartRow: 3, Lean: true, passPart: 0.1,
		Workers: 2, MemoryLimit: 1 << 30, noMirror: true, Checkpoint: filepath.Join(t.TempDir(), "count.ckpt")}
	var mu sync.Mutex
	var last Progress
	var planned int
	cfg.Every = time.Millisecond
	cfg.Progress = func(p Progress) {
		mu.Lock()
		defer mu.Unlock()
		last, planned = p, max(planned, p.Passes)
	}
	stoppedBetweenPasses(t, cfg, 12, 1)
	mu.Lock()
	defer mu.Unlock()
	if diff := gocmp.Diff([2]int{0, 0}, [2]int{last.Pass, last.Passes}); diff != "" {
		t.Errorf("last progress of a count stopped between passes: pass and passes (-want +got):\n%s", diff)
	}
	if planned < 2 {
		t.Errorf("the count reported at most %d passes a square: want the square in passes", planned)
	}
}

func readManifest(t *testing.T, ckpt string) *manifest {
	t.Helper()
	data, err := os.ReadFile(ckpt)
	if err != nil {
		t.Fatal(err)
	}
	body, _, _ := cutLast(data)
	var m manifest
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatal(err)
	}
	return &m
}

// TestCheckpointBetweenPasses stops counts made in passes after a pass of
// a step, and checks that the rerun makes only the passes left, finds the
// count and the states of a run without a stop, and leaves nothing
// behind; the stop is made to leave the files of the passes done longer
// than the checkpoint says, as a stop in the middle of a pass does.
//
// Six of the cases are for -tags exhaustive.
func TestCheckpointBetweenPasses(t *testing.T) {
	type stopped struct {
		cfg     Config
		v, pass int   // stop after this pass of the step adding square v+1
		limit   int64 // the memory limit, if not 1 GiB
		// splits says that the step's classes and those of its layer's
		// groups split classes (partition), which the checkpoint must
		// keep.
		splits bool
	}
	counts := []stopped{
		{Config{Rows: 5, Cols: 6, Mode: FreeEnds, AllLengths: true, Lean: true, passPart: 0.4}, 14, 1, 0, false}, // at the end of a column
		// Planned as one pass that the limit cannot hold: the pass
		// narrows, and the groups it gave up are the passes left.
		{Config{Rows: 6, Cols: 6, Mode: FromStart, StartRow: 5, Sweep: SweepNarrow, passPart: 1.5}, 25, 1, 3 << 20, false},
		{Config{Rows: 4, Cols: 6, Mode: FromStart, StartRow: 3, Lean: true, passPart: 0.1}, 12, 1, 0, true},
		// Keys in digits, layers raw: a lean step's checkpoint between
		// passes once recorded the buffered step's grouping rule for them,
		// which resuming refused.
		{Config{Rows: 5, Cols: 6, Mode: FreeEnds, AllLengths: true, Lean: true, passPart: 0.4, Base11: true}, 14, 1, 0, false},
	}
	if exhaustive {
		counts = append(counts,
			// Buffered passes, one of a class split into ranges of groups:
			// the passes left must be buffered too.
			stopped{Config{Rows: 6, Cols: 6, Mode: FromStart, StartRow: 5, Sweep: SweepNarrow, passPart: 0.05}, 21, 3, 0, false},
			stopped{Config{Rows: 6, Cols: 6, Mode: FromStart, StartRow: 5, Lean: true, passPart: 0.3, compact: true}, 22, 2, 0, false},
			stopped{Config{Rows: 6, Cols: 6, Mode: Closed, Shard: 1, Shards: 3, Lean: true, passPart: 0.3}, 25, 1, 0, false},
			stopped{Config{Rows: 6, Cols: 6, Mode: FromStart, StartRow: 5, passPart: 0.3, compact: true}, 22, 2, 0, false},
			stopped{Config{Rows: 6, Cols: 6, Mode: FromStart, StartRow: 5, Lean: true, passPart: 0.3}, 20, 1, 0, false},
			stopped{Config{Rows: 6, Cols: 6, Mode: FromStart, StartRow: 5, Lean: true, Sweep: SweepNarrow, passPart: 0.3}, 21, 1, 0, false},
			stopped{Config{Rows: 5, Cols: 7, Mode: FreeEnds, AllLengths: true, passPart: 0.1}, 25, 3, 0, true})
	}
	for _, tt := range counts {
		cfg := tt.cfg
		// A step in passes of some classes keeps every state as it is, and
		// one in a single pass the lesser of a state and its reflection
		// (counter.mirror): the states after a square would depend on the
		// passes, which the whole count takes otherwise.
		cfg.Workers, cfg.MemoryLimit, cfg.noMirror = 2, 1<<30, true
		if tt.limit > 0 {
			cfg.MemoryLimit = tt.limit
		}
		want := wholeCount(t, Config{Rows: cfg.Rows, Cols: cfg.Cols, Mode: cfg.Mode, StartRow: cfg.StartRow,
			AllLengths: cfg.AllLengths, Shard: cfg.Shard, Shards: cfg.Shards, Sweep: cfg.Sweep, Workers: 2, MemoryLimit: 1 << 30, noMirror: true})
		dir := t.TempDir()
		cfg.Checkpoint = filepath.Join(dir, "count.ckpt")
		m := stoppedBetweenPasses(t, cfg, tt.v, tt.pass)
		if tt.splits && (len(m.Step.Splits) == 0 || m.Parts == nil || len(m.Parts.Splits) == 0) {
			t.Fatalf("%dx%d: stopped in square %d with splits %v, its layer's %+v: want both", cfg.Rows, cfg.Cols, tt.v+1, m.Step.Splits, m.Parts)
		}
		if m.Step.Buffered == cfg.Lean {
			t.Fatalf("%dx%d: a step of lean %v recorded as buffered %v", cfg.Rows, cfg.Cols, cfg.Lean, m.Step.Buffered)
		}
		for _, fs := range m.Step.Files {
			f, err := os.OpenFile(filepath.Join(dir, fs.Name), os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.Write([]byte("states of the pass under way"))
			f.Close()
		}
		var made []int
		cfg.afterPass = func(v, passes int) {
			if v == tt.v {
				made = append(made, passes)
			}
		}
		got, err := Count(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		name := cfg.Mode.String()
		if diff := gocmp.Diff(want.Tours.String(), got.Tours.String()); diff != "" {
			t.Errorf("%dx%d %s: resumed count (-whole +resumed):\n%s", cfg.Rows, cfg.Cols, name, diff)
		}
		if diff := gocmp.Diff(want.States, got.States); diff != "" {
			t.Errorf("%dx%d %s: resumed states (-whole +resumed):\n%s", cfg.Rows, cfg.Cols, name, diff)
		}
		var wantLengths, gotLengths []string
		for i := range want.ByLength {
			wantLengths = append(wantLengths, want.ByLength[i].String())
			gotLengths = append(gotLengths, got.ByLength[i].String())
		}
		if diff := gocmp.Diff(wantLengths, gotLengths); diff != "" {
			t.Errorf("%dx%d %s: resumed counts by length (-whole +resumed):\n%s", cfg.Rows, cfg.Cols, name, diff)
		}
		// The first pass made is numbered tt.pass+1, or higher when it
		// passed the memory limit and was dropped and made again (the
		// heap the limit counts varies with the garbage collector's
		// timing): never one of the passes done before the stop.
		if got.Resumed != tt.v || len(made) == 0 || made[0] <= tt.pass {
			t.Errorf("%dx%d %s: resumed after square %d, passes %v of square %d; want after %d, from pass %d",
				cfg.Rows, cfg.Cols, name, got.Resumed, made, tt.v+1, tt.v, tt.pass+1)
		}
		if left, _ := os.ReadDir(dir); len(left) != 0 {
			t.Errorf("%dx%d %s: %d files left after the count: %v", cfg.Rows, cfg.Cols, name, len(left), left[0].Name())
		}
	}
}

// TestStepPartKeepsGrouping checks that the passes left of a step stopped
// between passes group the new states as the passes done did
// (stepPart.Grouping), whatever the resumed count would choose: keys in
// digits here, grouped by the next step's classes while the layers are
// compact, by demand once they are raw, by mix alone and by hash as
// counts grouped compact ones before.
// The step is one whose classes are split into ranges of groups, where a
// pass left grouping otherwise misses states. For -tags exhaustive: the
// board needs 40 s.
func TestStepPartKeepsGrouping(t *testing.T) {
	if !exhaustive {
		t.Skip("for -tags exhaustive")
	}
	// In parallel, with a limit of 4 GiB: at 1 GiB, the demand passes of
	// 9 rows stopped at the limit, which counts the Go heap of the tests
	// running beside them too (memory.Budget.Watch).
	t.Parallel()
	base := Config{Rows: 9, Cols: 4, Mode: FreeEnds, Sweep: SweepNarrow, Across: true, Workers: 2, MemoryLimit: 4 << 30, noMirror: true}
	want := wholeCount(t, base)
	for _, tt := range []struct {
		compact, hash, own bool
		rule               groupingRule
	}{{true, false, false, groupsByNextClass}, {true, false, true, groupsByMix}, {false, false, false, groupsByDemand}, {true, true, false, groupsAsKeys}} {
		cfg := base
		cfg.passPart, cfg.compact, cfg.hashGroups, cfg.ownClasses = 0.05, tt.compact, tt.hash, tt.own
		cfg.Checkpoint = filepath.Join(t.TempDir(), "count.ckpt")
		const v = 22
		m := stoppedBetweenPasses(t, cfg, v, 1)
		if !m.Step.Buffered || groupingRule(m.Step.Grouping) != tt.rule {
			t.Fatalf("compact %v: the step under way is buffered %v, grouping %d; want buffered, grouping %d", tt.compact, m.Step.Buffered, m.Step.Grouping, tt.rule)
		}
		// Another rule, were the step made anew.
		switch {
		case tt.hash:
			cfg.hashGroups = false
		case tt.own:
			cfg.ownClasses = false
		default:
			cfg.compact = !tt.compact
		}
		cfg.afterPass = nil
		got, err := Count(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if got.Resumed != v {
			t.Errorf("compact %v: resumed after square %d, want %d", tt.compact, got.Resumed, v)
		}
		if diff := gocmp.Diff(want.Tours.String(), got.Tours.String()); diff != "" {
			t.Errorf("compact %v: resumed count (-whole +resumed):\n%s", tt.compact, diff)
		}
		if diff := gocmp.Diff(want.States, got.States); diff != "" {
			t.Errorf("compact %v: resumed states (-whole +resumed):\n%s", tt.compact, diff)
		}
	}
}

// TestStepPartRefused checks that a checkpoint between passes whose files
// of the passes done changed, went short or went is refused with
// ErrCheckpoint, and that so is one whose record of the passes left was
// forged (with its checksum made good again).
func TestStepPartRefused(t *testing.T) {
	t.Parallel() // a memory limit of 1 GiB, with room for the Go heap the counts beside it grow
	cfg := Config{Rows: 6, Cols: 6, Mode: FromStart, StartRow: 5, Workers: 2, MemoryLimit: 1 << 30, Lean: true, passPart: 0.3}
	partFile := func(t *testing.T, ckpt string) string {
		m := readManifest(t, ckpt)
		for _, fs := range slices.Backward(m.Step.Files) {
			if fs.Size > 200 {
				return filepath.Join(filepath.Dir(ckpt), fs.Name)
			}
		}
		t.Fatalf("no file of the step's passes with states: %+v", m.Step.Files)
		return ""
	}
	forge := func(edit func(*stepPart)) func(t *testing.T, ckpt string) {
		return func(t *testing.T, ckpt string) {
			m := readManifest(t, ckpt)
			edit(m.Step)
			body, err := json.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			writeManifest(t, ckpt, body)
		}
	}
	stopped := filepath.Join(t.TempDir(), "c")
	stop := cfg
	stop.Checkpoint = stopped
	stoppedBetweenPasses(t, stop, 21, 1)
	for _, tt := range []struct {
		name   string
		damage func(t *testing.T, ckpt string)
	}{
		{"file of a pass changed", func(t *testing.T, ckpt string) { flip(t, partFile(t, ckpt), 100) }},
		{"file of a pass truncated", func(t *testing.T, ckpt string) { truncate(t, partFile(t, ckpt), 0.9) }},
		{"file of a pass gone", func(t *testing.T, ckpt string) { os.Remove(partFile(t, ckpt)) }},
		{"another square", forge(func(p *stepPart) { p.Square++ })},
		{"no pass left", forge(func(p *stepPart) { p.Left = nil })},
		{"a pass outside the groups", forge(func(p *stepPart) { p.Left[0].Hi = 1<<p.GroupBits + 1 })},
		{"a position outside the window", forge(func(p *stepPart) { p.Positions[0] = 99 })},
		{"more states than its groups", forge(func(p *stepPart) { p.States++ })},
		{"a negative number of groups", forge(func(p *stepPart) { p.GroupBits = -1 })},
		{"an unknown grouping", forge(func(p *stepPart) { p.Grouping = 7 })},
		{"packed keys grouped as keys in digits", forge(func(p *stepPart) { p.Grouping = int(groupsByDemand) })},
		{"a file of the layer it expands", forge(func(p *stepPart) { p.Files[0].Name = "c.20-0.layer" })},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg := cfg
			cfg.Checkpoint = copyCheckpoint(t, stopped)
			tt.damage(t, cfg.Checkpoint)
			_, err := Count(context.Background(), cfg)
			if !errors.Is(err, ErrCheckpoint) {
				t.Fatalf("resumed with %v, want ErrCheckpoint", err)
			}
			t.Log(err)
		})
	}
}

// TestStepPartOfAnotherReflectionRule stops a count between the passes of
// a step that keeps reflections, with packed keys and with keys in
// digits, and checks that the rerun goes on from the passes done where
// they were made under this counter's rule of reflections, and makes the
// step again where under another (stepPart.Reflections), finding the
// count either way.
func TestStepPartOfAnotherReflectionRule(t *testing.T) {
	t.Parallel() // a memory limit of 1 GiB, with room for the Go heap the counts beside it grow
	const v = 21 // the fourth square of a column: rows 1, 3, 4 and 2 added
	for _, c := range []struct {
		name        string
		base11      bool
		rule, other int // the rule the count keeps reflections by, and the other key form's
	}{
		{"packed", false, packedReflectionRule, reflectionRule},
		{"digits", true, reflectionRule, packedReflectionRule},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			// keepCur: a step that gave back part of its layer cannot be
			// made again (TestGiveBackResumes).
			whole := Config{Rows: 6, Cols: 6, Mode: Closed, Sweep: SweepNarrow, Workers: 2, MemoryLimit: 1 << 30, Base11: c.base11}
			want := wholeCount(t, whole)
			cfg := whole
			cfg.passPart, cfg.keepCur = 0.3, true
			stopped := filepath.Join(t.TempDir(), "c")
			stop := cfg
			stop.Checkpoint = stopped
			if m := stoppedBetweenPasses(t, stop, v, 1); m.Step.Reflections != c.rule {
				t.Fatalf("a step that keeps reflections recorded rule %d, want %d", m.Step.Reflections, c.rule)
			}
			for _, tt := range []struct {
				rule      int
				firstPass int // the first pass the rerun makes
			}{{c.rule, 2}, {c.other, 1}, {1, 1}, {0, 1}} {
				cfg := cfg
				cfg.Checkpoint = copyCheckpoint(t, stopped)
				m := readManifest(t, cfg.Checkpoint)
				m.Step.Reflections = tt.rule
				body, err := json.Marshal(m)
				if err != nil {
					t.Fatal(err)
				}
				writeManifest(t, cfg.Checkpoint, body)
				var made []int
				cfg.afterPass = func(sq, passes int) {
					if sq == v {
						made = append(made, passes)
					}
				}
				got, err := Count(context.Background(), cfg)
				if err != nil {
					t.Fatal(err)
				}
				if got.Tours.Cmp(want.Tours) != 0 || len(made) == 0 || made[0] != tt.firstPass {
					t.Errorf("passes made under rule %d: %v tours, passes %v of the step; want %v, from pass %d", tt.rule, got.Tours, made, want.Tours, tt.firstPass)
				}
				if left, _ := os.ReadDir(filepath.Dir(cfg.Checkpoint)); len(left) != 0 {
					t.Errorf("passes made under rule %d: %d files left after the count: %v", tt.rule, len(left), left[0].Name())
				}
			}
		})
	}
}

// TestCheckpointKeepsParts stops a count made in passes after a square,
// and another between the passes of a square, and checks that their
// checkpoints record which classes the layers' groups hold (classParts),
// and that the resumed counts' passes still skip the groups without
// their classes and find the count and states of a run without a stop.
func TestCheckpointKeepsParts(t *testing.T) {
	t.Parallel() // a memory limit of 1 GiB, with room for the Go heap the counts beside it grow
	// Every state kept: passes of some classes keep a state's reflection
	// only where the two are of one class, and would make more states than
	// a count at once.
	cfg := Config{Rows: 5, Cols: 6, Mode: FromStart, StartRow: 4, Workers: 2, MemoryLimit: 1 << 30, Lean: true, passPart: 0.3, noMirror: true}
	want := wholeCount(t, cfg)
	for _, tt := range []struct {
		name string
		stop func(t *testing.T, cfg Config) *partsRecord
	}{
		{"after square 17", func(t *testing.T, cfg Config) *partsRecord {
			if err := interrupted(t, cfg, 17); !errors.Is(err, context.Canceled) {
				t.Fatalf("stopped with %v", err)
			}
			return readManifest(t, cfg.Checkpoint).Parts
		}},
		{"after pass 1 of square 18", func(t *testing.T, cfg Config) *partsRecord {
			return stoppedBetweenPasses(t, cfg, 17, 1).Step.Parts
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg := cfg
			cfg.Checkpoint = filepath.Join(t.TempDir(), "c")
			if rec := tt.stop(t, cfg); rec == nil || len(rec.Ranges) == 0 {
				t.Fatalf("the checkpoint records no classes of groups: %+v", rec)
			}
			var skipped atomic.Int64
			cfg.onSkip = func() { skipped.Add(1) }
			got, err := Count(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if got.Tours.Cmp(want.Tours) != 0 || !slices.Equal(got.States, want.States) {
				t.Errorf("resumed: %v tours, states %v; want %v, %v", got.Tours, got.States, want.Tours, want.States)
			}
			if skipped.Load() == 0 {
				t.Error("the resumed count's passes read every group")
			}
		})
	}
}

// TestPartsRecordLeavesOutEmptyGroups checks that the classes of groups
// a checkpoint records count only the groups it keeps, as recordLayer
// leaves out the empty ones: ranges counted over every group named groups
// past the resumed layer's end, and the resume was refused (a stop after
// the first pass of the third square of 5x6, where a pass made an empty
// group).
func TestPartsRecordLeavesOutEmptyGroups(t *testing.T) {
	full, empty := group{words: 3}, group{}
	for _, tt := range []struct {
		name   string
		groups []group
		ranges []classRange
		want   [][3]uint64
	}{
		{"no empty group", []group{full, full, full}, []classRange{{0, 1, 1}, {1, 3, 6}}, [][3]uint64{{0, 1, 1}, {1, 3, 6}}},
		{"an empty group first", []group{empty, full}, []classRange{{0, 1, 1}, {1, 2, 6}}, [][3]uint64{{0, 0, 1}, {0, 1, 6}}},
		{"an empty group inside a range", []group{full, empty, full, full}, []classRange{{0, 3, 1}, {3, 4, 6}}, [][3]uint64{{0, 2, 1}, {2, 3, 6}}},
		{"a range of empty groups", []group{full, empty, empty}, []classRange{{0, 1, 1}, {1, 3, 6}}, [][3]uint64{{0, 1, 1}, {1, 1, 6}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cp := &classParts{partition: partition{pos: []int{9}}, ranges: tt.ranges}
			got := cp.record(tt.groups)
			if diff := gocmp.Diff(tt.want, got.Ranges); diff != "" {
				t.Errorf("ranges (-want +got):\n%s", diff)
			}
		})
	}
}

// TestPartsRefused forges the classes of groups a checkpoint records,
// which passes trust to skip groups, and checks that the count refuses
// the checkpoint rather than skip states.
func TestPartsRefused(t *testing.T) {
	cfg := Config{Rows: 5, Cols: 6, Mode: FromStart, StartRow: 4, Workers: 2, MemoryLimit: 1 << 30, Lean: true, passPart: 0.3}
	stopped := filepath.Join(t.TempDir(), "c")
	stop := cfg
	stop.Checkpoint = stopped
	if err := interrupted(t, stop, 17); !errors.Is(err, context.Canceled) {
		t.Fatalf("stopped with %v", err)
	}
	for _, tt := range []struct {
		name  string
		forge func(m *manifest)
	}{
		{"a position that leaves", func(m *manifest) { m.Parts.Positions[0] = 0 }},
		{"a position outside the window", func(m *manifest) { m.Parts.Positions[0] = 99 }},
		{"a position twice", func(m *manifest) { m.Parts.Positions = []int{5, 5} }},
		{"four positions", func(m *manifest) { m.Parts.Positions = []int{3, 4, 5, 6} }},
		{"a range not from the first group", func(m *manifest) { m.Parts.Ranges[0][0] = 1 }},
		{"ranges short of the groups", func(m *manifest) { m.Parts.Ranges = m.Parts.Ranges[:len(m.Parts.Ranges)-1] }},
		{"ranges past the groups", func(m *manifest) { m.Parts.Ranges[len(m.Parts.Ranges)-1][1]++ }},
		{"a range of no class", func(m *manifest) { m.Parts.Ranges[0][2] = 0 }},
		{"a class past the positions'", func(m *manifest) { m.Parts.Ranges[0][2] = 1 << 40 }},
		{"a class past the splits'", func(m *manifest) { m.Parts.Splits = [][2]int{{0, 4}}; m.Parts.Ranges[0][2] = 1 << 40 }},
		{"a split of a class to come", func(m *manifest) { m.Parts.Splits = [][2]int{{60, 4}} }},
		{"a split by a position that leaves", func(m *manifest) { m.Parts.Splits = [][2]int{{0, 0}} }},
		{"a split by the class's own position", func(m *manifest) { m.Parts.Splits = [][2]int{{0, m.Parts.Positions[0]}} }},
		{"the step's done passes by other splits", func(m *manifest) {
			m.Step = &stepPart{Square: m.Squares, Positions: m.Parts.Positions, Splits: [][2]int{{0, 4}}, Left: []passRecord{{Classes: 1, Hi: 1}}, Passes: 1,
				Total: []uint64{0}, Parts: &partsRecord{Positions: m.Parts.Positions}}
		}},
		{"the step's done passes by other positions", func(m *manifest) {
			m.Step = &stepPart{Square: m.Squares, Positions: []int{3}, Left: []passRecord{{Classes: 1, Hi: 1}}, Passes: 1,
				Total: []uint64{0}, Parts: &partsRecord{Positions: []int{4}}}
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg := cfg
			cfg.Checkpoint = copyCheckpoint(t, stopped)
			m := readManifest(t, cfg.Checkpoint)
			if m.Parts == nil {
				t.Fatal("the checkpoint records no classes of groups")
			}
			tt.forge(m)
			body, err := json.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			writeManifest(t, cfg.Checkpoint, body)
			_, err = Count(context.Background(), cfg)
			if !errors.Is(err, ErrCheckpoint) {
				t.Fatalf("resumed with %v, want ErrCheckpoint", err)
			}
			t.Log(err)
		})
	}
}

// TestCheckpointEveryPass (with -tags exhaustive) stops a count after
// every pass but the last of every square made in passes, one stop per
// run, and checks that each resumed run finds the count of a run without
// a stop.
func TestCheckpointEveryPass(t *testing.T) {
	if !exhaustive {
		t.Skip("a run for every pass: with -tags exhaustive")
	}
	cfg := Config{Rows: 5, Cols: 6, Mode: FromStart, StartRow: 4, Workers: 2, MemoryLimit: 1 << 30, Lean: true, passPart: 0.3}
	want := wholeCount(t, Config{Rows: 5, Cols: 6, Mode: FromStart, StartRow: 4, Workers: 2, MemoryLimit: 1 << 30})
	// The passes of each square, from a run that records them.
	passes := map[int]int{}
	cfg.SpillDir = t.TempDir()
	cfg.afterPass = func(v, n int) { passes[v] = max(passes[v], n) }
	if _, err := Count(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	cfg.SpillDir = ""
	stops := 0
	for v := range cfg.Rows * cfg.Cols {
		for pass := 1; pass < passes[v]; pass++ {
			c := cfg
			c.Checkpoint = filepath.Join(t.TempDir(), "c")
			stoppedBetweenPasses(t, c, v, pass)
			c.afterPass = nil
			got, err := Count(context.Background(), c)
			if err != nil {
				t.Fatal(err)
			}
			if got.Tours.Cmp(want.Tours) != 0 || !slices.Equal(got.States, want.States) {
				t.Errorf("stopped after pass %d of square %d: %v tours, states %v; want %v, %v", pass, v+1, got.Tours, got.States, want.Tours, want.States)
			}
			stops++
		}
	}
	if stops < 20 {
		t.Errorf("only %d stops between passes: %v", stops, passes)
	}
	t.Logf("%d stops, each resumed to %v tours", stops, want.Tours)
}

// TestResumedPassesWriteFilesOfTheirOwn stops a count after the first
// pass of a square, resumes it and stops it again after the second: the
// files of the first pass keep the size the first checkpoint gave them
// (written once, compact), and the second pass's states are in files of
// their own.
func TestResumedPassesWriteFilesOfTheirOwn(t *testing.T) {
	t.Parallel() // a memory limit of 1 GiB, with room for the Go heap the counts beside it grow
	cfg := Config{Rows: 6, Cols: 6, Mode: FromStart, StartRow: 5, Workers: 2, MemoryLimit: 1 << 30, Lean: true, passPart: 0.3, compact: true}
	cfg.Checkpoint = filepath.Join(t.TempDir(), "c")
	first := stoppedBetweenPasses(t, cfg, 21, 1)
	second := stoppedBetweenPasses(t, cfg, 21, 2)
	sizes := map[string]int64{}
	for _, fs := range second.Step.Files {
		sizes[fs.Name] = fs.Size
	}
	for _, fs := range first.Step.Files {
		if sizes[fs.Name] != fs.Size {
			t.Errorf("%s: %d bytes after the first pass, %d after the second", fs.Name, fs.Size, sizes[fs.Name])
		}
		delete(sizes, fs.Name)
	}
	var after int64
	for name, size := range sizes {
		if !strings.Contains(name, "-after1.") {
			t.Errorf("a file %s of the second pass", name)
		}
		after += size
	}
	if after == 0 {
		t.Errorf("the second pass wrote no states to files of its own: %+v", second.Step.Files)
	}
}
