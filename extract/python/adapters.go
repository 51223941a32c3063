package python

import (
	"slices"

	"github.com/acg-dev/acg/extract"
	"github.com/acg-dev/acg/extract/syntax"
)

// adapters run after a Python file's flows are extracted; each recognises one
// framework's agents, tools and gates. They only look at this file.
var adapters []func(*extract.File)

// treeAdapters run after adapters and also get the parse tree and source,
// for the few facts the flow model does not keep (the string literals a
// dispatching `if name == "x":` compares against).
var treeAdapters []func(f *extract.File, root *syntax.Node, src []byte)

// finishFunc marks the calls whose results reach a return, and which of
// their attributes do when only attributes do.
func finishFunc(fn *extract.Func) {
	whole := map[int]bool{}
	for _, o := range fn.Returns {
		if o.Call >= 0 && o.Call < len(fn.Calls) {
			c := fn.Calls[o.Call]
			if !c.Returned {
				c.Returned, c.ReturnStep = true, o.Step
			}
			if o.Key == "" {
				whole[o.Call] = true
			}
		}
	}
	for _, o := range fn.Returns {
		if o.Call < 0 || o.Call >= len(fn.Calls) || o.Key == "" || whole[o.Call] {
			continue
		}
		c := fn.Calls[o.Call]
		if !slices.Contains(c.ReturnFields, o.Key) {
			c.ReturnFields = append(c.ReturnFields, o.Key)
		}
	}
	for i, c := range fn.Calls {
		if whole[i] {
			c.ReturnFields = nil
		} else {
			slices.Sort(c.ReturnFields)
		}
	}
}
