package frontier

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"testing"
)

// FuzzCheckpoint resumes a count from forged checkpoints: the manifest is
// random, but its checksum is right, so that the fuzzer explores what the
// loader checks beyond it. The count must refuse the checkpoint with
// ErrCheckpoint, or resume from it and find the right count; never panic
// or count wrong.
func FuzzCheckpoint(f *testing.F) {
	cfg := Config{Rows: 4, Cols: 5, Mode: FromStart, StartRow: 3, Workers: 2, MemoryLimit: 1 << 28}
	want, err := Count(context.Background(), cfg)
	if err != nil {
		f.Fatal(err)
	}
	dir := f.TempDir()
	cfg.Checkpoint = filepath.Join(dir, "seed.ckpt")
	if err := interrupted(f, cfg, 8); !errors.Is(err, context.Canceled) {
		f.Fatalf("stopped with %v", err)
	}
	data, err := os.ReadFile(cfg.Checkpoint)
	if err != nil {
		f.Fatal(err)
	}
	// The layer files the checkpoint names, to put beside each forgery.
	layers := map[string][]byte{}
	entries, err := os.ReadDir(dir)
	if err != nil {
		f.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() != "seed.ckpt" {
			if layers[e.Name()], err = os.ReadFile(filepath.Join(dir, e.Name())); err != nil {
				f.Fatal(err)
			}
		}
	}
	body, _, _ := bytes.Cut(data, []byte("\ncrc32c "))
	f.Add(body)
	f.Add([]byte(`{}`))
	f.Add(bytes.Replace(body, []byte(`"squares":8`), []byte(`"squares":9`), 1))
	f.Fuzz(func(t *testing.T, body []byte) {
		dir := t.TempDir()
		for name, data := range layers {
			if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		c := cfg
		c.Checkpoint = filepath.Join(dir, "seed.ckpt")
		forged := fmt.Appendf(bytes.Clone(body), "\ncrc32c %08x\n", crc32.Checksum(body, castagnoli))
		if err := os.WriteFile(c.Checkpoint, forged, 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := Count(context.Background(), c)
		switch {
		case errors.Is(err, ErrCheckpoint):
		case err != nil:
			t.Fatalf("resume: %v", err)
		case got.Tours.Cmp(want.Tours) != 0:
			t.Fatalf("resumed to %v, want %v", got.Tours, want.Tours)
		}
	})
}
