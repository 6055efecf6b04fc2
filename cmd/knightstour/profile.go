package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
	"runtime/trace"
)

// profileFlags are -cpuprofile, -trace and -memprofile, for the commands
// whose work takes minutes to hours (count, queens). A CPU profile of a
// real count shows where its time goes (go tool pprof), and can become the
// binary's profile for profile-guided optimisation (scripts/pgo.sh); an
// execution trace shows when the workers wait, for what and for whom (go
// tool trace), which a profile of where the processors are busy cannot; a
// heap profile shows what the Go heap holds and allocated beside the
// states a frontier count maps from the kernel, which -memory counts.
type profileFlags struct{ cpu, trace, mem string }

func (p *profileFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&p.cpu, "cpuprofile", "", "write a CPU profile of the work to this file (go tool pprof)")
	fs.StringVar(&p.trace, "trace", "", "write an execution trace of the work to this file (go tool trace): when the workers wait, and for what")
	fs.StringVar(&p.mem, "memprofile", "", "write a heap profile to this file when the work ends, with what it allocated (go tool pprof -sample_index=alloc_space)")
}

// start creates the files of the profiles asked for and begins the CPU
// profile and the trace, so that a path that cannot be written fails
// before hours of work rather than after. The stop it returns ends them
// and writes the heap profile.
func (p *profileFlags) start() (stop func() error, err error) {
	var cpu, tr, mem *os.File
	traced := false
	defer func() {
		if err != nil {
			if traced { // the CPU profile, begun after it, failed to start
				trace.Stop()
			}
			for _, f := range []*os.File{cpu, tr, mem} {
				if f != nil {
					f.Close()
				}
			}
		}
	}()
	if p.mem != "" {
		if mem, err = os.Create(p.mem); err != nil {
			return nil, fmt.Errorf("-memprofile: %w", err)
		}
	}
	if p.trace != "" {
		if tr, err = os.Create(p.trace); err != nil {
			return nil, fmt.Errorf("-trace: %w", err)
		}
		if err = trace.Start(tr); err != nil {
			return nil, fmt.Errorf("-trace: %w", err)
		}
		traced = true
	}
	if p.cpu != "" {
		if cpu, err = os.Create(p.cpu); err != nil {
			return nil, fmt.Errorf("-cpuprofile: %w", err)
		}
		if err = pprof.StartCPUProfile(cpu); err != nil {
			return nil, fmt.Errorf("-cpuprofile: %w", err)
		}
	}
	return func() error {
		var errs []error
		if cpu != nil {
			pprof.StopCPUProfile()
			if err := cpu.Close(); err != nil {
				errs = append(errs, fmt.Errorf("-cpuprofile: %w", err))
			}
		}
		if tr != nil {
			trace.Stop()
			if err := tr.Close(); err != nil {
				errs = append(errs, fmt.Errorf("-trace: %w", err))
			}
		}
		if mem != nil {
			err := pprof.Lookup("allocs").WriteTo(mem, 0)
			if cerr := mem.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				errs = append(errs, fmt.Errorf("-memprofile: %w", err))
			}
		}
		return errors.Join(errs...)
	}, nil
}
