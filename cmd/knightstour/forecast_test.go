package main

import (
	"context"
	"io"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/euler1758/knightstour"
	"github.com/google/go-cmp/cmp"
)

// TestForecast holds the forecasts against counts made here: the peak
// within half and double, and the long ones told apart from the short.
func TestForecast(t *testing.T) {
	tests := []struct {
		job  dpJob
		peak float64 // measured (count -method dp -json)
		long bool
	}{
		{dpJob{rows: 6, cols: 6, halves: true}, 75239, false},
		{dpJob{rows: 7, cols: 7, halves: true}, 7182014, false},
		{dpJob{rows: 8, cols: 8, halves: true}, 583181754, true},
		{dpJob{rows: 8, cols: 8, tours: closedTours}, 72447422, false}, // a state and its reflection as one: under 2 minutes at 5 million states a second a worker
		{dpJob{rows: 8, cols: 12}, 1178895125, true},
		{dpJob{rows: 8, cols: 8, tours: freeEnds, allLengths: true}, 2029645532, true}, // the most after 45 of 64 squares
		{dpJob{rows: 3, cols: 100}, 0, false},                                          // too narrow to bother
		{dpJob{rows: 9, cols: 9, halves: true}, 0, true},                               // not counted: days on disk
	}
	for _, tt := range tests {
		f := forecastDP(tt.job, 2, 17<<30)
		if tt.peak > 0 && (f.peak < tt.peak/2 || f.peak > 2*tt.peak) {
			t.Errorf("%dx%d %v: forecast peak %.3g, measured %.3g", tt.job.rows, tt.job.cols, tt.job.tours, f.peak, tt.peak)
		}
		if f.long() != tt.long {
			t.Errorf("%dx%d %v: long %v (%v), want %v", tt.job.rows, tt.job.cols, tt.job.tours, f.long(), f.time, tt.long)
		}
	}
	if f := forecastDP(dpJob{rows: 9, cols: 9, halves: true}, 2, 17<<30); !f.onDisk || f.time < 2*24*time.Hour {
		t.Errorf("9x9 on 2 workers in 17 GiB: on disk %v, %v; want on disk, days", f.onDisk, f.time)
	}
	// 8x8 with free ends, every length, took 8 h 50 min on 2 workers at
	// -memory 18G (COUNTS.md), its layers on disk.
	if f := forecastDP(dpJob{rows: 8, cols: 8, tours: freeEnds, allLengths: true}, 2, 18<<30); !f.onDisk || f.time < 4*time.Hour || f.time > 18*time.Hour {
		t.Errorf("8x8 with free ends, every length, on 2 workers in 18 GiB: on disk %v, %v; want on disk, 4 to 18 h", f.onDisk, f.time)
	}
	// 8x8 from the corner took 31 min 41 s on 2 workers at -memory 18G
	// before it halved (docs/performance.md), its layers on disk.
	if f := forecastDP(dpJob{rows: 8, cols: 8, halves: true}, 2, 18<<30); !f.onDisk || f.time < 16*time.Minute || f.time > 64*time.Minute {
		t.Errorf("8x8 from the corner on 2 workers in 18 GiB: on disk %v, %v; want on disk, 16 to 64 min", f.onDisk, f.time)
	}
}

func TestRoughFigures(t *testing.T) {
	got := []string{twoFigures(1.46), twoFigures(42.4), twoFigures(720.5), twoFigures(1234),
		roughDuration(40 * time.Second), roughDuration(90 * time.Minute), roughDuration(72 * time.Hour),
		roughNumber(15.2e6), roughNumber(1.18e9), roughNumber(481), roughBytes(7.2e8), roughBytes(4.1e10)}
	want := []string{"1.5", "42", "720", "1200", "40 s", "1.5 h", "3 days", "15 million", "1.2 billion", "481", "720 MB", "41 GB"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestSquareClock feeds the clock a count whose layers hold a million
// states, a square a second, reporting at the end of each square: it
// starts at the end of the first square of the run, and tells the
// squares left at a second each, less half a column, once it has timed a
// column and ten seconds. A count that resumes after square 20 reports no
// square done first, then the 20, then the end of square 21, which it
// resumed within: the clock starts there. Where a square takes 20
// minutes, it tells the time left once it has timed two squares, past
// clockWait, without waiting for a column; and within a square, the time
// left falls as the square goes on.
func TestSquareClock(t *testing.T) {
	type report struct {
		done    int           // squares done
		elapsed time.Duration // since the run began
	}
	// squares returns the reports of a run: the first at once, then one
	// at the end of each square, the first n of them after resumed squares
	// (and the first of those only partly made in this run).
	squares := func(resumed, n int, square time.Duration) []report {
		rs := []report{{0, 0}}
		if resumed > 0 {
			rs = append(rs, report{resumed, 2 * square}) // checkpoint checked, demands found
		}
		for i := 1; i <= n; i++ {
			rs = append(rs, report{resumed + i, time.Duration(i+2) * square})
		}
		return rs
	}
	min20 := 20 * time.Minute
	withinSquare := squares(20, 4, min20)
	last := withinSquare[len(withinSquare)-1]
	withinSquare = append(withinSquare, report{last.done, last.elapsed + 5*time.Minute}, report{last.done, last.elapsed + 15*time.Minute})
	for _, c := range []struct {
		name    string
		resumes int
		reports []report
		want    []time.Duration
	}{
		{"from the first square", 0, squares(0, 12, time.Second),
			[]time.Duration{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 15 * time.Second, 14 * time.Second}},
		{"resumed after square 20 of 50", 20, squares(20, 12, time.Second),
			[]time.Duration{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 15 * time.Second, 14 * time.Second}},
		{"resumed, squares of 20 minutes", 20, squares(20, 6, min20),
			[]time.Duration{0, 0, 0, 0, 460 * time.Minute, 440 * time.Minute, 420 * time.Minute, 400 * time.Minute}},
		{"within a square of 20 minutes", 20, withinSquare,
			[]time.Duration{0, 0, 0, 0, 460 * time.Minute, 440 * time.Minute, 435 * time.Minute, 425 * time.Minute}},
	} {
		var clock squareClock
		var got []time.Duration
		for _, r := range c.reports {
			pr := knightstour.Progress{TasksDone: r.done, Tasks: 30, States: 1_000_000, Elapsed: r.elapsed}
			if c.resumes > 0 {
				pr.Resumes, pr.Tasks = c.resumes, 50
			}
			got = append(got, clock.left(pr, 8).Round(time.Second))
		}
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("%s: time left (-want +got):\n%s", c.name, diff)
		}
	}
}

// TestAdvice checks the line a long count prints first: where its layers
// go to disk, the room there when it is too little, and what to give it.
func TestAdvice(t *testing.T) {
	f := forecastDP(dpJob{rows: 9, cols: 9}, 2, 13<<30)
	for _, tt := range []struct {
		name              string
		checkpoint, spill bool
		room              int64
		want, wantNot     string
	}{
		{"checkpoint on a small disk", true, false, 60e9, "compact, about 420 GB, more than the 60 GB free there)", "give -checkpoint"},
		{"room not told", true, false, -1, "compact, about 420 GB)", "free there"},
		{"room enough", false, true, 4e12, "the layers go to disk, about 840 GB)", "free there"},
		{"room for compact layers", true, false, 2e12, "compact, about 420 GB)", "free there"},
		{"no checkpoint", false, false, -1, "; give -checkpoint FILE to survive a stop and resume", "free there"},
	} {
		got := f.advice("9x9", 2, 13<<30, tt.checkpoint, tt.spill, tt.room)
		if !strings.Contains(got, tt.want) || strings.Contains(got, tt.wantNot) {
			t.Errorf("%s: %q; want %q in it and not %q", tt.name, got, tt.want, tt.wantNot)
		}
	}
}

// TestForecastLine runs counts of hours until their forecast is said, and
// checks that it counts on the states the count will keep: fewer where
// the count says it halves (from the corner of 8x8), every tour's where
// it does not (-early-start, and a start off the diagonal).
func TestForecastLine(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"8x8"}, "up to 580 million states"},
		{[]string{"-early-start", "8x8"}, "up to 690 million states"},
		{[]string{"-start", "b1", "8x8"}, "up to 690 million states"},
	} {
		ctx, cancel := context.WithCancel(context.Background())
		errOut := &cancelOn{text: "forecast for", cancel: cancel}
		args := append([]string{"count", "-method", "dp", "-memory", "4G"}, tt.args...)
		run(ctx, args, io.Discard, errOut)
		cancel()
		if got := errOut.String(); !strings.Contains(got, tt.want) {
			t.Errorf("%q: stderr %q; want %q in it", args, got, tt.want)
		}
	}
}

// cancelOn is a writer that cancels a run once what it is given holds
// text.
type cancelOn struct {
	strings.Builder
	text   string
	cancel context.CancelFunc
}

func (w *cancelOn) Write(p []byte) (int, error) {
	n, err := w.Builder.Write(p)
	if strings.Contains(w.String(), w.text) {
		w.cancel()
	}
	return n, err
}

// TestStepLine checks the progress line of a frontier count within a
// square: the pass under way where the square is made in several, and
// the room left on disk where its states go there.
func TestStepLine(t *testing.T) {
	base := knightstour.Progress{TasksDone: 41, Tasks: 96, States: 2277989423, Expanded: 0.5, Elapsed: time.Minute}
	tests := []struct {
		pass, passes int
		diskFree     int64
		want         string
	}{
		{0, 0, 0, "41 of 96 squares added, 2,277,989,423 states (square 42: 50%), 1m0s elapsed\n"},
		{3, 11, 0, "41 of 96 squares added, 2,277,989,423 states (square 42: 50% of pass 3 of 11), 1m0s elapsed\n"},
		{3, 11, 27.4e9, "41 of 96 squares added, 2,277,989,423 states (square 42: 50% of pass 3 of 11), 1m0s elapsed, 27 GB free on disk\n"},
	}
	for _, tt := range tests {
		var b strings.Builder
		pr := base
		pr.Pass, pr.Passes, pr.DiskFree = tt.pass, tt.passes, tt.diskFree
		newProgressLine(&b).showSteps(pr)
		if diff := cmp.Diff(tt.want, b.String()); diff != "" {
			t.Errorf("pass %d of %d (-want +got):\n%s", tt.pass, tt.passes, diff)
		}
	}
}

// TestLengthLines checks that the progress of a count of every length
// says each shorter board's tours once, as soon as a report holds them
// and the count has run for a second, before the line of squares.
func TestLengthLines(t *testing.T) {
	tours := func(ns ...int64) []*big.Int {
		var out []*big.Int
		for _, n := range ns {
			out = append(out, big.NewInt(n))
		}
		return out
	}
	step := knightstour.Progress{TasksDone: 16, Tasks: 96, States: 12, Elapsed: 2 * time.Second}
	tests := []struct {
		name    string
		reports [][]*big.Int
		elapsed time.Duration
		want    []string // the lines said, without the lines of squares
	}{
		{"none yet", [][]*big.Int{nil, nil}, 2 * time.Second, nil},
		{"one at a time", [][]*big.Int{tours(0), tours(0), tours(0, 5)}, 2 * time.Second, []string{"8x1 counted: 0 tours", "8x2 counted: 5 tours"}},
		{"several at once, as on resuming", [][]*big.Int{tours(0, 5, 1234567)}, 2 * time.Second, []string{"8x1 counted: 0 tours", "8x2 counted: 5 tours", "8x3 counted: 1,234,567 tours"}},
		{"within the first second", [][]*big.Int{tours(0, 5)}, time.Second / 2, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			p := newProgressLine(&b)
			p.cut = func(k int) string { return cutBoard(8, 12, k) }
			for _, lengths := range tt.reports {
				pr := step
				pr.ByLength, pr.Elapsed = lengths, tt.elapsed
				p.showSteps(pr)
			}
			var said []string
			for line := range strings.Lines(b.String()) {
				if !strings.Contains(line, "squares added") {
					said = append(said, strings.TrimSuffix(line, "\n"))
				}
			}
			if diff := cmp.Diff(tt.want, said); diff != "" {
				t.Errorf("lines said (-want +got):\n%s", diff)
			}
		})
	}
}
