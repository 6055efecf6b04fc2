package queens

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestMethodsAgree counts n = 1..14 both ways: totals, classes and the
// solutions the turns leave unchanged must be the same.
func TestMethodsAgree(t *testing.T) {
	ignore := cmpopts.IgnoreFields(Result{}, "Method", "Tasks", "AllTasks", "Elapsed")
	for n := 1; n <= 14; n++ {
		var got [2]Result
		for i, m := range []Method{Constellations, Classic} {
			r, err := Count(context.Background(), n, WithMethod(m), WithWorkers(1+n%3))
			if err != nil {
				t.Fatal(err)
			}
			if want := m.Resolve(n); n >= 4 && r.Method != want {
				t.Errorf("n=%d: method %v, want %v", n, r.Method, want)
			}
			got[i] = r
		}
		if diff := cmp.Diff(got[1], got[0], ignore); diff != "" {
			t.Errorf("n=%d: constellations against classic (-classic +constellations):\n%s", n, diff)
		}
	}
}

// TestTurns counts the solutions that a quarter and a half turn leave
// unchanged by turning every solution of the plain stream.
func TestTurns(t *testing.T) {
	for n := 1; n <= 12; n++ {
		var quarter, half uint64
		for p, err := range Solutions(context.Background(), n) {
			if err != nil {
				t.Fatal(err)
			}
			q, h := true, true
			for r, c := range p {
				q = q && p[c] == n-1-r     // (r, c) -> (c, n-1-r)
				h = h && p[n-1-r] == n-1-c // (r, c) -> (n-1-r, n-1-c)
			}
			if q {
				quarter++
			}
			if h {
				half++
			}
		}
		gotQ, gotH, stopped := countTurns(n, func() bool { return false })
		if gotQ != quarter || gotH != half || stopped {
			t.Errorf("n=%d: countTurns = %d, %d, %v; the turned solutions say %d, %d", n, gotQ, gotH, stopped, quarter, half)
		}
	}
}

// TestOrbits checks the constellations searched against all of them: the
// orbits' sizes add up to the number of valid constellations, and every
// valid one has exactly one image among those searched.
func TestOrbits(t *testing.T) {
	for n := 4; n <= 11; n++ {
		ks, weights := constellations(n, func() bool { return false })
		searched := map[constellation]bool{}
		sum := 0
		for i, k := range ks {
			searched[k] = true
			sum += weights[i]
		}
		valid := 0
		for top := range n {
			for bottom := range n {
				for left := range n {
					for right := range n {
						k := constellation{top, bottom, left, right}
						if !k.valid(n) {
							continue
						}
						valid++
						found := map[constellation]bool{}
						for _, f := range symmetries {
							if img := k.image(n, f); searched[img] {
								found[img] = true
							}
						}
						if len(found) != 1 {
							t.Fatalf("n=%d: %v has %d images among those searched", n, k, len(found))
						}
					}
				}
			}
		}
		if sum != valid {
			t.Errorf("n=%d: orbits add up to %d, %d valid constellations", n, sum, valid)
		}
	}
}

// TestImages counts the solutions of each image of every constellation
// of n = 9 and 10: the search takes its lines in another order in each, so
// equal counts check the search, and the weighing of one image per orbit.
func TestImages(t *testing.T) {
	for _, n := range []int{9, 10} {
		ks, _ := constellations(n, func() bool { return false })
		f := newFiller(n, new(atomic.Bool))
		for _, k := range ks {
			var counts []uint64
			for _, s := range symmetries {
				var fr frame
				set := k.image(n, s).queens(n)
				for _, q := range set.all() {
					fr = fr.with(n, q)
				}
				counts = append(counts, f.count(fr))
			}
			for _, c := range counts[1:] {
				if c != counts[0] {
					t.Fatalf("n=%d: %v: images have %v solutions", n, k, counts)
				}
			}
		}
	}
}

// TestUnits checks that the work units split each constellation's search
// without loss or overlap: for n = 14 and 15, which have more units than
// constellations, the units' counts add up to the constellations' counted
// whole, weighed alike.
func TestUnits(t *testing.T) {
	sizes := []int{14}
	if exhaustive {
		sizes = append(sizes, 15)
	}
	for _, n := range sizes {
		weights, us := frames(context.Background(), n)
		f := newFiller(n, new(atomic.Bool))
		var whole, split uint64
		ks, _ := constellations(n, func() bool { return false })
		for i, k := range ks {
			var fr frame
			set := k.queens(n)
			for _, q := range set.all() {
				fr = fr.with(n, q)
			}
			whole += uint64(weights[i]) * f.count(fr)
		}
		for _, u := range us {
			split += uint64(weights[u.k]) * f.count(u.frame)
		}
		if len(us) <= len(ks) || split != whole {
			t.Errorf("n=%d: %d units of %d constellations count %d, the constellations whole %d", n, len(us), len(ks), split, whole)
		}
	}
}
