package queens

import (
	"testing"
	"time"
)

// FuzzMerge merges two forged shard results: Merge must never panic, and
// what it accepts must add up.
func FuzzMerge(f *testing.F) {
	f.Add(8, uint8(2), uint64(40), uint64(5), uint64(0), uint64(0), uint64(5), uint64(0), uint64(0), 12, 24, 0, 2, uint64(52), uint64(7), 12)
	f.Add(8, uint8(1), uint64(40), uint64(0), uint64(0), uint64(0), uint64(0), uint64(0), uint64(0), 12, 24, 0, 2, uint64(52), uint64(0), 12)
	f.Add(8, uint8(2), uint64(1<<63), uint64(1<<60), uint64(0), uint64(0), uint64(1<<60), uint64(0), uint64(0), 1, 1, 0, 1, uint64(0), uint64(0), 0)
	f.Fuzz(func(t *testing.T, n int, method uint8, total, unique, c2, c4, c8, quarter, half uint64, tasks, all, shard, shards int, total2, c8b uint64, tasks2 int) {
		a := Result{N: n, Method: Method(method), Total: total, Unique: unique, C2: c2, C4: c4, C8: c8, QuarterTurn: quarter, HalfTurn: half,
			Tasks: tasks, AllTasks: all, Shard: shard, Shards: shards, Elapsed: time.Second}
		b := Result{N: n, Method: Method(method), Total: total2, Unique: c8b, C8: c8b, Tasks: tasks2, AllTasks: all, Shard: 1 - shard, Shards: shards}
		out, err := Merge(a, b)
		if err != nil {
			return
		}
		if out.Total != a.Total+b.Total || out.Tasks != out.AllTasks || out.consistent() != nil || out.Check() != nil {
			t.Errorf("Merge(%+v, %+v) = %+v: accepted, but it does not add up", a, b, out)
		}
	})
}
