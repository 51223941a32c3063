package extract

import (
	"testing"
	"unsafe"
)

// TestFactSizes holds the per-expression facts to the allocation classes
// docs/performance.md ("Memory") measured them in: there is one Expr per
// expression, one Call per call site and one Step per flow hop of every
// file, so a field added carelessly (or a bool between two pointers)
// costs megabytes on a large tree. Raise a bound only knowingly.
func TestFactSizes(t *testing.T) {
	for _, c := range []struct {
		name      string
		size, max uintptr
	}{
		{"Point", unsafe.Sizeof(Point{}), 12},
		{"Loc", unsafe.Sizeof(Loc{}), 40},
		{"Expr", unsafe.Sizeof(Expr{}), 256},
		{"Call", unsafe.Sizeof(Call{}), 192},
		{"Step", unsafe.Sizeof(Step{}), 64},
		{"Arg", unsafe.Sizeof(Arg{}), 120},
	} {
		if c.size > c.max {
			t.Errorf("%s is %d bytes, more than %d", c.name, c.size, c.max)
		}
	}
}
