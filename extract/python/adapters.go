package python

import (
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

// finishFunc marks the calls whose results reach a return.
func finishFunc(fn *extract.Func) {
	for _, o := range fn.Returns {
		if o.Call >= 0 && o.Call < len(fn.Calls) {
			c := fn.Calls[o.Call]
			if !c.Returned {
				c.Returned, c.ReturnStep = true, o.Step
			}
		}
	}
}
