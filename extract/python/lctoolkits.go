package python

import "github.com/acg-dev/acg/extract"

// LangChain's toolkit agent constructors (langchain_experimental and
// langchain_community agent_toolkits, and their old langchain.agents
// homes) build an AgentExecutor whose tools are fixed by the constructor:
// the tool or toolkit passed in, or the Python REPL the data-frame agents
// run model-written code in.

func init() { adapters = append(adapters, toolkitAgents) }

var toolkitTops = []string{"langchain_experimental", "langchain_community", "langchain"}

// toolkitArg names where each constructor takes its tools: a tool, a
// toolkit, or "" for the built-in Python REPL over a data frame.
var toolkitArg = map[string]struct {
	pos int
	kw  string
}{
	"create_python_agent":           {1, "tool"},
	"create_sql_agent":              {1, "toolkit"},
	"create_json_agent":             {1, "toolkit"},
	"create_openapi_agent":          {1, "toolkit"},
	"create_pandas_dataframe_agent": {-1, ""},
	"create_csv_agent":              {-1, ""},
	"create_spark_dataframe_agent":  {-1, ""},
}

func toolkitAgents(f *extract.File) {
	for _, c := range f.Calls() {
		if c.HeadKind != extract.HeadImport {
			continue
		}
		ctor := extract.LastDot(c.Qual)
		where, ok := toolkitArg[ctor]
		if !ok || !extract.QualIs(c.Qual, ctor, toolkitTops...) {
			continue
		}
		e := c.Expr
		a := &extract.Agent{Framework: extract.FrameworkLangChain, Ctor: ctor, Loc: c.Loc, Call: e, Var: c.AssignedTo}
		a.Name = agentName(e, c, ctor)
		switch {
		case where.kw == "":
			// The data-frame agents' only tool: PythonAstREPLTool over the frame.
			a.Tools = append(a.Tools, extract.ToolRef{Tool: &extract.Tool{ID: f.Path + "#python_repl_ast@" + itoaLine(int(c.Loc.Start.Line)), Name: "python_repl_ast",
				Framework: extract.FrameworkLangChain, Kind: extract.ToolPrebuilt, Class: "langchain_experimental.tools.PythonAstREPLTool", Loc: c.Loc, NameLoc: c.Loc}})
		default:
			arg := e.Arg(where.pos, where.kw)
			if arg == nil && ctor == "create_sql_agent" {
				arg = e.Kwarg("db") // the toolkit built from db: unknown unless passed (fail closed)
			}
			if arg == nil {
				continue
			}
			list := arg
			if where.kw == "tool" {
				list = &extract.Expr{Kind: extract.ExprList, Elems: []*extract.Expr{arg}, Scope: arg.Scope, Loc: arg.Loc}
			}
			a.Tools = append(a.Tools, extract.ToolRef{Expr: list})
		}
		f.AddAgent(a)
	}
}
