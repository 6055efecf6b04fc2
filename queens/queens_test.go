package queens

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

type known struct{ total, unique uint64 }

func oeis(t *testing.T) map[int]known {
	t.Helper()
	f, err := os.Open("testdata/oeis.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[int]known{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "#") {
			continue
		}
		var n int
		var k known
		if _, err := fmt.Sscan(sc.Text(), &n, &k.total, &k.unique); err != nil {
			t.Fatal(err)
		}
		out[n] = k
	}
	return out
}

// TestCountOEIS checks n = 1..15 (and 16 unless -short) against OEIS
// A000170 and A002562, on 1 to 8 workers.
func TestCountOEIS(t *testing.T) {
	table := oeis(t)
	for n := 1; n <= 16; n++ {
		if n == 16 && (testing.Short() || !exhaustive) {
			continue // n = 16 with -tags exhaustive
		}
		for _, workers := range []int{1, 2, 3, 8} {
			if n >= 15 && workers != 2 {
				continue
			}
			r, err := Count(context.Background(), n, WithWorkers(workers))
			if err != nil {
				t.Fatal(err)
			}
			if got := (known{r.Total, r.Unique}); got != table[n] {
				t.Errorf("n=%d, %d workers: %+v, want %+v", n, workers, got, table[n])
			}
			if n >= 4 && r.Total != 2*r.C2+4*r.C4+8*r.C8 {
				t.Errorf("n=%d: classes %d/%d/%d do not add up to %d", n, r.C2, r.C4, r.C8, r.Total)
			}
		}
	}
}

// TestShards splits the search into shards in many ways and checks that
// the merged results equal the whole.
func TestShards(t *testing.T) {
	for _, m := range []Method{Classic, Constellations} {
		for _, n := range []int{1, 4, 8, 11, 13} {
			testShards(t, m, n)
		}
	}
}

func testShards(t *testing.T, m Method, n int) {
	whole, err := Count(context.Background(), n, WithMethod(m))
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []int{1, 2, 3, 5, 7, 16, 8193} {
		if k > whole.AllTasks {
			if _, err := Count(context.Background(), n, WithMethod(m), WithShard(0, k)); !errors.Is(err, ErrBadOption) {
				t.Errorf("%v, n=%d (%d tasks) in %d shards: err = %v, want ErrBadOption", m, n, whole.AllTasks, k, err)
			}
			continue
		}
		var parts []Result
		for i := range k {
			r, err := Count(context.Background(), n, WithMethod(m), WithShard(i, k), WithWorkers(1+i%3))
			if err != nil {
				t.Fatal(err)
			}
			parts = append(parts, r)
		}
		slices.Reverse(parts) // the order of the results must not matter
		merged, err := Merge(parts...)
		if err != nil {
			t.Fatalf("n=%d k=%d: %v", n, k, err)
		}
		merged.Elapsed, whole.Elapsed = 0, 0
		if diff := cmp.Diff(whole, merged); diff != "" {
			t.Errorf("%v, n=%d in %d shards (-whole +merged):\n%s", m, n, k, diff)
		}
	}
}

func TestMergeRefuses(t *testing.T) {
	// part is shard i of k of a search of 16 tasks that found one
	// solution with no symmetry in each task.
	part := func(n, i, k int) Result {
		r := Result{N: n, Method: Classic, Shard: i, Shards: k, AllTasks: 16}
		for j := i; j < 16 && k > 0; j += k {
			r.Tasks++
		}
		r.C8 = uint64(r.Tasks)
		r.Unique, r.Total = r.C8, 8*r.C8
		return r
	}
	with := func(r Result, change func(*Result)) Result { change(&r); return r }
	tests := []struct {
		name string
		in   []Result
	}{
		{"none", nil},
		{"missing", []Result{part(8, 0, 3), part(8, 2, 3)}},
		{"repeated", []Result{part(8, 0, 2), part(8, 0, 2), part(8, 1, 2)}},
		{"other n", []Result{part(8, 0, 2), part(9, 1, 2)}},
		{"other split", []Result{part(8, 0, 2), part(8, 1, 3)}},
		{"out of range", []Result{part(8, 0, 1), part(8, 1, 1)}},
		// A forged split once made Merge allocate a slice of its size.
		{"split of 2^62", []Result{part(8, 0, 1<<62)}},
		{"split of 10^12", []Result{part(8, 0, 1_000_000_000_000), part(8, 1, 1_000_000_000_000)}},
		{"more shards than tasks", []Result{part(8, 0, 17)}},
		{"shard 2/3 relabelled 0/1", []Result{with(part(8, 2, 3), func(r *Result) { r.Shard, r.Shards = 0, 1 })}},
		{"other cut", []Result{part(8, 0, 2), with(part(8, 1, 2), func(r *Result) { r.AllTasks = 32 })}},
		{"total against classes", []Result{with(part(8, 0, 1), func(r *Result) { r.Total++ })}},
		{"unique against classes", []Result{with(part(8, 0, 1), func(r *Result) { r.Unique = 0 })}},
		{"classes wrapping to the total", []Result{with(part(8, 0, 1), func(r *Result) { r.C8 += 1 << 61 })}},
		{"total of 2^64-1", []Result{with(part(8, 0, 1), func(r *Result) { r.Total = 1<<64 - 1 })}},
		{"sum over 2^64", []Result{
			with(part(8, 0, 2), func(r *Result) { r.C8, r.Unique, r.Total = 1<<60, 1<<60, 1<<63 }),
			with(part(8, 1, 2), func(r *Result) { r.C8, r.Unique, r.Total = 1<<60, 1<<60, 1<<63 }),
		}},
		{"no tasks", []Result{{N: 8, Shards: 1}}},
		{"n=2 with a solution", []Result{{N: 2, Shards: 1, AllTasks: 1, Tasks: 1, Total: 1, Unique: 1}}},
	}
	for _, tt := range tests {
		if _, err := Merge(tt.in...); !errors.Is(err, ErrMerge) {
			t.Errorf("%s: err = %v, want ErrMerge", tt.name, err)
		}
	}
	if _, err := Merge(part(8, 1, 2), part(8, 0, 2)); err != nil {
		t.Errorf("two good shards: %v", err)
	}
}

// canonical is an independent form of a placement's symmetry class: the
// smallest of its eight images, spelled out.
func canonical(p Placement) string {
	n := len(p)
	var forms []string
	for s := range 8 {
		img := make([]int, n)
		for r, c := range p {
			// Rotate the square (r, c) s%4 quarter turns, then mirror if s >= 4.
			rr, cc := r, c
			for range s % 4 {
				rr, cc = cc, n-1-rr
			}
			if s >= 4 {
				cc = n - 1 - cc
			}
			img[rr] = cc
		}
		forms = append(forms, fmt.Sprint(img))
	}
	slices.Sort(forms)
	return forms[0]
}

// TestAgainstPlainSearch counts with the plain stream of Solutions and
// naive canonical forms, independently of Count's symmetry search.
func TestAgainstPlainSearch(t *testing.T) {
	for n := 1; n <= 10; n++ {
		var total uint64
		classes := map[string]bool{}
		for p, err := range Solutions(context.Background(), n) {
			if err != nil {
				t.Fatal(err)
			}
			if err := Validate(p); err != nil {
				t.Fatalf("n=%d: %v", n, err)
			}
			total++
			classes[canonical(p)] = true
		}
		r, err := Count(context.Background(), n)
		if err != nil || r.Total != total || r.Unique != uint64(len(classes)) {
			t.Errorf("n=%d: Count %d/%d, %v; plain search %d/%d", n, r.Total, r.Unique, err, total, len(classes))
		}
	}
}

func TestSolutionsOrder(t *testing.T) {
	var got []string
	for p, err := range Solutions(context.Background(), 6) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, p.String())
	}
	want := []string{"1 3 5 0 2 4", "2 5 1 4 0 3", "3 0 4 1 5 2", "4 2 0 5 3 1"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		p    Placement
		want error
	}{
		{Placement{1, 3, 0, 2}, nil},
		{Placement{0}, nil},
		{Placement{0, 1, 2, 3}, ErrInvalid},
		{Placement{1, 3, 0, 0}, ErrInvalid},
		{Placement{1, 3, 0, 4}, ErrInvalid},
		{Placement{1, 3, 0, -1}, ErrInvalid},
		{Placement{}, ErrBadN},
	}
	for _, tt := range tests {
		if err := Validate(tt.p); !errors.Is(err, tt.want) {
			t.Errorf("Validate(%v) = %v, want %v", tt.p, err, tt.want)
		}
	}
	if got := (Placement{1, 3, 0, 2}).Board(); got != ". Q . .\n. . . Q\nQ . . .\n. . Q .\n" {
		t.Errorf("Board:\n%s", got)
	}
}

func TestBadInput(t *testing.T) {
	for _, n := range []int{0, -1, 33, 1 << 40} {
		if _, err := Count(context.Background(), n); !errors.Is(err, ErrBadN) {
			t.Errorf("Count(%d): %v", n, err)
		}
		for _, err := range Solutions(context.Background(), n) {
			if !errors.Is(err, ErrBadN) {
				t.Errorf("Solutions(%d): %v", n, err)
			}
		}
	}
	for _, opt := range []Option{WithWorkers(0), WithShard(2, 2), WithShard(-1, 2), WithShard(0, 0), WithProgress(0, func(Progress) {})} {
		if _, err := Count(context.Background(), 8, opt); !errors.Is(err, ErrBadOption) {
			t.Errorf("bad option: %v", err)
		}
	}
}

// TestCancel cancels counts of n = 22 (hours of work) and a stream, and
// checks the error and that no goroutine is left.
func TestCancel(t *testing.T) {
	base := runtime.NumGoroutine()
	afters := []time.Duration{time.Millisecond, 20 * time.Millisecond}
	if exhaustive {
		afters = append(afters, 200*time.Millisecond)
	}
	for _, m := range []Method{Classic, Constellations} {
		for _, workers := range []int{1, 2, 4} {
			for _, after := range afters {
				ctx, cancel := context.WithTimeout(context.Background(), after)
				start := time.Now()
				_, err := Count(ctx, 22, WithMethod(m), WithWorkers(workers))
				t.Logf("%v, %d workers, cancelled at %v: returned %v after", m, workers, after, time.Since(start)-after)
				cancel()
				if !errors.Is(err, context.DeadlineExceeded) {
					t.Errorf("%v, %d workers: err = %v", m, workers, err)
				}
			}
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	var err error
	for _, e := range Solutions(ctx, 24) {
		if e != nil {
			err = e
		}
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Solutions: err = %v", err)
	}
	for range 200 {
		if runtime.NumGoroutine() <= base {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Errorf("%d goroutines left, had %d", runtime.NumGoroutine(), base)
}

func TestProgress(t *testing.T) {
	for _, m := range []Method{Classic, Constellations} {
		var last Progress
		r, err := Count(context.Background(), 13, WithMethod(m), WithWorkers(2), WithProgress(time.Millisecond, func(p Progress) { last = p }))
		if err != nil {
			t.Fatal(err)
		}
		if last.TasksDone != r.Tasks || last.Solutions != r.Total || last.Fraction() != 1 {
			t.Errorf("%v: last report %+v, result %+v", m, last, r)
		}
	}
}
