package frontier

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/euler1758/knightstour/internal/frontier/compact"
)

// A checkpoint lets a count of hours survive a stop. With
// Config.Checkpoint set, every layer goes to disk beside the checkpoint
// file (its name, a dot and the square and worker), and after the last
// square of every column, and when the count is cancelled, the count
// writes a manifest: which count this is, how far it got, and where the
// layer after that square lies, with the size and CRC-32C of each file.
// A square made in passes (passes.go) also gets a manifest after each of
// its passes, which adds the passes done and where their new states lie
// (stepPart): a stop then costs at most the pass under way.
// The manifest is written to a temporary file, synced and renamed over
// the last one, so that a stop at any moment leaves one whole checkpoint;
// it ends with its own CRC, so that a torn or edited one is refused. A
// count started with the same Config resumes from the checkpoint; when it
// finishes it removes the checkpoint and its files.

// loadParts checks rec, the parts of a layer of groups groups (a part of
// one, for a step's passes done), told by positions of the window before
// square v, and returns them. A record that is
// not one of this board's is refused: parts that lied would make passes
// skip groups holding their states.
func (r *counter) loadParts(rec *partsRecord, v, groups int, whole bool) (*classParts, error) {
	if rec == nil {
		return nil, nil
	}
	bad := func() error {
		return fmt.Errorf("classes of groups told by positions %v and splits %v in ranges %v", rec.Positions, rec.Splits, rec.Ranges)
	}
	pt := rec.partition()
	if len(rec.Positions) == 0 || !r.f.validPartition(v, pt) {
		return nil, bad()
	}
	classes := pt.count()
	cp := &classParts{partition: pt}
	next := uint64(0)
	for _, rg := range rec.Ranges {
		if rg[0] != next || rg[1] < rg[0] || rg[1] > uint64(groups) || rg[2] == 0 || rg[2] != allClasses && rg[2]>>classes != 0 {
			return nil, bad()
		}
		next = rg[1]
		cp.ranges = append(cp.ranges, classRange{int(rg[0]), int(rg[1]), rg[2]})
	}
	if whole && next != uint64(groups) || !whole && next > uint64(groups) {
		return nil, bad()
	}
	return cp, nil
}

// layerPrefix is how the files of a count's layers begin: in the spill
// directory, or beside the checkpoint, named after it.
func (r *counter) layerPrefix() string {
	if r.cfg.Checkpoint != "" {
		return r.cfg.Checkpoint + "."
	}
	return filepath.Join(r.cfg.SpillDir, "layer-")
}

// saveCheckpoint records that cur is the layer after square v (v+1
// squares added) and that total and byLength hold the tours found so far;
// part, when not nil, is how far the square after it got.
func (r *counter) saveCheckpoint(v int, cur *layer, total []uint64, part *stepPart) error {
	stride := r.k + 1
	for _, lf := range cur.files {
		if lf.stride != stride {
			// A layer from a checkpoint of narrower counts, read widened:
			// that checkpoint, still there, is the one to resume from.
			return nil
		}
	}
	m := manifest{Format: checkpointFormat, Job: r.job(), Limbs: r.k, Stride: stride, Squares: v + 1,
		States: r.states[:v+1], ShardAt: r.shardAt, Followed: r.followed, Total: total, ByLength: r.byLength, Step: part,
		Parts: cur.parts.record(cur.groups), MergeHigh: r.mergeHigh, PlanScale: float64(r.planScale)}
	var err error
	if m.Files, m.records, err = recordLayer(cur.files, func() []group { return cur.groups }); err != nil {
		return err
	}
	// Written under a name of its own beside the checkpoint, never a
	// user's file, and renamed over it once whole.
	f, err := os.CreateTemp(filepath.Dir(r.cfg.Checkpoint), "."+filepath.Base(r.cfg.Checkpoint)+".*.tmp")
	if err != nil {
		return fmt.Errorf("frontier: checkpoint: %w", err)
	}
	if err := storeManifest(f, &m); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("frontier: checkpoint: %w", err)
	}
	if err := os.Rename(f.Name(), r.cfg.Checkpoint); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("frontier: checkpoint: %w", err)
	}
	r.held = -1
	if part == nil {
		r.held = v
	}
	if d, err := os.Open(filepath.Dir(r.cfg.Checkpoint)); err == nil {
		d.Sync() // the rename, on disk
		d.Close()
	}
	// The new checkpoint holds: the files of the last one can go.
	for _, lf := range r.checkpointed {
		if !cur.owns(lf) && !part.owns(lf) {
			lf.checkpointed = false
			os.Remove(lf.f.Name())
		}
	}
	r.checkpointed = r.checkpointed[:0]
	for _, lf := range cur.files {
		lf.checkpointed = true
		r.checkpointed = append(r.checkpointed, lf)
	}
	if part != nil {
		for _, lf := range part.files {
			lf.checkpointed = true
			r.checkpointed = append(r.checkpointed, lf)
		}
	}
	// What writing the manifest left is garbage now: given back at once,
	// and the limit told, where there is enough of it to be worth a
	// collection that stops every goroutine (a small count checkpoints
	// every square, and its garbage the collector takes in its stride).
	if fi, err := os.Stat(r.cfg.Checkpoint); err == nil && fi.Size() >= bigManifest {
		debug.FreeOSMemory()
	}
	r.mem.SampleRuntime()
	return nil
}

// bigManifest is the size of a checkpoint's manifest from which the
// garbage writing it left (the records of the layer's groups, a few times
// the file) goes back to the kernel once it is written.
const bigManifest = 1 << 20

func (l *layer) owns(lf *layerFile) bool {
	for _, f := range l.files {
		if f == lf {
			return true
		}
	}
	return false
}

// readManifest reads the checkpoint's manifest, if there is one, and
// checks it against this count; it returns nil, nil where there is none.
// It opens none of the files the manifest names.
func (r *counter) readManifest() (*manifest, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w %s: %s", ErrCheckpoint, r.cfg.Checkpoint, fmt.Sprintf(format, args...))
	}
	// Only a regular file, and no larger than the memory the count may
	// take: a manifest is read whole (8x11: 145 MB), and a device or a
	// pipe given by mistake would be read for ever.
	st, err := os.Stat(r.cfg.Checkpoint)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("%w: %v", ErrCheckpoint, err)
	case !st.Mode().IsRegular():
		return nil, bad("not a regular file (%v)", st.Mode().Type())
	case st.Size() > r.cfg.MemoryLimit:
		return nil, bad("%d bytes, more than the memory limit of %d: not a checkpoint of a count this size", st.Size(), r.cfg.MemoryLimit)
	}
	data, err := os.ReadFile(r.cfg.Checkpoint)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCheckpoint, err)
	}
	body, trailer, ok := cutLast(data)
	var sum uint32
	if !ok || len(trailer) != len("crc32c 00000000") || !strings.HasPrefix(trailer, "crc32c ") {
		return nil, bad("no checksum at its end: torn or truncated")
	}
	if _, err := fmt.Sscanf(trailer, "crc32c %08x", &sum); err != nil || crc32.Checksum(body, castagnoli) != sum {
		return nil, bad("its checksum does not match: torn or changed")
	}
	var m manifest
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return nil, bad("%v", err)
	}
	raw := m.Format == checkpointFormatRaw
	switch want := r.job(); {
	case m.Format != checkpointFormat && m.Format != checkpointFormatHash && !raw:
		return nil, bad("format %q, this counter writes %q", m.Format, checkpointFormat)
	case m.Job != want && !r.resumesOlder(m.Job, want):
		return nil, bad("it is of another count (%v), not of this one (%v)", m.Job, want)
	case m.Limbs < 1 || m.Limbs&(m.Limbs-1) != 0 || m.Stride != m.Limbs+1:
		return nil, bad("%d limbs a count, %d words a state", m.Limbs, m.Stride)
	case m.Squares < 1 || m.Squares >= r.f.n || len(m.States) != m.Squares:
		return nil, bad("%d squares done of %d, with %d counts of states", m.Squares, r.f.n, len(m.States))
	case len(m.Total) != m.Limbs || len(m.ByLength) != r.f.l:
		return nil, bad("totals of the wrong size")
	case m.ShardAt < -1 || m.ShardAt >= m.Squares || m.ShardAt == 0:
		return nil, bad("shards parted at square %d", m.ShardAt)
	case m.Followed < 0 || m.ShardAt > 0 && m.Followed > m.States[m.ShardAt-1] || m.ShardAt < 0 && m.Followed != 0:
		return nil, bad("the shard followed %d states", m.Followed)
	case !(m.PlanScale >= 0 && m.PlanScale <= maxScale) || m.MergeHigh < 0:
		return nil, bad("a plan scale of %v, merge buffers of %d bytes", m.PlanScale, m.MergeHigh)
	}
	for _, b := range m.ByLength {
		if b != nil && len(b) != m.Limbs {
			return nil, bad("totals of the wrong size")
		}
	}
	return &m, nil
}

// loadCheckpoint reads the checkpoint, if there is one, and checks it
// against this count and the files it names. It returns nil, nil where
// there is no checkpoint.
func (r *counter) loadCheckpoint(ctx context.Context) (*manifest, *layer, error) {
	// The first load takes the manifest count read before the demand
	// passes (on 8 rows some 100 MB, not read and checked twice); nothing
	// writes the checkpoint in between. A count widened after an overflow
	// reads the checkpoint it wrote since.
	m, err := r.early, error(nil)
	first := m != nil
	r.early = nil
	if m == nil {
		m, err = r.readManifest()
	}
	if m == nil || err != nil {
		return nil, nil, err
	}
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w %s: %s", ErrCheckpoint, r.cfg.Checkpoint, fmt.Sprintf(format, args...))
	}
	raw := m.Format == checkpointFormatRaw
	// Progress counts the bytes read back: on the first load those of the
	// demand filters too, read just before (count).
	if !first {
		r.checked.Store(0)
	}
	size := r.checked.Load() + m.layerBytes()
	r.toCheck.Store(size)
	r.showResumed(m) // for progress while checking
	defer r.checked.Store(size)
	cur := &layer{n: m.States[m.Squares-1]}
	held := cur.n // less the states whose groups the step under way gave back
	if m.Step != nil {
		held -= int(m.Step.Freed)
	}
	if cur.files, cur.groups, err = r.openLayer(ctx, m.Files, m.Groups, m.Kinds, m.Stride, held, raw, false); err != nil {
		if ctx.Err() != nil {
			return nil, nil, ctx.Err() // a stop while checking, not a bad checkpoint
		}
		return nil, nil, bad("%v", err)
	}
	if cur.parts, err = r.loadParts(m.Parts, m.Squares, len(cur.groups), true); err != nil {
		for _, lf := range cur.files {
			lf.f.Close()
		}
		return nil, nil, bad("%v", err)
	}
	if m.Step != nil {
		if err := r.openPart(ctx, m, raw); err != nil {
			for _, lf := range cur.files {
				lf.f.Close()
			}
			if ctx.Err() != nil {
				return nil, nil, ctx.Err()
			}
			return nil, nil, bad("%v", err)
		}
	}
	return m, cur, nil
}

// openLayer opens the files of a layer of states that a checkpoint names,
// checks their sizes and checksums and the groups in them, and returns
// them. A part of a step's layer (part) may have files longer than the
// checkpoint says, from a pass it was stopped in: they are cut back.
func (r *counter) openLayer(ctx context.Context, sums []fileSum, recs [][4]int64, kinds []uint64, stride, states int, raw, part bool) (files []*layerFile, groups []group, err error) {
	defer func() {
		if err != nil {
			for _, lf := range files {
				lf.f.Close()
			}
		}
	}()
	dir, base := filepath.Dir(r.cfg.Checkpoint), filepath.Base(r.cfg.Checkpoint)
	for _, fs := range sums {
		if fs.Name != filepath.Base(fs.Name) || !strings.HasPrefix(fs.Name, base+".") {
			return files, nil, fmt.Errorf("it names a file %q that is not one of its layers", fs.Name)
		}
		// Read and written: the step's own files are cut back, and the
		// layer it expands gives back the disk of the groups its passes
		// are done with (giveback.go).
		f, err := os.OpenFile(filepath.Join(dir, fs.Name), os.O_RDWR, 0)
		if err != nil {
			return files, nil, err
		}
		h := crc32.New(castagnoli)
		lf := &layerFile{f: f, name: fs.Name, size: fs.Size, checkpointed: true, stride: stride, canPunch: canPunchHoles(f), countBits: fs.CountBits}
		for _, hole := range fs.Holes {
			if part || hole[0] < 0 || hole[1] <= 0 || hole[1] > fs.Size-hole[0] {
				return files, nil, fmt.Errorf("layer file %s has a hole of %d bytes at byte %d", fs.Name, hole[1], hole[0])
			}
			// Punched again: the count may have stopped after the
			// checkpoint listed the hole and before it was punched.
			// Where it cannot be (a file system that punches no holes),
			// the bytes must be zeros already, as the CRC tells.
			punchHole(f, hole[0], hole[1])
			lf.holes = append(lf.holes, hole)
		}
		switch fs.Order {
		case "", "hash": // format /2 (or raw)
		case "mix":
			lf.order = compact.MixOrder(&r.f.mixer)
		default:
			return files, nil, fmt.Errorf("layer file %s in key order %q", fs.Name, fs.Order)
		}
		switch fs.Coding {
		case "": // varints
		case "rice":
			lf.coding = compact.Rice
		default:
			return files, nil, fmt.Errorf("layer file %s in coding %q", fs.Name, fs.Coding)
		}
		files = append(files, lf)
		n, err := io.Copy(io.MultiWriter(h, (*byteTally)(&r.checked)), stoppable{ctx, io.LimitReader(f, fs.Size)})
		if err != nil {
			return files, nil, err
		}
		if n != fs.Size || h.Sum32() != fs.CRC32C {
			return files, nil, fmt.Errorf("layer file %s has %d bytes and CRC-32C %08x, the checkpoint says %d and %08x", fs.Name, n, h.Sum32(), fs.Size, fs.CRC32C)
		}
		lf.crc = fs.CRC32C
		if st, err := f.Stat(); err != nil || st.Size() != fs.Size {
			if !part {
				return files, nil, fmt.Errorf("layer file %s is longer than the checkpoint says", fs.Name)
			}
			if err := f.Truncate(fs.Size); err != nil {
				return files, nil, err
			}
		}
	}
	if kinds != nil && len(kinds) != len(recs) {
		return files, nil, fmt.Errorf("the kinds of %d groups for %d groups", len(kinds), len(recs))
	}
	n := 0
	for i, g := range recs {
		if raw {
			g[1] *= 8 // a word offset
		}
		rawGroup := g[3] == 0
		if rawGroup {
			g[3] = g[2] * 8
		}
		if g[0] < 0 || g[0] >= int64(len(files)) || g[1] < 0 || g[2] <= 0 || g[2]%int64(stride) != 0 ||
			g[3] <= 0 || g[1] > files[g[0]].size || g[3] > files[g[0]].size-g[1] || rawGroup && g[1]%8 != 0 {
			return files, nil, fmt.Errorf("a group %v outside its files", g)
		}
		gr := group{file: files[g[0]], off: g[1], words: int(g[2])}
		if !rawGroup {
			var err error
			if gr.blocks, err = gr.file.blockStarts(g[1], g[3], gr.words); err != nil {
				return files, nil, err
			}
		}
		if kinds != nil {
			if gr.kinds = kindSet(kinds[i]); !r.f.validKinds(gr.kinds) {
				return files, nil, fmt.Errorf("a group %v of kinds %#x, not those of any states", g, kinds[i])
			}
		}
		groups = append(groups, gr)
		n += int(g[2]) / stride
	}
	if n != states {
		return files, nil, fmt.Errorf("its groups hold %d states, not %d", n, states)
	}
	return files, groups, nil
}

// openPart checks m.Step, how far the square after m's layer got, and
// opens its files.
func (r *counter) openPart(ctx context.Context, m *manifest, raw bool) error {
	p := m.Step
	pt := p.partition()
	classes := pt.count()
	switch {
	case raw:
		return errors.New("a step in passes in a checkpoint of raw layers")
	case p.Square != m.Squares:
		return fmt.Errorf("the step under way adds square %d, not %d", p.Square+1, m.Squares+1)
	case p.GroupBits < 0 || p.GroupBits > maxGroupBits:
		return fmt.Errorf("a step of 2^%d groups", p.GroupBits)
	case len(p.Left) == 0 || p.Passes < 1:
		return fmt.Errorf("a step in passes (done: %d, left: %d)", p.Passes, len(p.Left))
	case len(p.Total) != m.Limbs || p.Cut != nil && len(p.Cut) != m.Limbs:
		return errors.New("a step's totals of the wrong size")
	case p.Followed < 0 || p.Followed > int64(m.States[m.Squares-1]) || p.States < 0:
		return fmt.Errorf("a step that followed %d states and made %d", p.Followed, p.States)
	case p.Freed < 0 || p.Freed > int64(m.States[m.Squares-1]):
		return fmt.Errorf("a step that gave back the groups of %d states of %d", p.Freed, m.States[m.Squares-1])
	case p.Grouping != int(groupsAsKeys) && (p.Grouping != int(groupsByDemand) && p.Grouping != int(groupsByMix) && p.Grouping != int(groupsByNextClass) || r.f.packed || !p.Buffered && p.Grouping != int(groupsByNextClass)):
		return fmt.Errorf("a step whose states are grouped by rule %d", p.Grouping)
	}
	if !r.f.validPartition(p.Square, pt) {
		return fmt.Errorf("classes told by window positions %v and splits %v", p.Positions, p.Splits)
	}
	// The step's files are its own: it cuts them back, which must not
	// touch the layer it expands.
	named := map[string]bool{}
	for _, fs := range slices.Concat(m.Files, p.Files) {
		if named[fs.Name] {
			return fmt.Errorf("it names the file %s twice", fs.Name)
		}
		named[fs.Name] = true
	}
	groups := 1 << p.GroupBits
	for _, ps := range p.Left {
		if ps.Lo < 0 || ps.Lo >= ps.Hi || ps.Hi > groups || ps.Classes == 0 ||
			ps.Classes != allClasses && classes < 64 && ps.Classes>>classes != 0 || !(ps.Share >= 0 && ps.Share <= 1) {
			return fmt.Errorf("a pass %+v of a step of %d groups and %d classes", ps, groups, classes)
		}
	}
	byNext := p.Grouping == int(groupsByNextClass)
	if byNext && p.Parts == nil {
		return errors.New("a step grouped by the next step's classes that records none")
	}
	if p.Parts != nil && !byNext && !p.Parts.partition().equal(pt) {
		return fmt.Errorf("a step's passes by positions %v and splits %v whose groups hold classes by %v and %v", p.Positions, p.Splits, p.Parts.Positions, p.Parts.Splits)
	}
	var err error
	if p.files, p.groups, err = r.openLayer(ctx, p.Files, p.Groups, p.Kinds, m.Stride, int(p.States), false, true); err != nil {
		return err
	}
	sq := p.Square // parts told as the step sees cur
	if byNext {
		sq++ // as the next step will see the layer
	}
	p.parts, err = r.loadParts(p.Parts, sq, len(p.groups), false)
	return err
}

// removeCheckpoint removes the checkpoint and the files it names, once
// the count is done.
func (r *counter) removeCheckpoint() {
	// The checkpoint first: a count killed in between leaves layer files
	// no checkpoint names, which the next count removes
	// (removeOrphanLayers), and never a checkpoint that names files gone.
	os.Remove(r.cfg.Checkpoint)
	for _, lf := range r.checkpointed {
		lf.checkpointed = false
		os.Remove(lf.f.Name())
	}
	r.checkpointed = nil
	os.Remove(r.demandsFile())
}

// removeStaleRuns deletes the run files that counts of earlier versions,
// which wrote a step's new states for its later passes, left beside their
// checkpoint when stopped in the middle of a step: no checkpoint names
// them.
func (r *counter) removeStaleRuns() {
	stale, _ := filepath.Glob(r.layerPrefix() + "*-run*-*")
	// And the manifests and demand filters a count killed while writing
	// one left: the lock this count holds says no one is writing them now.
	torn, _ := filepath.Glob(filepath.Join(filepath.Dir(r.cfg.Checkpoint), "."+filepath.Base(r.cfg.Checkpoint)+".*.tmp"))
	stale = append(stale, torn...)
	for _, name := range stale {
		os.Remove(name)
	}
}

// layerName matches the base name of a layer file after its prefix, as
// createLayerFile names it.
var layerName = regexp.MustCompile(`^[0-9]+-[0-9]+(-after[0-9]+)?\.layer$`)

// removeOrphanLayers deletes the layer files beside the checkpoint that
// it does not name: those of a count killed after it wrote a layer and
// before a checkpoint named it. The count that resumes need not write
// that layer again under the same names (it checkpoints at other
// squares), and nothing else would remove them. The lock this count
// holds says no one is writing them now.
func (r *counter) removeOrphanLayers() {
	if r.cfg.Checkpoint == "" {
		return
	}
	named := map[string]bool{}
	for _, lf := range r.checkpointed {
		named[lf.name] = true
	}
	// Read from the directory, not globbed: a checkpoint's name may hold
	// a pattern's characters.
	dir, prefix := filepath.Dir(r.cfg.Checkpoint), filepath.Base(r.layerPrefix())
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), prefix)
		if ok && layerName.MatchString(rest) && !named[e.Name()] {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// resuming readies the count to resume from the checkpoint m, read
// before the demand passes. Its progress says where it resumes from its
// first report on, not "0 squares added" while it checks and finds
// demands, and how much it has read of the files it reads back first:
// the demand filters (on 8 rows about 3 GB), then the layers.
func (r *counter) resuming(m *manifest) {
	r.resumeFrom, r.early = m.Squares, m
	r.showResumed(m)
	r.toCheck.Store(r.demandsBytes() + m.layerBytes())
}

// showResumed sets, for progress, the squares done in the checkpoint m
// and the states after them.
func (r *counter) showResumed(m *manifest) {
	r.done.Store(int64(m.Squares))
	r.last.Store(int64(m.States[m.Squares-1]))
	r.finishedLengths(m.Squares, m.ByLength)
}

// resumesOlder reports whether a checkpoint of the job old may be resumed
// by this count, whose job is want, made as a count before pairs or
// halving was (counter.unpair, counter.unhalve), and makes the count so
// if it may.
func (r *counter) resumesOlder(old, want job) bool {
	unpair, unhalve := want.Paired && !old.Paired, want.Halved && !old.Halved
	want.Paired, want.Halved = want.Paired && !unpair, want.Halved && !unhalve
	if old != want {
		return false
	}
	if unpair {
		r.unpair()
	}
	if unhalve {
		r.unhalve()
	}
	return true
}

func (r *counter) job() job {
	c := r.cfg
	j := job{Rows: c.Rows, Cols: c.Cols, Mode: c.Mode.String(), AllLengths: c.AllLengths, Base11: c.Base11,
		AllDemands: c.AllDemands, EarlyStart: c.EarlyStart, Shard: c.Shard, Shards: c.Shards, ByteOrder: nativeOrder(),
		Nibbles: r.f.packed && !r.f.zInKey, Across: c.Across, Paired: r.paired, Halved: r.halved()}
	if c.Mode == FromStart {
		j.StartRow, j.StartCol = c.StartRow, c.StartCol
	}
	if c.Sweep != SweepRows {
		j.Sweep = c.Sweep.String()
	}
	return j
}

// stoppable reads from r until ctx is done: checking a checkpoint's
// layers, or loading its demand filters, reads tens of gigabytes on the
// largest counts, and a stop (Ctrl-C) must not wait for the end of it.
type stoppable struct {
	ctx context.Context
	r   io.Reader
}

func (s stoppable) Read(p []byte) (int, error) {
	if err := s.ctx.Err(); err != nil {
		return 0, err
	}
	return s.r.Read(p)
}
