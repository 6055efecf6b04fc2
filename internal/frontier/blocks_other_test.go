//go:build !unix

package frontier

import "io/fs"

// blocksOf returns the bytes a file takes on disk: its size, where the
// system does not tell its blocks.
func blocksOf(info fs.FileInfo) int64 { return info.Size() }
