package knightstour

import (
	"context"
	"fmt"
)

// checkContext refuses a nil context, which every long call needs to be
// stopped by.
func checkContext(ctx context.Context) error {
	if ctx == nil {
		return fmt.Errorf("%w: a nil context.Context (use context.Background())", ErrMisuse)
	}
	return nil
}
