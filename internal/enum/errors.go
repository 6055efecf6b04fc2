package enum

import "errors"

// ErrGaveUp reports that a walk or a Warnsdorff search used up its budget
// of nodes (Config.Budget). The root package exports it as ErrGaveUp.
var ErrGaveUp = errors.New("knightstour: gave up")
