package frontier

import (
	"bufio"
	"fmt"
	"os"
)

// A step made in passes (step.go) expands its layer only once: the first
// pass keeps the new states of its own groups in tables and writes those
// of the other groups, unmerged, to run files, one per later pass and
// worker; each later pass reads its runs back, in order, and adds them to
// its tables. Expanding a state costs far more than writing and reading
// its sixteen bytes, so a count that needs twice its memory takes about
// the time of one that fits, plus the disk. The runs take about the new
// states' size in bytes, unmerged, once per step, and are removed as soon
// as their pass is done.

// A runSet holds the new states of groups [lo, hi) of the next layer that
// the first pass wrote: one file per worker.
type runSet struct {
	lo, hi int
	files  []*runFile
}

// A runFile is one worker's run of one runSet.
type runFile struct {
	f    *os.File
	w    *bufio.Writer
	size int64 // bytes written
}

// runBuffer is the buffer of each run file being written.
const runBuffer = 1 << 18

// newRunSets creates the run files for the groups from lo on, span groups
// a set, for workers workers, named after prefix and square v.
func newRunSets(prefix string, v, lo, groups, span, workers int) ([]*runSet, error) {
	var sets []*runSet
	for a := lo; a < groups; a += span {
		set := &runSet{lo: a, hi: min(groups, a+span)}
		sets = append(sets, set)
		for wi := range workers {
			name := fmt.Sprintf("%s%d-run%d-%d", prefix, v, a, wi)
			f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o644)
			if err != nil {
				removeRunSets(sets)
				return nil, fmt.Errorf("frontier: spill: %w", err)
			}
			set.files = append(set.files, &runFile{f: f, w: bufio.NewWriterSize(f, runBuffer)})
		}
	}
	return sets, nil
}

// removeRunSets closes and deletes the files of sets.
func removeRunSets(sets []*runSet) {
	for _, set := range sets {
		set.remove()
	}
}

func (set *runSet) remove() {
	for _, rf := range set.files {
		rf.f.Close()
		os.Remove(rf.f.Name())
	}
	set.files = nil
}

// A runWriter is one worker's way into the run sets: it writes each state
// to its group's set.
type runWriter struct {
	sets  []*runSet // consecutive, from group sets[0].lo on, span groups each
	span  int
	wi    int
	entry []uint64
	guard *diskGuard
	err   error
}

// add writes a state of group g (of the whole layer) to its run.
func (rw *runWriter) add(g int, key uint64, val []uint64) {
	if rw.err != nil {
		return
	}
	set := rw.sets[(g-rw.sets[0].lo)/rw.span]
	rf := set.files[rw.wi]
	rw.entry[0] = key
	copy(rw.entry[1:], val)
	b := wordBytes(rw.entry)
	if err := rw.guard.wrote(len(b)); err != nil {
		rw.err = err
		return
	}
	if _, err := rf.w.Write(b); err != nil {
		rw.err = fmt.Errorf("frontier: spill: %w", err)
	}
	rf.size += int64(len(b))
}

// flush writes out the runs' buffers.
func (rw *runWriter) flush() error {
	if rw.err != nil {
		return rw.err
	}
	for _, set := range rw.sets {
		if err := set.files[rw.wi].w.Flush(); err != nil {
			return fmt.Errorf("frontier: spill: %w", err)
		}
	}
	return nil
}

// runPieces cuts the runs of set into pieces of up to chunkStates states.
func (set *runSet) pieces(stride int) []runPiece {
	var ps []runPiece
	step := int64(chunkStates * stride * 8)
	for _, rf := range set.files {
		for off := int64(0); off < rf.size; off += step {
			ps = append(ps, runPiece{rf, off, min(step, rf.size-off)})
		}
	}
	return ps
}

// A runPiece is a run of states of one run file: bytes [off, off+n).
type runPiece struct {
	rf     *runFile
	off, n int64
}

// read fills buf, of p.n bytes, with the piece's states.
func (p runPiece) read(buf []uint64) error {
	if _, err := p.rf.f.ReadAt(wordBytes(buf), p.off); err != nil {
		return fmt.Errorf("frontier: reading a run: %w", err)
	}
	return nil
}
