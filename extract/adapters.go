package extract

// adapters run after a Python file's flows are extracted; each recognises one
// framework's agents, tools and gates. They only look at this file.
var adapters []func(*File)

// finishFunc marks the calls whose results reach a return.
func finishFunc(fn *Func) {
	for _, o := range fn.Returns {
		if o.Call >= 0 && o.Call < len(fn.Calls) {
			c := fn.Calls[o.Call]
			if !c.Returned {
				c.Returned, c.ReturnStep = true, o.Step
			}
		}
	}
}
