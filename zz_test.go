package knightstour

import (
	"context"
	"testing"
	"time"
)

func TestZZViab(t *testing.T) {
	for _, b := range [][2]int{{6, 7}, {6, 7}, {6, 7}} {
		f, _ := newFrontier(b[0], b[1])
		cfg, _ := newConfig(b[0], b[1], MaxSquares, nil)
		st := f.latest(Coordinate{b[0] - 1, 0})
		r := &dpRun{f: f, mode: dpFromStart, start: st, startColour: (st/f.w + st%f.w) % 2, cfg: cfg}
		t0 := time.Now()
		r.viability(context.Background(), packDemand(0, 0, 1))
		t.Logf("%v: %v", b, time.Since(t0))
	}
}
