package resolve

import (
	"sync"

	"github.com/acg-dev/acg/extract"
)

// Overrides: a method called on a value whose class is declared rather
// than built (self.converters: list[DocumentConverter], a parameter's
// annotation, self inside the base class) may run any in-tree subclass's
// override of it. The base's body is often only `raise
// NotImplementedError`: reading it alone would clear a call whose real
// work is in the subclasses.
//
// A subclass names its base, so it imports it and is in the same closed
// group of files (incremental/components.go), as construction sites are:
// the subclasses seen from one group's build are all there are.

// subclassIndex holds, once per Index, the classes of the tree by the last
// dotted part of each base they name; overrides keeps those whose base
// really is the class.
type subclassIndex struct {
	once   sync.Once
	byBase map[string][]*extract.Class
}

func (ix *Index) subclasses() *subclassIndex {
	si := ix.subs
	si.once.Do(func() {
		si.byBase = map[string][]*extract.Class{}
		for _, f := range ix.files {
			for _, cl := range f.Classes {
				for _, b := range cl.Bases {
					if b != nil {
						n := extract.LastDot(b.Name)
						si.byBase[n] = append(si.byBase[n], cl)
					}
				}
			}
		}
	})
	return si
}

// overrides returns the methods of fn's name that in-tree subclasses of
// fn's class define, transitively, in a stable order; nil for a function
// that is not a method or whose class has none.
func (ix *Index) overrides(fn *extract.Func) []*extract.Func {
	if fn == nil || fn.Class == "" || fn == noCode {
		return nil
	}
	f := ix.fileOf(fn.Scope)
	if f == nil || f.Classes[fn.Class] == nil {
		return nil
	}
	si := ix.subclasses()
	var out []*extract.Func
	seen := map[*extract.Class]bool{f.Classes[fn.Class]: true}
	queue := []*extract.Class{f.Classes[fn.Class]}
	for len(queue) > 0 && len(seen) < 256 {
		base := queue[0]
		queue = queue[1:]
		for _, sub := range si.byBase[base.Name] {
			if seen[sub] || !ix.extends(sub, base) {
				continue
			}
			seen[sub] = true
			queue = append(queue, sub)
			if m := sub.Methods[fn.Name]; m != nil && m != fn {
				out = append(out, m)
			}
		}
	}
	return out
}

// extends reports whether one of sub's bases names base.
func (ix *Index) extends(sub, base *extract.Class) bool {
	for _, b := range sub.Bases {
		if b != nil && ix.classNamed(sub.Scope, b.Name) == base {
			return true
		}
	}
	return false
}
