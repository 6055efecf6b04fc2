package frontier

import (
	"errors"

	"github.com/euler1758/knightstour/internal/frontier/memory"
	"github.com/euler1758/knightstour/internal/pool"
)

// The lean step: the workers add the new states to a hash table per group
// of the next layer as they go (table.go), a pass at a time.

// lean makes the next layer through hash tables, in as many passes as
// the memory limit asks for (passes.go); part, when not nil, is the
// passes done before the count was stopped, and the passes left.
func (s *stepper) lean(part *stepPart) (err error) {
	r, k := s.r, s.r.k
	stride := k + 1
	groups := 1 << s.gbits
	countBits := 64 - r.f.mixer.Bits() + s.gbits
	buckets := min(groups, maxStageBuckets)
	staging := int64(len(s.ws)) * int64(stageWords(buckets, k)) * 8
	// Passes need cur whole to the end of the step: on disk.
	multi := s.canPass()
	if !multi {
		r.mem.DropReserve() // no pass of this step takes it
	}
	room := float64(r.mem.Limit() - r.mem.Held() - staging)
	if multi && room <= 0 {
		return r.memoryError(s.v, s.cur.n)
	}
	wide, err := s.wideShare(countBits)
	if err != nil {
		return err
	}
	choose := chooseLayout
	if r.cfg.layout != nil {
		choose = r.cfg.layout
	}
	layout := choose(wide, s.newStates())
	if layout == fullCounts && !multi && float64(s.newStates()+1)*planBytes(fullCounts, k, wide) > room {
		layout = smallCounts // one pass, and only small counts might fit
	}
	if r.cfg.onLayout != nil {
		r.cfg.onLayout(s.v, layout)
	}
	tables := make([]table, groups)
	for i := range tables {
		tables[i].countBits, tables[i].k, tables[i].layout = countBits, k, layout
	}
	perState := planBytes(layout, k, wide)
	s.perState, s.staging, s.layout, s.wide = perState, staging, layout, wide
	passes := []pass{{classes: allClasses, hi: groups, share: 1}}
	s.classes = &classifier{f: r.f}
	if part != nil {
		passes = s.resume(part)
	} else if need := float64(s.newStates()+1) * perState; multi && (room < need || r.cfg.passPart > 0) {
		share := room / need
		if r.cfg.passPart > 0 {
			share = r.cfg.passPart
		}
		if passes, err = s.plan(share); err != nil {
			return err
		}
	}
	s.startPasses(part == nil)
	if s.next != nil && part == nil {
		s.out.parts = &classParts{partition: s.next.partition.clone()}
	}
	r.arena.sizeFor(s.est * stride)
	defer s.passOnSpace(&err)
	return s.run(passes, multi, func(p pass) (int, error) { return p.hi, s.leanPass(tables, p, !multi) })
}

// keepsSpace says whether a pass keeps its tables' memory for the next
// pass (memory.Space.Keep): where the step can be made in passes, whose
// new states go to disk as each table is packed, so that the memory the
// tables leave has nothing else to hold until the next pass takes it.
func (s *stepper) keepsSpace() bool { return s.canPass() }

// tableSpace returns the space for the tables of a pass whose first
// tables take words words, ready: the one the pass before kept, in this
// step or the last, or a new one.
func (s *stepper) tableSpace(words int) *memory.Space {
	sp := s.space
	if sp == nil {
		sp = s.r.mem.TakeReserve()
	}
	if sp == nil {
		sp = memory.NewSpace(s.r.mem, len(s.ws))
	}
	s.space = nil
	sp.Ready(s.ctx, words)
	return sp
}

// passOnSpace hands the space the last pass kept to the next step once
// the step is done (memory.Budget.Reserve), or unmaps it if the step
// failed (*err).
func (s *stepper) passOnSpace(err *error) {
	if s.space == nil {
		return
	}
	if *err == nil {
		s.r.mem.Reserve(s.space)
	} else {
		s.space.Free()
	}
	s.space = nil
}

// fullShare is the share of a step's new states with counts too wide for
// a slot of small counts from which its tables keep full counts. It is
// low: where the small counts take less memory, the passes they spare
// save less time than the wide counts cost, as each pass expands only its
// own states. On tables far larger than the processor's caches
// (BenchmarkLeanInsert) a state with a small count took 88 to 93 ns with
// small counts and 77 to 92 with full counts, at 12 and 24 bytes a state,
// but one with a wide count 315 to 385 ns and 35.6 bytes with small
// counts against 86 to 88 and 24 with full ones.
const fullShare = 0.25

// fullStates is the fewest new states for which a lean step's tables keep
// full counts: smaller tables are mostly in the processor's cache, where
// a wide count costs little more than a small one. 8x6 with free ends by
// the lean step in one pass (BenchmarkLeanLayouts: at most 2 million
// states, most counts wide in the last columns) took 16.9 to 18.5 s with
// small counts in every step and 18.5 to 20.3 s with full ones.
const fullStates = 1 << 22

// chooseLayout returns the layout of the tables of a lean step that makes
// states new states, wide the share of them with counts too wide for a
// slot of small counts.
func chooseLayout(wide float64, states int) countLayout {
	if wide >= fullShare && states >= fullStates {
		return fullCounts
	}
	return smallCounts
}

// planBytes returns the memory a lean pass plans for each new state in
// tables of layout l with counts of k limbs, where wide is the share of
// the new states with counts too wide for a slot of small counts: its
// slot and, with small counts, its wide count (at least one in sixteen),
// in tables at their fullest, just grown.
func planBytes(l countLayout, k int, wide float64) float64 {
	bytes := float64(8 * (1 + k))
	if l == smallCounts {
		bytes = 8 + float64(8*(1+k))*max(wide, 1.0/16)
	}
	return bytes * 16 / maxLoad * 3 / 2
}

// wideShare returns the share of the step's new states whose counts
// should outgrow a slot of small counts, countBits bits: by a sample of
// cur, those of cur's states with counts of more than countBits-2 bits, as
// a new state's count adds up the counts of the states that make it.
func (s *stepper) wideShare(countBits uint) (float64, error) {
	if s.final {
		return 0, nil // the last square makes no states
	}
	if s.sampled == nil {
		sm, err := s.sample()
		if err != nil {
			return 0, err
		}
		s.sampled = sm
	}
	return s.sampled.wider(int(countBits) - 2), nil
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
	size = (size + memory.PageWords) / memory.PageWords * memory.PageWords // whole pages: see space
	// Where counts outgrow their slots, the tables' wide counts start with
	// room for as many as the sample foretells, with the same margin: a
	// pass's plan counts them at their fullest (planBytes).
	wide := 0
	if s.layout == smallCounts && !freeCur {
		wide = int(expect * s.wide * 23 / 20)
	}
	if wide < memory.PageWords/(1+s.r.k) {
		wide = 0 // fewer than a page's: they grow from nothing
	}
	if s.final {
		size, wide = 0, 0 // the last square makes no states, only tours
	}
	base := len(s.out.groups)
	if s.next == nil { // else packByClass adds the groups it makes
		s.out.groups = append(s.out.groups, make([]group, p.hi-p.lo)...)
	}
	err := s.fill(tables, p.lo, p.hi, base, size, wide, func() error {
		// A range of groups after the first expands its classes again:
		// what it finds besides states was found already.
		return s.expand(freeCur, p.classes, p.lo == 0)
	})
	if err != nil {
		s.out.groups = s.out.groups[:base]
		return err
	}
	if s.out.parts != nil && s.next == nil {
		s.out.parts.add(base, len(s.out.groups), p.classes)
	}
	return nil
}

// fill gives groups [lo, hi) of the next layer their tables, each of size
// slots with room for wide counts too wide for them, has feed add the new states to
// them through the workers' stagers, and packs them into the next layer's
// groups from base on.
func (s *stepper) fill(tables []table, lo, hi, base, size, wide int, feed func() error) (err error) {
	r, stride := s.r, s.r.k+1
	mine := tables[lo:hi]
	tableWords := size * s.layout.slotWords(r.k)
	sp := s.tableSpace((tableWords + wideWords(wide, r.k)) * len(mine))
	defer func() {
		for i := range mine {
			mine[i].free(sp)
		}
		if err == nil && s.keepsSpace() {
			s.space = sp
			return
		}
		sp.Free()
		s.space = nil
	}()
	buckets, bshift := stageBuckets(hi - lo)
	// The staging buffers come from the kernel, counted here: on the Go
	// heap they were counted twice, here and as the runtime's (see
	// memory.Budget.Watch), 32 MiB of room a pass, and each pass left them as
	// garbage.
	words := stageWords(len(buckets), r.k)
	staging := int64(len(s.ws)) * int64(words) * 8
	if !r.mem.Grab(staging) {
		r.mem.Release(staging)
		return r.memoryError(s.v, s.cur.n)
	}
	defer r.mem.Release(staging)
	bufs := make([][]uint64, len(s.ws))
	defer func() {
		for i, buf := range bufs {
			if w := s.ws[i]; w.lean != nil {
				w.lean.buf = nil // the stager is done with its pass
			}
			_ = memory.FreeWords(buf) // refused, the pages stay mapped: nothing to undo
		}
	}()
	for i := range bufs {
		var err error
		if bufs[i], err = memory.AllocWords(words); err != nil {
			return r.memoryError(s.v, s.cur.n)
		}
	}
	for i := range mine {
		slots, ok := sp.Alloc(tableWords)
		if !ok {
			return r.memoryError(s.v, s.cur.n)
		}
		mine[i].slots, mine[i].size = slots, size
		if wide > 0 && !mine[i].wide.reserve(wide, r.k, sp) {
			return r.memoryError(s.v, s.cur.n)
		}
	}
	for i, w := range s.ws {
		w.lean = newStager(mine, buckets, bshift, lo, r.f.mixer.Bits()-s.gbits, r.k, sp, bufs[i])
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
	if s.keepsSpace() {
		sp.Keep()
	}
	if s.next != nil {
		return s.packByClass(mine, lo, sp)
	}
	return pool.Run(s.ctx, len(s.ws), hi-lo, func(wi, i int) error {
		t := &mine[i]
		return s.place(wi, base+i, t.n*stride, func(dense []uint64) { t.pack(dense, lo+i, r.f.mixer, sp) })
	})
}

// classRun is about how many states a run of tables holds that
// packByClass packs at a time: a worker holds a run twice over while it
// sorts it by class, and the run's states of a class make a group.
const classRun = 1 << 18

// A classSort is a worker's buffers for a run of tables that packByClass
// sorts by class: the run's entries as the tables hold them, the class of
// each of its states, and the entries by class.
type classSort struct {
	dense, sorted []uint64
	class         []uint8
}

// packByClass packs the tables mine, the next layer's groups by mix from
// lo on, into groups that each hold the states of one class of the next
// step's passes (groupsByNextClass): runs of consecutive tables, each
// run's states sorted by class, a group for each class a run holds. The
// groups join the next layer class by class, and its parts record each
// class's range of them, so that a pass of the next step reads only the
// groups of its own classes. Packed by mix alone, a layer made in passes
// is read by nearly every pass of the next step: on square 50 of 8x12
// with free ends, five passes read it 4.2 times over.
func (s *stepper) packByClass(mine []table, lo int, sp *memory.Space) error {
	r, stride := s.r, s.r.k+1
	classes := s.next.count()
	runs := []int{0} // the first table of each run, then len(mine)
	for i, n := 0, 0; i < len(mine); i++ {
		if n += mine[i].n; n >= classRun && i+1 < len(mine) {
			runs = append(runs, i+1)
			n = 0
		}
	}
	runs = append(runs, len(mine))
	made := make([]group, (len(runs)-1)*classes) // run j's group of class c at j*classes+c
	if len(s.sorting) != len(s.ws) {
		s.sorting = make([]classSort, len(s.ws))
	}
	err := pool.Run(s.ctx, len(s.ws), len(runs)-1, func(wi, j int) error {
		run := mine[runs[j]:runs[j+1]]
		n := 0
		for i := range run {
			n += run[i].n * stride
		}
		b := &s.sorting[wi]
		if cap(b.dense) < n {
			b.dense, b.sorted, b.class = make([]uint64, n), make([]uint64, n), make([]uint8, n/stride)
		}
		dense, sorted, class := b.dense[:n], b.sorted[:n], b.class[:n/stride]
		at := 0
		for i := range run {
			m := run[i].n * stride
			run[i].pack(dense[at:at+m], lo+runs[j]+i, r.f.mixer, sp)
			at += m
		}
		var starts [maxClasses + 1]int // where each class begins in sorted, in states
		for i := range class {
			class[i] = uint8(s.next.class(dense[i*stride]))
			starts[class[i]+1]++
		}
		for c := 1; c <= classes; c++ {
			starts[c] += starts[c-1]
		}
		next := starts
		for i, c := range class {
			copy(sorted[next[c]*stride:], dense[i*stride:(i+1)*stride])
			next[c]++
		}
		for c := range classes {
			if starts[c] == starts[c+1] {
				continue
			}
			g, err := s.writeGroup(wi, sorted[starts[c]*stride:starts[c+1]*stride])
			if err != nil {
				return err
			}
			made[j*classes+c] = g
		}
		return nil
	})
	if err != nil {
		return err
	}
	for c := range classes {
		from := len(s.out.groups)
		for j := range len(runs) - 1 {
			if g := made[j*classes+c]; g.words > 0 {
				s.out.groups = append(s.out.groups, g)
			}
		}
		if len(s.out.groups) > from {
			s.out.parts.add(from, len(s.out.groups), 1<<c)
		}
	}
	return nil
}
