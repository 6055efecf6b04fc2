package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
)

// The fuzz targets feed the command's readers of user data random input:
// none may panic or hang. .ci/run runs each for 30 seconds; go test runs
// their seeds.

func FuzzParseSize(f *testing.F) {
	for _, s := range []string{"4x7", "8×8", "0x5", "-1x3", "x", "99999999999999999999x2", "3X4"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if r, c, err := parseSize(s); err == nil && (r < 1 || c < 1) {
			t.Errorf("parseSize(%q) = %d, %d: accepted", s, r, c)
		}
	})
}

func FuzzParseBytes(f *testing.F) {
	for _, s := range []string{"8G", "512M", "1", "", "G", "-5K", "9223372036854775807G", "0x10"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if n, err := parseBytes(s); err == nil && n <= 0 {
			t.Errorf("parseBytes(%q) = %d: accepted", s, n)
		}
	})
}

// FuzzMerge merges forged files of shard results: merge must refuse them
// with exit status 1 (or 2 for a usage error), never panic.
func FuzzMerge(f *testing.F) {
	for _, seed := range []string{
		`{"kind":"tours","rows":3,"cols":4,"start":"{2,0}","order":"seed","closed":false,"method":"enum","count":2,"nodes":30,"tasks":1,"all_tasks":1,"workers":1,"shard":0,"shards":1,"elapsed_ms":1}`,
		`{"kind":"tours","rows":6,"cols":6,"start":"{5,0}","order":"seed","closed":false,"method":"dp","count":5,"tasks":36,"workers":2,"shard":1,"shards":2,"parted_at":14,"followed":1000,"states":[1,1,1,1,1,1,2,4,8,32,63,115,284,514,2206]}`,
		`{"kind":"queens","n":8,"total":92,"unique":12,"c2":0,"c4":1,"c8":11,"tasks":24,"all_tasks":24,"shard":0,"shards":1,"elapsed_ms":0.1}`,
		`{"kind":"queens","n":8,"total":92,"total":93}`,
		"{}", "[]", "",
	} {
		f.Add([]byte(seed))
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		name := filepath.Join(dir, "shards.json")
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
		var out, errOut bytes.Buffer
		code := run(context.Background(), []string{"merge", name}, &out, &errOut)
		if code != exitOK && code != exitFail && code != exitUsage {
			t.Errorf("merge: exit %d", code)
		}
	})
}
