package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/euler1758/knightstour"
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
}

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
	p.report(pr.Fraction(), pr.TasksDone, pr.Tasks, fmt.Sprintf("%d tours, %.0f M nodes", pr.Tours, float64(pr.Nodes)/1e6), pr.Elapsed, pr.ETA())
}

// report draws one progress line: the share of the tree done, what was
// found so far, and the time elapsed and left.
func (p *progressLine) report(fraction float64, done, tasks int, found string, elapsed, eta time.Duration) {
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
	line := fmt.Sprintf("%5.1f%% of the tree (%d of %d tasks), %s, %v elapsed", 100*fraction, done, tasks, found, elapsed.Round(time.Second))
	if eta > 0 {
		line += fmt.Sprintf(", about %v left", eta.Round(time.Second))
	}
	if p.terminal {
		fmt.Fprintf(p.w, "\r\033[K%s", line)
		p.drawn = true
	} else {
		fmt.Fprintln(p.w, line)
	}
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
