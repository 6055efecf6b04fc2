package frontier

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"io"
	"iter"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync/atomic"
)

// The manifest of a checkpoint: what it records of a count, and how it is
// written, a list of groups at a time, with its CRC.

// checkpointFormat names the manifest's format and the layout of the
// layers it points to; a change to either must change it. Format /1 named
// layers of raw entries, /2 compact ones (package compact) in hash order, /3
// gives each file's key order: a count still resumes from all three, and
// goes on with compact layers in the order of each step.
const (
	checkpointFormat     = "knightstour-frontier-checkpoint/3"
	checkpointFormatHash = "knightstour-frontier-checkpoint/2"
	checkpointFormatRaw  = "knightstour-frontier-checkpoint/1"
)

type manifest struct {
	Format string `json:"format"`
	Job    job    `json:"job"`
	// Limbs is the words per count, Stride the words per state.
	Limbs  int `json:"limbs"`
	Stride int `json:"stride"`
	// Squares is how many squares were added; States the states after
	// each of them.
	Squares int   `json:"squares"`
	States  []int `json:"states"`
	ShardAt int   `json:"shard_at"`
	// Followed is how many of the States[ShardAt-1] the shard followed.
	Followed int        `json:"kept,omitempty"`
	Total    []uint64   `json:"total"`
	ByLength [][]uint64 `json:"by_length"`
	Files    []fileSum  `json:"files"`
	// Groups lists the groups of the layer as [file, byte offset, words,
	// bytes], bytes 0 for raw entries (format /1: [file, word offset,
	// words], all raw).
	Groups [][4]int64 `json:"groups"`
	// Step, when not nil, is how far the next square got (a checkpoint
	// written between the passes of its step). Counts that do not know
	// it refuse the checkpoint, as an unknown field; counts that do
	// resume from checkpoints without it as before.
	Step *stepPart `json:"step,omitempty"`
	// Parts, when not nil, says which classes the layer's groups hold
	// (classParts), so that a resumed count's passes keep following them.
	// Like Step, it is unknown to counts before it, which refuse it.
	Parts *partsRecord `json:"parts,omitempty"`
	// MergeHigh is the most bytes the merge buffers of a step had taken
	// (counter.mergeHigh): a resumed count's bins leave room for them
	// from its first step on, which without it went past the limit by
	// the merge buffers (8x10 at -memory 17G: 0.4 GB). Like Step, it is
	// unknown to counts before it, which refuse it.
	MergeHigh int64 `json:"merge_high,omitempty"`
	// PlanScale is the scale the plans of buffered passes had learned
	// (counter.planScale): a resumed count plans its first steps as the
	// count stopped would have, where it started again from 1 and its
	// first steps dropped passes the scale had learned to avoid. Like
	// Step, it is unknown to counts before it, which refuse it.
	PlanScale float64 `json:"plan_scale,omitempty"`
	// Kinds, when not nil, is the kinds each of Groups holds (kindSet),
	// so that the passes of a resumed count's first step skip groups as
	// those of a count never stopped do. Like Step, it is unknown to
	// counts before it, which refuse it.
	Kinds []uint64 `json:"kinds,omitempty"`

	// records, when not nil, makes Groups and Kinds as storeManifest
	// writes them, which are then left nil.
	records *groupRecords
}

// partsRecord is a classParts as a checkpoint writes it: the window
// positions and splits of its partition, and for each range of groups
// [lo, hi) its classes. Splits are unknown to counts before them, which
// refuse a checkpoint that has them.
type partsRecord struct {
	Positions []int       `json:"positions"`
	Splits    [][2]int    `json:"splits,omitempty"`
	Ranges    [][3]uint64 `json:"ranges"`
}

// partition returns the partition rec records.
func (rec *partsRecord) partition() partition {
	return partition{pos: rec.Positions, splits: splitsOf(rec.Splits)}
}

// recordSplits returns splits as a checkpoint writes them: the class and
// the window position of each.
func recordSplits(splits []classSplit) [][2]int {
	var out [][2]int
	for _, s := range splits {
		out = append(out, [2]int{s.class, s.pos})
	}
	return out
}

// splitsOf returns the splits a checkpoint wrote as rec.
func splitsOf(rec [][2]int) []classSplit {
	var out []classSplit
	for _, s := range rec {
		out = append(out, classSplit{s[0], s[1]})
	}
	return out
}

// record returns cp as a checkpoint of the layer groups writes it, or
// nil for none. A checkpoint leaves out the empty groups (recordLayer),
// so the ranges count only the groups it keeps: a range past an empty
// group would otherwise name groups the resumed layer does not have.
func (cp *classParts) record(groups []group) *partsRecord {
	if cp == nil {
		return nil
	}
	kept := make([]uint64, len(groups)+1) // kept[g]: groups before g that hold states
	for g, gr := range groups {
		kept[g+1] = kept[g]
		if gr.words != 0 {
			kept[g+1]++
		}
	}
	rec := &partsRecord{Positions: cp.pos, Splits: recordSplits(cp.splits), Ranges: make([][3]uint64, 0, len(cp.ranges))}
	for _, r := range cp.ranges {
		rec.Ranges = append(rec.Ranges, [3]uint64{kept[r.lo], kept[r.hi], r.classes})
	}
	return rec
}

// A stepPart is the passes of a lean step that are done (passes.go), when
// the step is one in passes, its layer on disk: a checkpoint written
// after each pass lets a stopped count make only the passes left, instead
// of the whole square again (near the widest squares of 8x8 from the
// corner, half an hour in three passes). The new states of the passes
// done are in the files of the next layer it names; a stop in the middle
// of the following pass leaves those longer than it says, and a resumed
// count cuts them back.
type stepPart struct {
	Square    int `json:"square"`     // the square under way, the checkpoint's Squares
	GroupBits int `json:"group_bits"` // log2 of the next layer's groups
	// Buffered says that the passes are the buffered step's, whose groups
	// are by hash, not the lean step's, by mix: the passes left must be
	// made the same way, as a class split into ranges of groups is.
	Buffered  bool         `json:"buffered,omitempty"`
	Positions []int        `json:"positions"`        // the window positions that tell the classes
	Splits    [][2]int     `json:"splits,omitempty"` // and the splits of their partition, as partsRecord's
	Left      []passRecord `json:"left"`             // the passes still to make
	Passes    int          `json:"passes"`           // the passes made
	// Total and Cut are the tours the passes made found (Cut: of the
	// shorter board, with all lengths at the end of a column).
	Total    []uint64   `json:"total"`
	Cut      []uint64   `json:"cut,omitempty"`
	Followed int64      `json:"kept"`   // the states of the layer a shard followed
	States   int64      `json:"states"` // the new states the passes made
	Files    []fileSum  `json:"files"`
	Groups   [][4]int64 `json:"groups"` // as in manifest, in Files
	Kinds    []uint64   `json:"kinds,omitempty"`
	// Parts is the classes the done passes' groups hold, by Positions
	// (as manifest's), when the step records them.
	Parts *partsRecord `json:"parts,omitempty"`
	// Reflections is the rule by which the passes keep a state's
	// reflection in its place (reflectionRule), or 0 where the step keeps
	// none. A step resumed by a counter of another rule is made again:
	// its passes done and to come could each keep one of a state and its
	// reflection, and count them twice.
	Reflections int `json:"reflections,omitempty"`
	// Grouping is the rule by which the buffered step's passes group the
	// new states (groupingRule): the passes left group them the same way,
	// or they could make a state a pass done made already, in another
	// group, or miss one.
	Grouping int `json:"grouping,omitempty"`
	// Freed is the states of the layer the step expands whose groups it
	// gave back, as no pass left reads them (giveback.go): the layer's
	// groups in the checkpoint hold that many fewer states than its
	// count. Counts before it refuse a checkpoint that has it, as those
	// groups do not add up.
	Freed int64 `json:"freed,omitempty"`

	files   []*layerFile  // Files, open, once written or loaded
	groups  []group       // Groups, once loaded
	records *groupRecords // as manifest's
	parts   *classParts   // Parts, once loaded
}

// partition returns the partition of the step's classes.
func (p *stepPart) partition() partition {
	return partition{pos: p.Positions, splits: splitsOf(p.Splits)}
}

// passRecord is a pass as a checkpoint writes it.
type passRecord struct {
	Classes uint64  `json:"classes"`
	Lo      int     `json:"lo"`
	Hi      int     `json:"hi"`
	Share   float64 `json:"share"`
}

// close closes the files of p, if any.
func (p *stepPart) close() {
	if p != nil {
		for _, lf := range p.files {
			lf.f.Close()
		}
	}
}

// owns reports whether lf holds part of the step's new states.
func (p *stepPart) owns(lf *layerFile) bool { return p != nil && slices.Contains(p.files, lf) }

// job is what makes two counts the same count, as far as their states go.
type job struct {
	Rows       int    `json:"rows"`
	Cols       int    `json:"cols"`
	Mode       string `json:"mode"`
	StartRow   int    `json:"start_row"`
	StartCol   int    `json:"start_col"`
	AllLengths bool   `json:"all_lengths"`
	Base11     bool   `json:"base11"`
	AllDemands bool   `json:"all_demands"`
	EarlyStart bool   `json:"early_start"`
	Sweep      string `json:"sweep,omitempty"` // empty for SweepRows, as before sweeps
	Shard      int    `json:"shard"`
	Shards     int    `json:"shards"`
	ByteOrder  int    `json:"byte_order"`
	// Nibbles says that the keys are 16 nibbles that leave z out (boards
	// 8 wide by a narrow sweep): counts before them kept those states in
	// base 11.
	Nibbles bool `json:"nibbles,omitempty"`
	// Across says that the count's columns run along the board's shorter
	// side (Config.Across).
	Across bool `json:"across,omitempty"`
	// Paired says that the count is from a start and its reflection
	// until the start's column (counter.pair): its layers keep a state
	// and its reflection as one, and its totals count each tour twice.
	// Counts from a start before pairs did neither; a count resumes a
	// checkpoint of one of those as one (counter.unpair).
	Paired bool `json:"paired,omitempty"`
	// Halved says that the count is of the tours from the start whose
	// first move is in one half of its moves, and doubles its total
	// (diagonal.go). Counts before halving counted every tour; a count
	// resumes a checkpoint of one of those as one (counter.unhalve).
	Halved bool `json:"halved,omitempty"`
}

// String describes the count as a user would.
func (j job) String() string {
	s := fmt.Sprintf("%dx%d %s", j.Rows, j.Cols, j.Mode)
	if j.Mode == FromStart.String() {
		s += fmt.Sprintf(" {%d,%d}", j.StartRow, j.StartCol)
	}
	if j.Shards > 0 {
		s += fmt.Sprintf(", shard %d/%d", j.Shard, j.Shards)
	}
	for _, f := range []struct {
		on   bool
		name string
	}{{j.AllLengths, "all lengths"}, {j.Base11, "base 11"}, {j.Nibbles, "keys of 16 nibbles"}, {j.AllDemands, "all demands"}, {j.EarlyStart, "early start"}, {j.Across, "across"}, {j.Paired, "start paired with its reflection"}, {j.Halved, "half the first moves"}} {
		if f.on {
			s += ", " + f.name
		}
	}
	if j.Sweep != "" {
		s += ", sweep " + j.Sweep
	}
	if j.ByteOrder != nativeOrder() {
		s += ", another byte order"
	}
	return s
}

type fileSum struct {
	Name   string `json:"name"`
	Size   int64  `json:"size"`
	CRC32C uint32 `json:"crc32c"`
	// Order is the key order of the file's compact groups, "hash" or
	// "mix" (format /3; format /2 files are in hash order).
	Order string `json:"order,omitempty"`
	// Coding is how its compact blocks write their states: "rice", or
	// varints where there is none (files written before Rice blocks).
	Coding string `json:"coding,omitempty"`
	// Holes are the ranges of the file, [byte offset, bytes], whose disk
	// a step under way gave back (giveback.go): they read as zeros, as
	// Size and CRC32C count them, and no group lies in them. A count
	// punches them again before it checks the file, in case it stopped
	// after the checkpoint was written and before they were punched.
	Holes [][2]int64 `json:"holes,omitempty"`
	// CountBits is the bits of the largest count of a state in the file,
	// where known (giveBack).
	CountBits int `json:"count_bits,omitempty"`
}

// storeManifest writes m to the new file f, synced and closed, with its CRC in a
// trailer: the JSON json.Marshal gives, but with the lists of groups and
// their kinds, where m or its step has records, made and written a group
// at a time. On 8 rows they are millions long (3.4 million groups after a
// square of 8x11 from the corner made in 13 passes: a manifest of 145
// MB). Measured by throwaway tests on such a manifest, json.Marshal's
// buffers left the Go runtime holding 896 MB more (runtimeHeld), and
// making the lists first allocated 740 MB (TotalAlloc), which the count
// then kept through the next pass in its last step part; this allocates
// 1 MB. The limit did not see that memory: the bins of the passes after
// a checkpoint come from the pool, so nothing sampled the runtime. At
// -memory 17G (17,825,792 kB) 8x11 held 18,871,052 kB resident with
// neither fix and 18,223,412 kB with the first.
func storeManifest(f *os.File, m *manifest) error {
	defer f.Close()
	// The manifest without its lists, each marked by a stand-in that no
	// manifest holds, whose place the list then takes.
	type list struct {
		mark  string
		write func(w *bufio.Writer)
	}
	var lists []list
	head := *m
	var step stepPart
	if m.Step != nil {
		step = *m.Step
		head.Step = &step
	}
	for i, at := range []struct {
		groups *[][4]int64
		kinds  *[]uint64
		from   *groupRecords
	}{{&head.Groups, &head.Kinds, m.records}, {&step.Groups, &step.Kinds, step.records}} {
		if at.from == nil {
			continue
		}
		recs := at.from
		*at.groups = [][4]int64{{-1, -1, -1, int64(-1 - i)}}
		lists = append(lists, list{fmt.Sprintf(`"groups":[[-1,-1,-1,%d]]`, -1-i), func(w *bufio.Writer) {
			writeList(w, "groups", recs.records(), func(b []byte, g [4]int64) []byte {
				b = append(b, '[')
				for k, x := range g {
					if k > 0 {
						b = append(b, ',')
					}
					b = strconv.AppendInt(b, x, 10)
				}
				return append(b, ']')
			})
		}})
		*at.kinds = nil
		if recs.known {
			*at.kinds = []uint64{1<<63 + uint64(i)} // no kindSet: past every window
			lists = append(lists, list{fmt.Sprintf(`"kinds":[%d]`, uint64(1<<63)+uint64(i)), func(w *bufio.Writer) {
				writeList(w, "kinds", recs.kinds(), func(b []byte, k uint64) []byte { return strconv.AppendUint(b, k, 10) })
			}})
		}
	}
	body, err := json.Marshal(&head)
	if err != nil {
		return err
	}
	crc := crc32.New(castagnoli)
	// A buffer of 64 KiB, not more: a small count saves a checkpoint at
	// every square, and clearing a larger buffer each time cost more
	// than the writes it spares.
	w := bufio.NewWriterSize(io.MultiWriter(f, crc), 64<<10)
	for len(lists) > 0 {
		// The first stand-in left in body.
		first, at := 0, -1
		for i, l := range lists {
			if j := bytes.Index(body, []byte(l.mark)); j >= 0 && (at < 0 || j < at) {
				first, at = i, j
			}
		}
		if at < 0 {
			return fmt.Errorf("a list of the manifest has no place in it") // cannot happen
		}
		w.Write(body[:at])
		lists[first].write(w)
		body = body[at+len(lists[first].mark):]
		lists = slices.Delete(lists, first, first+1)
	}
	w.Write(body)
	if err := w.Flush(); err != nil {
		return err
	}
	if _, err := fmt.Fprintf(f, "\ncrc32c %08x\n", crc.Sum32()); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	return f.Close()
}

// writeList writes "key":[...] as json.Marshal does, each item by add.
func writeList[T any](w *bufio.Writer, key string, items iter.Seq[T], add func([]byte, T) []byte) {
	w.WriteString(`"` + key + `":[`)
	b := make([]byte, 0, 96)
	first := true
	for x := range items {
		b = b[:0]
		if !first {
			b = append(b, ',')
		}
		first = false
		w.Write(add(b, x))
	}
	w.WriteByte(']')
}

// recordLayer syncs files and returns their sizes and checksums, and the
// records of the groups that groups returns, as a checkpoint writes them.
// groups is read again when the manifest is written: it must return the
// same groups then.
func recordLayer(files []*layerFile, groups func() []group) ([]fileSum, *groupRecords, error) {
	var sums []fileSum
	recs := &groupRecords{groups: groups, index: map[*layerFile]int64{}}
	for _, lf := range files {
		if err := lf.f.Sync(); err != nil {
			return nil, nil, fmt.Errorf("frontier: checkpoint: %w", err)
		}
		recs.index[lf] = int64(len(sums))
		sums = append(sums, fileSum{Name: filepath.Base(lf.f.Name()), Size: lf.size, CRC32C: lf.crc, Order: lf.order.String(), Coding: lf.coding.String(), Holes: slices.Clone(lf.holes), CountBits: lf.countBits})
	}
	for _, g := range groups() {
		if g.words == 0 {
			continue
		}
		if _, ok := recs.index[g.file]; !ok {
			return nil, nil, fmt.Errorf("frontier: checkpoint: a layer in memory") // cannot happen: a checkpoint spills
		}
		recs.known = recs.known || g.kinds != 0
	}
	return sums, recs, nil
}

// settle gives p lists of its own for the records it has, which come
// from the groups of a step under way: a step that fails frees its
// groups before the count writes the checkpoint that holds p.
func (p *stepPart) settle() {
	if p == nil || p.records == nil {
		return
	}
	p.Groups, p.Kinds = p.records.lists()
	p.records = nil
}

// groupRecords is the groups of a layer on disk as a checkpoint writes
// them, made a group at a time while the manifest is written rather than
// held as lists (see storeManifest).
type groupRecords struct {
	groups func() []group
	index  map[*layerFile]int64 // a file's place in the manifest's Files
	known  bool                 // some group's kinds are known
}

// records yields each group with states as [file, byte offset, words,
// bytes], bytes 0 for raw entries.
func (r *groupRecords) records() iter.Seq[[4]int64] {
	return func(yield func([4]int64) bool) {
		for _, g := range r.groups() {
			if g.words == 0 {
				continue
			}
			size := int64(0) // raw
			if g.blocks != nil {
				size = g.blocks[len(g.blocks)-1] - g.off
			}
			if !yield([4]int64{r.index[g.file], g.off, int64(g.words), size}) {
				return
			}
		}
	}
}

// lists returns what records and kinds yield, kinds nil where no group's
// are known: the manifest's Groups and Kinds.
func (r *groupRecords) lists() ([][4]int64, []uint64) {
	groups := slices.AppendSeq([][4]int64{}, r.records()) // [] in JSON, as storeManifest writes it
	if !r.known {
		return groups, nil
	}
	return groups, slices.Collect(r.kinds())
}

// kinds yields the kinds of each group that records yields.
func (r *groupRecords) kinds() iter.Seq[uint64] {
	return func(yield func(uint64) bool) {
		for _, g := range r.groups() {
			if g.words != 0 && !yield(uint64(g.kinds)) {
				return
			}
		}
	}
}

// layerBytes is the bytes of the files of states the checkpoint names:
// its layer's and those of the passes of the step under way.
func (m *manifest) layerBytes() int64 {
	var n int64
	for _, fs := range m.Files {
		n += max(fs.Size, 0)
	}
	if m.Step != nil {
		for _, fs := range m.Step.Files {
			n += max(fs.Size, 0)
		}
	}
	return n
}

// A byteTally adds up the bytes written to it: those read so far, for
// progress.
type byteTally atomic.Int64

func (t *byteTally) Write(p []byte) (int, error) {
	(*atomic.Int64)(t).Add(int64(len(p)))
	return len(p), nil
}

// cutLast splits data into everything before its last line and that
// line, without its newline.
func cutLast(data []byte) (body []byte, last string, ok bool) {
	data, ok = bytes.CutSuffix(data, []byte("\n"))
	if !ok {
		return nil, "", false
	}
	i := bytes.LastIndexByte(data, '\n')
	if i < 0 {
		return nil, "", false
	}
	return data[:i], string(data[i+1:]), true
}
