package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// An atomicFile is an output file that is whole or absent: it is written
// under a temporary name beside its own and renamed to it only once
// complete, so that a stopped command leaves no file to mistake for a
// whole one.
type atomicFile struct {
	*os.File
	name string
	done bool
}

// createAtomic starts writing name.
func createAtomic(name string) (*atomicFile, error) {
	f, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".*.partial")
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err // its path is the temporary name, not the one asked for
		}
		return nil, fmt.Errorf("cannot write %s: %w", name, err)
	}
	return &atomicFile{File: f, name: name}, nil
}

// commit makes the file whole: written out, closed and renamed to its name.
func (f *atomicFile) commit() error {
	err := f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.File.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(f.File.Name(), f.name)
	}
	if err != nil {
		os.Remove(f.File.Name())
		return err
	}
	f.done = true
	return nil
}

// abort removes the file unless it was committed.
func (f *atomicFile) abort() {
	if !f.done {
		f.Close()
		os.Remove(f.File.Name())
	}
}

// writeResult writes the JSON result v to name (-o), whole or not at all.
func writeResult(name string, v any) error {
	f, err := createAtomic(name)
	if err != nil {
		return err
	}
	defer f.abort()
	if err := json.NewEncoder(f).Encode(v); err != nil {
		return err
	}
	return f.commit()
}

// readResult reads into v the JSON result that an earlier run of a
// command left in file (-o), and reports whether there was one: a missing
// file holds none; a file that is not a result (a torn write, unknown or
// repeated keys) is an error, not to be overwritten unread.
func readResult(file string, v any) (bool, error) {
	raw, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if err := decodeStrict(raw, v); err != nil {
		return false, fmt.Errorf("%s: %w (remove it to count again)", file, err)
	}
	return true, nil
}
