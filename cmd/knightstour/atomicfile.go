package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/euler1758/knightstour/internal/filelock"
)

// A claim is on a file this run writes (-o), claimed for the whole run: it
// is absent or a regular file (a symbolic link is followed to one), and
// no other process writes it meanwhile, nor reads it half done.
type claim struct {
	name string // the file itself, symbolic links followed
	lock *filelock.Lock
}

// claimOutput claims name for writing.
func claimOutput(name string) (*claim, error) {
	target := name
	switch st, err := os.Lstat(name); {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, fmt.Errorf("cannot write %s: %w", name, err)
	case st.Mode()&fs.ModeSymlink != 0:
		if target, err = filepath.EvalSymlinks(name); err != nil {
			return nil, fmt.Errorf("cannot write %s: a symbolic link to nowhere: %w", name, err)
		}
		if st, err = os.Stat(target); err != nil {
			return nil, fmt.Errorf("cannot write %s: %w", name, err)
		}
		fallthrough
	default:
		if !st.Mode().IsRegular() {
			return nil, fmt.Errorf("cannot write %s: %s, not a regular file", name, kindOfFile(st.Mode()))
		}
	}
	lock, err := filelock.Acquire(name, target+".lock")
	if err != nil {
		return nil, err
	}
	return &claim{name: target, lock: lock}, nil
}

// String is the file's name.
func (o *claim) String() string { return o.name }

// release lets the file go.
func (o *claim) release() { o.lock.Release() }

// kindOfFile names what a file that is not a regular one is.
func kindOfFile(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	default:
		return "a special file"
	}
}

// An atomicFile is an output file that is whole or absent: it is written
// under a temporary name beside its own and renamed to it only once
// complete, so that a stopped command leaves no file to mistake for a
// whole one.
type atomicFile struct {
	*os.File
	out  *claim
	own  bool // the claim is this file's, to release with it
	done bool
}

// createAtomic claims name and starts writing it.
func createAtomic(name string) (*atomicFile, error) {
	out, err := claimOutput(name)
	if err != nil {
		return nil, err
	}
	f, err := out.create()
	if err != nil {
		out.release()
		return nil, err
	}
	f.own = true
	return f, nil
}

// create starts writing the output under a temporary name of its own,
// never a user's file.
func (o *claim) create() (*atomicFile, error) {
	f, err := os.CreateTemp(filepath.Dir(o.name), "."+filepath.Base(o.name)+".*.partial")
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err // its path is the temporary name, not the one asked for
		}
		return nil, fmt.Errorf("cannot write %s: %w", o.name, err)
	}
	return &atomicFile{File: f, out: o}, nil
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
		err = os.Rename(f.File.Name(), f.out.name)
	}
	if err != nil {
		os.Remove(f.File.Name())
		return err
	}
	f.done = true
	if f.own {
		f.out.release()
	}
	return nil
}

// abort removes the file unless it was committed.
func (f *atomicFile) abort() {
	if f.done {
		return
	}
	f.Close()
	os.Remove(f.File.Name())
	if f.own {
		f.out.release()
	}
}

// write writes the JSON result v to the output, whole or not at all.
func (o *claim) write(v any) error {
	f, err := o.create()
	if err != nil {
		return err
	}
	defer f.abort()
	if err := json.NewEncoder(f).Encode(v); err != nil {
		return err
	}
	return f.commit()
}

// maxResultBytes bounds a result file (-o): a few hundred bytes, and a
// count of every length of a long board a number a length.
const maxResultBytes = 16 << 20

// read reads into v the JSON result that an earlier run of a command
// left in the file, and reports whether there was one: a missing or
// empty file holds none; a file that is not a result (a torn write, unknown or
// repeated keys, far too long) is an error, not to be overwritten unread.
func (o *claim) read(v any) (bool, error) {
	raw, err := readBounded(o.name, maxResultBytes)
	if errors.Is(err, fs.ErrNotExist) || err == nil && len(raw) == 0 {
		return false, nil // an empty file is no torn write: those are renamed whole
	}
	if err == nil {
		err = decodeStrict(raw, v)
	}
	if err != nil {
		return false, fmt.Errorf("%s: %w (remove it to count again)", o.name, err)
	}
	return true, nil
}

// readBounded reads the regular file name whole, refusing at once
// anything else (a device, a pipe, which could block or never end) or a
// file of more than limit bytes.
func readBounded(name string, limit int64) ([]byte, error) {
	st, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s, not a regular file", kindOfFile(st.Mode()))
	}
	if st.Size() > limit {
		return nil, fmt.Errorf("%d bytes, more than a result holds", st.Size())
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	raw, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err == nil && int64(len(raw)) > limit {
		err = fmt.Errorf("more than %d bytes, more than a result holds", limit)
	}
	return raw, err
}
