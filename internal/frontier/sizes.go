package frontier

import "github.com/euler1758/knightstour/internal/frontier/compact"

// The sizes a count cuts its work into: chunks of states for the
// workers, groups of a layer, how many passes a buffered step may take,
// and the padding that keeps the workers' structs off each other's cache
// lines.

// chunkStates is how many states a worker takes at a time: a block of a
// compact layer, which is read a block at a time.
const chunkStates = compact.BlockStates

// groupStates is about how many states a group of a layer should hold:
// few enough that packing one group's table costs little memory, many
// enough that the workers' staging buffers, a batch per group, stay small.
const groupStates = 1 << 14

// maxGroupBits bounds the groups of a layer: 2^18 groups of the lean
// step's 2^14 states reach four billion states (the buffered step's groups
// are smaller, and the buffered step is for smaller layers).
const maxGroupBits = 18

// bufferedStates is about how many unmerged new states a group of the
// buffered step should receive: its merge table should fit in the
// processor's cache.
const bufferedStates = 1 << 13

// wholeBuckets is how many times bufferedStates a group of the buffered
// step may receive where that makes it the whole of a bucket of the bins
// (maxBuckets groups): each bucket is then merged as it is, without the
// pass that sorts a bucket's states into its groups. A merge table out of
// the processor's fastest caches costs less than that pass: 7x7 from the
// corner, whose layers reach 9.5 million states, spends 6% of its time
// sorting buckets into groups of bufferedStates (a profile of -workers 1)
// and takes about 3% less processor time without (scripts/atonce.sh).
const wholeBuckets = 16

// maxBufferedPasses is the most passes a buffered step is planned in: past
// it the lean step, whose tables take a third of the bins' memory, makes
// the layer in fewer passes. Fewer on paper: a buffered pass that reaches
// the limit narrows, where a lean one is dropped and made again, and the
// lean plans of 8 rows fall further short. On 8x12 from the corner by
// narrow-down, with at most 6 buffered passes, square 62 (1.16 billion
// states before it) went lean, planned in 2 passes, dropped the first at
// a tenth of it and took 27 minutes in 5; square 63 took 13 minutes in 10
// lean passes. By the narrow sweep the same squares, with a few percent
// fewer states, were buffered in 6 and 3 passes and took 4 and 2 minutes,
// and square 59 took 11 minutes in 10 buffered passes. Past a dozen the
// buffered passes cost more than the lean ones: the finer classes of more
// passes keep more states (a pass keeps a state's reflection in its place
// only within its class), a pass reads only the groups of its classes
// only where the step before was made by classes that allow it (on 8
// rows many steps share no squares with the one before, and their passes
// read the whole layer), and each pass has its fixed costs. 8x7 with free
// ends of every length at -memory 560M -spill DIR took 4 min 19 s, at
// most 58.1 million states at once; with at most 64 buffered passes (a
// test build), 6 min 36 s in up to 27 passes a square, at most 61.6
// million.
const maxBufferedPasses = 12

// keepStates is the most states a group may have for a worker's buffer
// that packs it to stay for the next (stepper.scratch): a giant group's
// would stay for the rest of the count beside its states.
const keepStates = 1 << 16

// apart ends a struct that each worker has one of and writes to as it
// goes (worker, emitter, stager, merger), so that no other's fields share
// its cache lines. The workers' structs are made one after the other, and
// where the end of one shared a line with the start of the next, the
// processors passed the line back and forth on every write: on a 2-core
// AMD EPYC machine 7x7 from the corner took 47% more processor time on 2
// workers than on 1, and 7 to 14% more with the structs apart. 128 bytes:
// x86-64 processors fetch lines of 64 bytes in pairs.
type apart [128]byte
