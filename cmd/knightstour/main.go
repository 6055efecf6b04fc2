// Command knightstour finds, lists and counts knight's tours.
//
// Usage:
//
//	knightstour [flags] RxC          the case study's program: sequential and parallel search, timings, first tour
//	knightstour count [flags] RxC    count the tours (-json for a machine-readable result)
//	knightstour list [flags] RxC     print the tours, one per line, in the case study's format and order
//	knightstour first [flags] RxC    print the first tour as a board
//	knightstour census [flags] RxC   count the tours from every square, and the totals
//	knightstour tour [flags] RxC     one tour on a large board, -svg FILE draws it
//	knightstour verify FILE          check a file written by 'list -o FILE'
//	knightstour queens [flags] N     count the N-Queens solutions
//	knightstour merge [FILE...]      add the -json results of the shards of one count
//	knightstour version              the version and revision of this build
//
// Every command takes -start SQ (a square as {row,col} or a1; default the
// lower-left corner), -order (seed, wirth or eight jumps such as
// "(2,1) (1,2) ..."), -closed, -workers N and -quiet. Progress goes to stderr for
// runs longer than a second; interrupt with Ctrl-C.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], stopWriter{ctx, os.Stdout}, os.Stderr)
	stop()
	os.Exit(code)
}

// Exit codes: a finished run, a failed or interrupted one, and bad usage.
const (
	exitOK    = 0
	exitFail  = 1
	exitUsage = 2
)

const usage = `usage:
  knightstour [flags] RxC          run the case study's program: sequential and parallel search, timings, first tour
  knightstour count [flags] RxC    count the tours (-json for one JSON object)
  knightstour list [flags] RxC     print every tour, one per line, in the case study's format and order
  knightstour first [flags] RxC    print the first tour as a board
  knightstour census [flags] RxC   count the tours from every square, and the totals
  knightstour tour [flags] RxC     one tour on a large board (Warnsdorff), -svg FILE draws it
  knightstour verify FILE          check a file of tours written by 'list -o FILE'
  knightstour queens [flags] N     count the N-Queens solutions (-unique, -shard i/n, -json, -print)
  knightstour merge [FILE...]      add the -json results of the shards of one count (-shard i/n)
  knightstour version              the version, the revision it was built from, and its Go

RxC is the board, rows x columns, for example 4x7 (the default for the first form).
-closed makes any command look for closed tours only.
Run 'knightstour COMMAND -h' for a command's flags.
`

// commandFunc runs one subcommand.
type commandFunc func(ctx context.Context, args []string, stdout, stderr io.Writer) error

// lookup returns the subcommand called name; anything else is the seed's
// program.
func lookup(name string) (commandFunc, bool) {
	switch name {
	case "count":
		return runCount, true
	case "list":
		return runList, true
	case "first":
		return runFirst, true
	case "census":
		return runCensus, true
	case "verify":
		return runVerify, true
	case "queens":
		return runQueens, true
	case "merge":
		return runMerge, true
	case "tour":
		return runTour, true
	case "version":
		return runVersion, true
	}
	return runMain, false
}

// run is the whole program, apart from the process: it returns the exit
// code. Status 2 is for a mistake in the command line; a panic, which the
// Go runtime would end with status 2 too, is a failure of the program, so
// run turns one on its own goroutine into status 1, with the stack to
// report.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) (code int) {
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(stderr, "knightstour: internal error, please report it: %v\n%s", p, debug.Stack())
			code = exitFail
		}
	}()
	command, rest := commandFunc(runMain), args
	if len(args) > 0 {
		switch args[0] {
		case "help", "-h", "-help", "--help":
			fmt.Fprint(stdout, usage)
			return exitOK
		}
		if c, ok := lookup(args[0]); ok {
			command, rest = c, args[1:]
		}
	}
	err := command(ctx, rest, stdout, stderr)
	var ue usageError
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return exitOK
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "knightstour: %s\n%s", message(err), ue.hint)
		return exitUsage
	case errors.Is(err, context.Canceled):
		msg := "interrupted"
		if s := message(err); s != context.Canceled.Error() {
			msg += ": " + strings.TrimPrefix(s, context.Canceled.Error()+"; ")
		}
		fmt.Fprintln(stderr, "knightstour: "+msg)
		return exitFail
	default:
		fmt.Fprintf(stderr, "knightstour: %s\n", message(err))
		return exitFail
	}
}

// message is err's text without the library's "knightstour: " prefixes,
// which would repeat the one the command prints, also where an error wraps
// another ("-start: knightstour: not a square of the board").
func message(err error) string {
	return strings.ReplaceAll(err.Error(), "knightstour: ", "")
}

// usageError is a mistake in the command line; hint says what to type.
type usageError struct {
	err  error
	hint string
}

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }
