package main

import (
	"fmt"
	"math"
	"strconv"
	"time"
)

// A forecast is what a frontier count is expected to cost before it
// starts, from the growth of the states measured on smaller boards: it
// lets a user who typed `count 8x8` know at once that hours lie ahead,
// and what to give the count so that it survives them.
type forecast struct {
	peak     float64       // the most states held at once
	time     time.Duration // on the workers given
	memory   float64       // bytes, with both layers in memory
	disk     float64       // bytes of layer files at the widest square, with -spill or -checkpoint
	compact  float64       // the same, where the layers are compact
	onDisk   bool          // the states will not fit in the memory limit at once
	estimate bool          // false where the board is too small to bother
}

// peakStates holds the most states a count from the corner keeps by the
// narrow sweep, on w x l boards (w the shorter side) for l = w, w+1, ...
// (count -method dp -json); past the last, the states no longer grow.
var peakStates = map[int][]float64{
	5: {481, 3833, 19047, 42974, 71245, 90831, 92190, 102460},
	6: {115737, 606086, 1081540, 1405458, 1838932, 1908406, 1919128},
	7: {15.2e6, 36e6, 58e6, 72e6, 75e6},
	8: {685e6, 996e6, 1.14e9, 1.176e9, 1.179e9},
	// Not counted: the fit of docs/nine-rows.md, from the growth of the
	// boards above and of 5 x w across, and the states of 9x9 measured to
	// square 37 (COUNTS.md).
	9: {35e9},
}

// Measured costs: states made a second by one worker, in memory and
// with the layers on disk in passes; bytes a state in memory (both layers
// and the tables), and on disk (one layer, raw and compact). The speeds
// are those of a 2-core AMD EPYC machine (BENCHMARKS.md and
// docs/performance.md): 7x7 from the corner, 88 million states over its
// squares in 5.2 to 8.4 s on 2 workers, and 8x8 from the corner at
// -memory 18G, 10.8 billion in 31.7 minutes, both before they halved
// (halvedStates). A count writes its large layers compact where raw ones
// would crowd the disk: each group sorted, the differences and counts as
// Rice codes. As varints they took 4.9 bytes a state for 8x8 with free
// ends and 6.0 for 8x8 from the corner, and Rice codes take about a
// seventh less; but counts grow by about 9 bits a column, and on 8x12
// with free ends a layer in the middle columns takes 7 to 8 bytes a
// state, so that the figure below is low for long boards.
const (
	statesPerSecondInMemory = 5.5e6
	statesPerSecondOnDisk   = 2.8e6
	bytesPerStateInMemory   = 60
	bytesPerStateOnDisk     = 12
	bytesPerStateCompact    = 6
)

// Where keys are digits, not packed words (free ends on 8 rows, whose
// z-states do not fit beside 16 nibbles, and every count on 9 rows), the
// step works on bytes and a pass tells each state's class by dividing its
// key: in memory 0.8 times the packed step's speed (8x6 with free ends
// against 7x6 from the corner), on disk 0.45 (8x12 with free ends, all
// lengths, at -memory 16G in 2 or 3 passes a square: 2.0 to 2.8 million
// states a second on 2 workers at squares 34 to 36, against 2.8 million
// a worker for 8x8 from the corner).
const (
	digitsInMemory = 0.8
	digitsOnDisk   = 0.45
)

// Free ends on 8 rows, on disk, go slower still: any square may be an end,
// so each state makes more new states, and the tables of the lean step
// they go to are far larger than the caches. Square 46 of 8x12 with free
// ends, every length, at -memory 18G on 2 workers, the machine otherwise
// idle: 3,270,125,643 states expanded in 30 min 47 s in 5 passes, 1.77
// million a second, about 0.3 of the packed step's speed on disk. (8x8
// with free ends, every length, kept 30.9 billion states over its
// squares in 8 h 50 min, 0.97 million a second, resumed in eight
// segments beside other work; COUNTS.md.)
const freeEndsOnDisk = 0.3

// A dpJob is a frontier count as its forecast sees it: the board, what it
// counts, and the two choices that change how many states it keeps.
type dpJob struct {
	rows, cols int
	tours      tourKind
	allLengths bool // every length up to the board's (-all-lengths)
	halves     bool // half the tours, as the count says it follows (Progress.Halved, halvedStates)
}

// A tourKind is what a frontier count counts.
type tourKind int

const (
	fromStart   tourKind = iota // open tours from one square
	freeEnds                    // open tours from every square (-free)
	closedTours                 // closed tours (-closed)
)

// String names the kind as a user would: "closed", "with free ends".
func (k tourKind) String() string {
	switch k {
	case freeEnds:
		return "with free ends"
	case closedTours:
		return "closed"
	default:
		return "from a square"
	}
}

// halvedStates is what a count from a corner of a square board keeps of
// the states of one that does not halve: it follows only the tours of one
// of each pair of first moves that mirror each other in the diagonal
// (docs/counting.md, "Half the tours from a diagonal"), from the square
// where the start is added. 8x8 from the corner: 9.25 billion states over
// its squares against 10.76, at most 583 million against 685; 7x7: 0.78
// and 0.76.
const halvedStates = 0.85

// forecastDP forecasts the frontier count job on workers goroutines,
// within memoryLimit bytes.
func forecastDP(job dpJob, workers int, memoryLimit int64) forecast {
	w, l := min(job.rows, job.cols), max(job.rows, job.cols)
	table, ok := peakStates[w]
	if !ok {
		return forecast{}
	}
	peak := table[min(l-w, len(table)-1)]
	// Closed tours and free ends keep a state and its reflection as one
	// wherever the rows added of a column are their own reflection: about
	// 0.55 of the peak (7x8 closed 1.76 million against 3.45, 8x8 closed
	// 58 against 100) and half the states over a count.
	const reflected = 0.55
	switch job.tours {
	case freeEnds:
		peak *= 2.1 * reflected // 7x7: 2.0, with more of the board's squares as ends
	case closedTours:
		peak *= 0.15 * reflected // 8x8: 100 million against 685 from the corner
	}
	if job.allLengths {
		peak *= 2.3 // 7x9: 83 million against 36
	}
	if job.halves {
		peak *= halvedStates
	}
	// Over its squares a count keeps about a quarter of its peak a square
	// on a square board, nearly all of it on a long one.
	total := peak * float64(w*l) * (0.25 + 0.6*float64(l-w)/float64(l))
	f := forecast{peak: peak, memory: peak * bytesPerStateInMemory, disk: 2 * peak * bytesPerStateOnDisk,
		compact: 2 * peak * bytesPerStateCompact, estimate: true}
	rate, digits := statesPerSecondInMemory*float64(workers), digitsInMemory
	if f.memory > float64(memoryLimit) {
		f.onDisk = true
		rate, digits = statesPerSecondOnDisk*float64(workers), digitsOnDisk
	}
	switch {
	case w == 8 && job.tours == freeEnds && f.onDisk:
		rate *= freeEndsOnDisk
	case w == 9 || w == 8 && job.tours == freeEnds:
		rate *= digits
	}
	f.time = time.Duration(total / rate * float64(time.Second))
	return f
}

// long reports whether the count is worth a word before it starts.
func (f forecast) long() bool { return f.estimate && f.time > 2*time.Minute }

// advice is the line a long count prints on stderr before it starts.
// room is the free space of the file system the layers would go to (that
// of -checkpoint or -spill), or negative where there is none or it cannot
// be told: a count whose layers will not fit stops when the disk is
// nearly full, which on 9x9 would be days in.
func (f forecast) advice(board string, workers int, memoryLimit int64, checkpoint, spill bool, room int64) string {
	s := fmt.Sprintf("knightstour: forecast for %s: about %s on %s, up to %s states at once (%s in memory",
		board, roughDuration(f.time), count(workers, "worker", "workers"), roughNumber(f.peak), roughBytes(f.memory))
	if f.onDisk {
		disk, how := f.disk, ","
		// As the count decides, layer by layer: compact where three raw
		// layers (about twice disk) would take more than half the room.
		if room < 0 || 2*f.disk > float64(room)/2 {
			disk, how = f.compact, ", compact,"
		}
		s += fmt.Sprintf(", more than -memory %s: the layers go to disk%s about %s", roughBytes(float64(memoryLimit)), how, roughBytes(disk))
		if room >= 0 && disk > float64(room) {
			s += fmt.Sprintf(", more than the %s free there", roughBytes(float64(room)))
		}
	}
	s += ")"
	switch {
	case !checkpoint && f.time > 20*time.Minute:
		s += "; give -checkpoint FILE to survive a stop and resume"
	case f.onDisk && !checkpoint && !spill:
		s += "; give -checkpoint FILE or -spill DIR, or it stops at the memory limit"
	}
	return s
}

// roughDuration writes d to two figures at most: "40 s", "12 min", "3.5 h", "2 days".
func roughDuration(d time.Duration) string {
	switch h := d.Hours(); {
	case d < time.Minute:
		return fmt.Sprintf("%.0f s", d.Seconds())
	case d < time.Hour:
		return fmt.Sprintf("%.0f min", d.Minutes())
	case h < 48:
		return twoFigures(h) + " h"
	default:
		return twoFigures(h/24) + " days"
	}
}

// roughNumber writes n to two figures: "15 million", "1.2 billion".
func roughNumber(n float64) string {
	switch {
	case n >= 1e9:
		return twoFigures(n/1e9) + " billion"
	case n >= 1e6:
		return twoFigures(n/1e6) + " million"
	default:
		return grouped(int64(math.Round(n)))
	}
}

// roughBytes writes n bytes to two figures: "720 MB", "42 GB".
func roughBytes(n float64) string {
	switch {
	case n >= 1e12:
		return twoFigures(n/1e12) + " TB"
	case n >= 1e9:
		return twoFigures(n/1e9) + " GB"
	default:
		return twoFigures(n/1e6) + " MB"
	}
}

// twoFigures writes x to two significant figures, without an exponent:
// 1.5, 42, 720, 1200.
func twoFigures(x float64) string {
	if x < 10 {
		return strconv.FormatFloat(math.Round(x*10)/10, 'f', -1, 64)
	}
	scale := math.Pow(10, math.Floor(math.Log10(x))-1)
	return strconv.FormatFloat(math.Round(x/scale)*scale, 'f', 0, 64)
}
