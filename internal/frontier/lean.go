package frontier

import (
	"errors"

	"github.com/euler1758/knightstour/internal/pool"
)

// The lean step: the workers add the new states to a hash table per group
// of the next layer as they go (table.go), a pass at a time.

// lean makes the next layer through hash tables, in as many passes as
// the memory limit asks for (passes.go); part, when not nil, is the
// passes done before the count was stopped, and the passes left.
func (s *stepper) lean(part *stepPart) error {
	r, k := s.r, s.r.k
	stride := k + 1
	groups := 1 << s.gbits
	tables := make([]table, groups)
	for i := range tables {
		tables[i].countBits, tables[i].k = 64-r.f.mixer.bits+s.gbits, k
	}
	// A pass is planned for tables at their fullest, just grown, with one
	// state in sixteen holding a wide count, beside the workers' staging
	// buffers at their largest.
	perState := float64(8+stride*8/16) * 16 / maxLoad * 3 / 2
	buckets := min(groups, maxStageBuckets)
	staging := int64(len(s.ws)) * int64(stageWords(buckets, k)) * 8
	s.perState, s.staging = perState, staging
	passes := []pass{{classes: allClasses, hi: groups, share: 1}}
	s.classes = &classifier{f: r.f}
	// Passes need cur whole to the end of the step: on disk.
	multi := s.canPass()
	room := float64(r.mem.limit - r.mem.held() - staging)
	if multi && room <= 0 {
		return r.memoryError(s.v, s.cur.n)
	}
	if part != nil {
		passes = s.resume(part)
	} else if need := float64(s.newStates()+1) * perState; multi && (room < need || r.cfg.passPart > 0) {
		share := room / need
		if r.cfg.passPart > 0 {
			share = r.cfg.passPart
		}
		var err error
		if passes, err = s.plan(share); err != nil {
			return err
		}
	}
	s.startPasses(part == nil)
	r.arena.sizeFor(s.est * stride)
	return s.run(passes, multi, func(p pass) (int, error) { return p.hi, s.leanPass(tables, p, !multi) })
}

// leanPass makes the part p of the next layer: it expands the states of
// cur in p's classes, keeping the new states of groups [p.lo, p.hi) in
// their tables, then packs the tables. freeCur lets it free cur as it
// goes, when the step is made in one pass.
func (s *stepper) leanPass(tables []table, p pass, freeCur bool) error {
	// Tables that hold a pass's states from the start spare it the moves
	// of growing; in one pass, with cur in memory, they start at half and
	// grow as cur is freed.
	expect := float64(s.newStates()>>s.gbits) * p.share
	size := int(expect * 16 / maxLoad * 23 / 20) // at 15% more states than the guess, they grow
	if freeCur {
		size = int(expect * 8 / maxLoad)
	}
	size = (size + pageWords) / pageWords * pageWords // whole pages: see space
	if s.final {
		size = 0 // the last square makes no states, only tours
	}
	base := len(s.out.groups)
	s.out.groups = append(s.out.groups, make([]group, p.hi-p.lo)...)
	err := s.fill(tables, p.lo, p.hi, base, size, func() error {
		// A range of groups after the first expands its classes again:
		// what it finds besides states was found already.
		return s.expand(freeCur, p.classes, p.lo == 0)
	})
	if err != nil {
		s.out.groups = s.out.groups[:base]
		return err
	}
	if s.out.parts != nil {
		s.out.parts.add(base, len(s.out.groups), p.classes)
	}
	return nil
}

// fill gives groups [lo, hi) of the next layer their tables, has feed add
// the new states to them through the workers' stagers, and packs them
// into the next layer's groups from base on.
func (s *stepper) fill(tables []table, lo, hi, base, size int, feed func() error) error {
	r, stride := s.r, s.r.k+1
	mine := tables[lo:hi]
	buckets, bshift := stageBuckets(hi - lo)
	// The staging buffers come from the kernel, counted here: on the Go
	// heap they were counted twice, here and as the runtime's (see
	// memory.runtime), 32 MiB of room a pass, and each pass left them as
	// garbage.
	words := stageWords(len(buckets), r.k)
	staging := int64(len(s.ws)) * int64(words) * 8
	if !r.mem.grab(staging) {
		r.mem.release(staging)
		return r.memoryError(s.v, s.cur.n)
	}
	defer r.mem.release(staging)
	bufs := make([][]uint64, len(s.ws))
	defer func() {
		for i, buf := range bufs {
			if w := s.ws[i]; w.lean != nil {
				w.lean.buf = nil // the stager is done with its pass
			}
			_ = freeWords(buf) // refused, the pages stay mapped: nothing to undo
		}
	}()
	for i := range bufs {
		var err error
		if bufs[i], err = allocWords(words); err != nil {
			return r.memoryError(s.v, s.cur.n)
		}
	}
	sp := newSpace(r.mem, size*len(mine))
	defer func() {
		for i := range mine {
			mine[i].free(sp)
		}
		sp.free()
	}()
	for i := range mine {
		slots, ok := sp.alloc(size)
		if !ok {
			return r.memoryError(s.v, s.cur.n)
		}
		mine[i].slots, mine[i].size = slots, size
	}
	for i, w := range s.ws {
		w.lean = newStager(mine, buckets, bshift, lo, r.f.mixer.bits-s.gbits, r.k, sp, bufs[i])
		w.buffered = nil
	}
	s.passes++
	if err := feed(); err != nil {
		if errors.Is(err, ErrMemoryLimit) {
			kept := 0
			for i := range mine {
				kept += mine[i].n
			}
			s.measureDrop(int64(kept))
		}
		return err
	}
	if s.final {
		return nil
	}
	return pool.Run(s.ctx, len(s.ws), hi-lo, func(wi, i int) error {
		t := &mine[i]
		return s.place(wi, base+i, t.n*stride, func(dense []uint64) { t.pack(dense, lo+i, r.f.mixer, sp) })
	})
}
