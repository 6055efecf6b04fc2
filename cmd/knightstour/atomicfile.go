package main

import (
	"errors"
	"fmt"
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
