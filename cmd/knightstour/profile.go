package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
)

// profileFlags are -cpuprofile and -memprofile, for the commands whose
// work takes minutes to hours (count, queens). A CPU profile of a real
// count shows where its time goes (go tool pprof), and can become the
// binary's profile for profile-guided optimisation (scripts/pgo.sh); a
// heap profile shows what the Go heap holds and allocated beside the
// states a frontier count maps from the kernel, which -memory counts.
type profileFlags struct{ cpu, mem string }

func (p *profileFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&p.cpu, "cpuprofile", "", "write a CPU profile of the work to this file (go tool pprof)")
	fs.StringVar(&p.mem, "memprofile", "", "write a heap profile to this file when the work ends, with what it allocated (go tool pprof -sample_index=alloc_space)")
}

// start begins the CPU profile, if one is asked for, and creates the
// heap profile's file, so that a path that cannot be written fails before
// hours of work rather than after. The stop it returns ends the CPU
// profile and writes the heap profile.
func (p *profileFlags) start() (stop func() error, err error) {
	var cpu, mem *os.File
	if p.mem != "" {
		if mem, err = os.Create(p.mem); err != nil {
			return nil, fmt.Errorf("-memprofile: %w", err)
		}
	}
	if p.cpu != "" {
		if cpu, err = os.Create(p.cpu); err == nil {
			if err = pprof.StartCPUProfile(cpu); err != nil {
				cpu.Close()
			}
		}
		if err != nil {
			if mem != nil {
				mem.Close()
			}
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
