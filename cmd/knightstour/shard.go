package main

import (
	"fmt"

	"strconv"
	"strings"
)

// shardFlag is a -shard i/n flag: this process does shard i of n.
type shardFlag struct{ i, n int }

func (s *shardFlag) String() string {
	if s.n == 0 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.i, s.n)
}

func (s *shardFlag) Set(v string) error {
	a, b, ok := strings.Cut(v, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return fmt.Errorf("want i/n with 0 <= i < n, for example 0/4")
	}
	s.i, s.n = i, n
	return nil
}

// set reports whether the flag was given.
func (s *shardFlag) set() bool { return s.n > 0 }
