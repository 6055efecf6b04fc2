module github.com/euler1758/knightstour

go 1.26.8

require (
	github.com/google/go-cmp v0.7.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
)
