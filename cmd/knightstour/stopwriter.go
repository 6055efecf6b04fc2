package main

import (
	"context"
	"io"
)

// A stopWriter writes to w until ctx is done, and then gives up at once,
// even in the middle of a write that waits on a pipe nobody reads
// (`knightstour list 8x8 | less`, left open): Ctrl-C stops the command
// within a fraction of a second, as it does the work.
type stopWriter struct {
	ctx context.Context
	w   io.Writer
}

func (s stopWriter) Write(p []byte) (int, error) {
	if err := s.ctx.Err(); err != nil {
		return 0, err
	}
	type result struct {
		n   int
		err error
	}
	done := make(chan result, 1)
	// The write goes on in its goroutine if it is given up, so it gets a
	// copy: the caller may use p again.
	own := append([]byte(nil), p...)
	go func() {
		n, err := s.w.Write(own)
		done <- result{n, err}
	}()
	select {
	case r := <-done:
		return r.n, r.err
	case <-s.ctx.Done():
		return 0, s.ctx.Err()
	}
}
