package frontier

import (
	"bufio"
	"bytes"
	"context"
	"math/bits"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
)

// TestDemandsKept checks that a count with a checkpoint keeps its demand
// filters beside it, that a resumed count takes them from there (a file
// whose filters let nothing through, with a good checksum, makes the
// resumed count find no tour), that a torn or changed file is made again
// (the count is right), and that no file is left after the count.
func TestDemandsKept(t *testing.T) {
	cfg := Config{Rows: 5, Cols: 7, Mode: FromStart, StartRow: 4, Workers: 2, MemoryLimit: 1 << 30}
	for _, tt := range []struct {
		name   string
		damage func(r *counter, vb *viability, name string)
		tours  func(want string) string
	}{
		{"as written", func(*counter, *viability, string) {}, func(want string) string { return want }},
		{"torn", func(_ *counter, _ *viability, name string) { truncate(t, name, 0.5) }, func(want string) string { return want }},
		{"changed", func(_ *counter, _ *viability, name string) { flip(t, name, 200) }, func(want string) string { return want }},
		{"another count's", func(r *counter, vb *viability, _ string) {
			other := &counter{cfg: r.cfg, f: r.f}
			other.cfg.StartRow = 0 // the same file, another count
			if err := other.saveDemands(vb); err != nil {
				t.Fatal(err)
			}
		}, func(want string) string { return want }},
		{"nothing viable", func(r *counter, vb *viability, _ string) {
			for _, fl := range vb.after {
				clear(fl.words)
			}
			if err := r.saveDemands(vb); err != nil {
				t.Fatal(err)
			}
		}, func(string) string { return "0" }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			stopped, want, _, cur := stoppedAt(t, cfg, 20)
			for _, lf := range cur.files {
				lf.f.Close()
			}
			r := testCounter(t, stopped, 1)
			vb := r.loadDemands(context.Background())
			if vb == nil {
				t.Fatalf("no demand filters kept beside the checkpoint")
			}
			tt.damage(r, vb, r.demandsFile())
			vb.free()
			got, err := Count(context.Background(), stopped)
			if err != nil {
				t.Fatal(err)
			}
			if diff := gocmp.Diff(tt.tours(want.Tours.String()), got.Tours.String()); diff != "" {
				t.Errorf("resumed count (-want +got):\n%s", diff)
			}
			if _, err := os.Stat(r.demandsFile()); !os.IsNotExist(err) {
				t.Errorf("the demand filters are left after the count: %v", err)
			}
		})
	}
}

// FuzzDemands feeds readDemands forged files of demand filters: it must
// refuse or read them without a panic, and never hold a filter larger than
// the file.
func FuzzDemands(f *testing.F) {
	cfg := Config{Rows: 4, Cols: 5, Mode: FromStart, StartRow: 3, Workers: 2, MemoryLimit: 1 << 28}
	cfg.Checkpoint = filepath.Join(f.TempDir(), "seed.ckpt")
	r := newCounter(mustBoard(f, cfg), cfg)
	vb, err := r.viability(context.Background(), r.f.packDemand(0, 0, r.firstZ()))
	if err != nil {
		f.Fatal(err)
	}
	if err := r.saveDemands(vb); err != nil {
		f.Fatal(err)
	}
	seed, err := os.ReadFile(r.demandsFile())
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add([]byte(demandsMagic))
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := r.readDemands(bufio.NewReader(bytes.NewReader(data)), int64(len(data)))
		if err == nil && got.bytes() > int64(len(data)) {
			t.Errorf("%d bytes of filters from a file of %d", got.bytes(), len(data))
		}
		got.free()
	})
}

// BenchmarkLoadDemands reads back a file of demand filters as a resumed
// count does, 20 filters of 8 MiB with random words, and reports the
// bytes read a second. On 8 rows the file holds some 3 GB.
func BenchmarkLoadDemands(b *testing.B) {
	cfg := Config{Rows: 4, Cols: 5, Mode: FromStart, StartRow: 3, Workers: 2, MemoryLimit: 1 << 30}
	cfg.Checkpoint = filepath.Join(b.TempDir(), "count.ckpt")
	r := newCounter(mustBoard(b, cfg), cfg)
	const words = 1 << 20
	rng := rand.New(rand.NewPCG(3, 4))
	vb := &viability{after: make([]*filter, r.f.n)}
	for v := range vb.after {
		fl := &filter{words: make([]uint64, words), shift: uint(64 - bits.TrailingZeros64(words/lineWords))}
		for i := range fl.words {
			fl.words[i] = rng.Uint64()
		}
		vb.after[v] = fl
	}
	if err := r.saveDemands(vb); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		got := r.loadDemands(context.Background())
		if got == nil {
			b.Fatal("the demand filters were not read back")
		}
		got.free()
	}
	b.ReportMetric(float64(vb.bytes())*float64(b.N)/b.Elapsed().Seconds()/1e6, "MB/s")
}
