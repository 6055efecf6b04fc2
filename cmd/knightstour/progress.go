package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/euler1758/knightstour"
	"github.com/euler1758/knightstour/internal/progress"
)

// progressLine shows how far a search has got on stderr, once it has run
// for a second: on a terminal one line redrawn in place, elsewhere (a log
// file, CI) a line every few seconds.
type progressLine struct {
	w        io.Writer
	terminal bool
	mu       sync.Mutex
	last     time.Time
	drawn    bool
	// checkpoint names the checkpoint of a frontier count, for the line
	// that says, at once, that the count resumes from it.
	checkpoint string
	resumeSaid bool
	// forecast makes what is said before the first progress line of a
	// frontier count, if anything: once the count has begun, and so
	// taken its options, rather than hours of forecast ahead of an error
	// about a flag, and once it has said whether it halves its states.
	forecast func(halved bool) string
	// width and squares tell a frontier count's time left (squareClock).
	width   int
	squares squareClock
	// cut names the board cut to k squares along the longer side, and
	// lengths is how many of those boards' tours the line has said: a
	// count of every length says each as soon as it is done.
	cut     func(k int) string
	lengths int
}

// squareClock estimates the time a frontier count has left: the time a
// state took so far, over the squares added in this run, times the states
// still to come, taken as the last layer's size for every square left
// but the last half column, where the states die out; less the time the
// square under way has taken already. It is rough while the layers still
// grow, and good once they no longer do. It waits for a column of
// squares, whose costs differ with their place in it, or for clockWait
// where the squares are slow.
//
// It times whole squares only, from the end of the first square the run
// adds to the end of the last: a count resumed within a square redoes
// only the rest of it, after checking its checkpoint and finding its
// demands (minutes on 8 rows), and the square under way has cost time
// but added no states yet. Where squares take most of an hour, timing
// either made the time left look far longer than it was, for hours.
type squareClock struct {
	seen    bool          // a report has come since the count began or resumed
	at      int           // the squares done then: the next square's end starts the clock
	started bool          // the clock is running
	since   time.Duration // elapsed when it started
	from    int           // squares done then
	done    int           // squares done at the last square's end
	doneAt  time.Duration // elapsed then
	work    float64       // states made in this run, a layer a square
}

// left returns the time left, or 0 while too little is known.
func (c *squareClock) left(pr knightstour.Progress, width int) time.Duration {
	if pr.Demands > 0 || pr.Checked > 0 {
		return 0
	}
	switch {
	case !c.seen || c.at < pr.Resumes:
		// The squares a count resumes after were not added in this run:
		// the clock waits for them, or their hours would look like
		// seconds.
		c.seen, c.at = true, pr.TasksDone
		return 0
	case !c.started:
		if pr.TasksDone > c.at {
			c.started, c.since, c.from, c.done, c.doneAt, c.work = true, pr.Elapsed, pr.TasksDone, pr.TasksDone, pr.Elapsed, 0
		}
		return 0
	}
	if pr.TasksDone > c.done {
		c.work += float64(pr.States) * float64(pr.TasksDone-c.done)
		c.done, c.doneAt = pr.TasksDone, pr.Elapsed
	}
	spent := c.doneAt - c.since
	if c.work == 0 || c.done-c.from < width && spent < clockWait || spent < 10*time.Second {
		return 0
	}
	rest := float64(pr.States) * float64(max(0, pr.Tasks-pr.TasksDone-width/2))
	return time.Duration(float64(spent)*rest/c.work) - (pr.Elapsed - c.doneAt)
}

// clockWait is how long squareClock times squares, at least one, before
// it tells the time left with fewer than a column of them: a count of
// many hours, resumed in sessions of three, adds four or five squares of
// 8 rows a session, and waiting for a column it never told its time.
const clockWait = 30 * time.Minute

func newProgressLine(w io.Writer) *progressLine {
	p := &progressLine{w: w}
	if f, ok := w.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			p.terminal = true
		}
	}
	return p
}

func (p *progressLine) show(pr knightstour.Progress) {
	// The tasks go out in a shuffled order, so the share of them done is
	// an unbiased estimate of the share of the work done.
	done := progress.Fraction(pr.TasksDone, pr.Tasks)
	p.report(done, pr.TasksDone, pr.Tasks, fmt.Sprintf("%s, %.0f M nodes", count(pr.Tours, "tour", "tours"), float64(pr.Nodes)/1e6), pr.Elapsed, progress.ETA(pr.Elapsed, done))
}

// showSteps shows the progress of a frontier count: squares added, the
// states after the last, and how far the next square is.
func (p *progressLine) showSteps(pr knightstour.Progress) {
	if p.forecast != nil {
		if s := p.forecast(pr.Halved); s != "" {
			p.say(s)
		}
		p.forecast = nil
	}
	if pr.Resumes > 0 && !p.resumeSaid {
		p.resumeSaid = true
		p.say(fmt.Sprintf("resuming from the checkpoint %s after square %d of %d", p.checkpoint, pr.Resumes, pr.Tasks))
	}
	// Like the line, from a second on: a short count's result says them.
	for ; p.cut != nil && pr.Elapsed >= time.Second && p.lengths < len(pr.ByLength); p.lengths++ {
		p.say(fmt.Sprintf("%s counted: %s tours", p.cut(p.lengths+1), grouped(pr.ByLength[p.lengths])))
	}
	next := ""
	switch {
	case pr.Demands > 0:
		next = fmt.Sprintf(" (finding the demands a tour can still meet: %.0f%%)", 100*pr.Demands)
	case pr.Checked > 0:
		next = fmt.Sprintf(" (resuming: %.0f%% of the checkpoint's files checked)", 100*pr.Checked)
	case pr.TasksDone < pr.Tasks && pr.Expanded > 0:
		next = fmt.Sprintf(" (square %d: %.0f%%", pr.TasksDone+1, 100*pr.Expanded)
		if pr.Passes > 1 {
			next += fmt.Sprintf(" of pass %d of %d", pr.Pass, pr.Passes)
		}
		next += ")"
	}
	left := ""
	if d := p.squares.left(pr, p.width); d > 0 {
		left = ", about " + roughDuration(d) + " left"
	}
	if pr.DiskFree > 0 { // a count of hours on disk: how near it is to full
		left += ", " + roughBytes(float64(pr.DiskFree)) + " free on disk"
	}
	p.reportLine(pr.TasksDone, pr.Tasks, pr.Elapsed,
		fmt.Sprintf("%d of %d squares added, %s%s, %v elapsed%s", pr.TasksDone, pr.Tasks, count(pr.States, "state", "states"), next, pr.Elapsed.Round(time.Second), left))
}

// report draws one progress line for a search: the share of the tree
// done, what was found so far, and the time elapsed and left.
func (p *progressLine) report(fraction float64, done, tasks int, found string, elapsed, eta time.Duration) {
	line := fmt.Sprintf("%5.1f%% of the tree (%d of %d tasks), %s, %v elapsed", 100*fraction, done, tasks, found, elapsed.Round(time.Second))
	if eta > 0 {
		line += fmt.Sprintf(", about %v left", eta.Round(time.Second))
	}
	p.reportLine(done, tasks, elapsed, line)
}

// reportLine draws line once the work has run for a second: redrawn in
// place on a terminal, elsewhere every few seconds and at the end.
func (p *progressLine) reportLine(done, tasks int, elapsed time.Duration, line string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if elapsed < time.Second {
		return
	}
	every := 5 * time.Second
	if p.terminal {
		every = 0
	}
	if time.Since(p.last) < every && done < tasks {
		return
	}
	p.last = time.Now()
	if p.terminal {
		fmt.Fprintf(p.w, "\r\033[K%s", line)
		p.drawn = true
	} else {
		fmt.Fprintln(p.w, line)
	}
}

// say writes a line of its own, at once, between redrawn lines.
func (p *progressLine) say(line string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.drawn {
		fmt.Fprint(p.w, "\r\033[K")
		p.drawn = false
	}
	fmt.Fprintln(p.w, line)
}

// done ends a redrawn line so that what follows starts on a fresh one.
func (p *progressLine) done() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.drawn {
		fmt.Fprintln(p.w)
		p.drawn = false
	}
}
