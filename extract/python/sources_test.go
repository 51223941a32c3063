package python

import (
	"strings"
	"testing"

	"github.com/acg-dev/acg/extract"
)

func TestMCPServerV2AndAnnotations(t *testing.T) {
	f := parse(t, `from mcp.server.mcpserver import MCPServer, Context
from mcp.types import ToolAnnotations

server = MCPServer()

@server.tool(annotations=ToolAnnotations(destructive_hint=True, read_only_hint=False))
def wipe(path: str) -> str:
    return path

@server.tool(name="peek", annotations=ToolAnnotations(read_only_hint=True, open_world_hint=False))
async def look(path: str, ctx: Context) -> str:
    answer = await ctx.elicit("ok?", schema=None)
    return path
`)
	if len(f.Servers) != 1 || f.Servers[0].Name != "server" || len(f.Servers[0].Tools) != 2 {
		t.Fatalf("servers = %+v", f.Servers)
	}
	wipe, peek := f.Servers[0].Tools[0], f.Servers[0].Tools[1]
	if !wipe.Declared["writes_state"] || !wipe.Declared["irreversible"] || wipe.Extra[extract.ExtraDecidedBy] != "annotation" {
		t.Errorf("wipe hints = %v %v", wipe.Declared, wipe.Extra)
	}
	if peek.Name != "peek" || len(peek.Declared) != 0 {
		t.Errorf("safe hints must declare nothing: %s %v", peek.Name, peek.Declared)
	}
	if len(peek.Func.Gates) != 1 {
		t.Errorf("ctx.elicit is a gate: %v", peek.Func.Gates)
	}
}

func TestLowLevelBranches(t *testing.T) {
	src := `import mcp.types as types
from mcp.server.lowlevel import Server

app = Server("x")

@app.call_tool()
async def call(name: str, arguments: dict):
    if name == "a" or name == "b":
        return one()
    elif name in ("c", 'd'):
        return two()
    match name:
        case "e":
            return three()
    return four()
`
	f := parse(t, src)
	var got []string
	for _, tl := range f.Tools {
		body := ""
		if tl.Branch.Valid() {
			body = strings.TrimSpace(src[tl.Branch.Start.Byte:tl.Branch.End.Byte])
		}
		got = append(got, tl.Name+"="+body)
	}
	want := "a=return one();b=return one();c=return two();d=return two();e=return three()"
	if strings.Join(got, ";") != want {
		t.Errorf("branches:\n got  %s\n want %s", strings.Join(got, ";"), want)
	}
}

func TestCrewHookGuards(t *testing.T) {
	f := parse(t, `from crewai.hooks import before_tool_call

@before_tool_call
def ask_for_mail(context):
    if context.tool_name == "Send email" or context.tool_name == "Post":
        context.request_human_input(prompt="ok?")
    return None

@before_tool_call(tools=["Delete file"], agents=["Janitor"])
def always(context):
    answer = context.request_human_input(prompt="delete?")
    return None

@before_tool_call
def only_big(context):
    if len(context.tool_input.get("body", "")) > 1000:
        return False
    return None
`)
	if f.Crew == nil || len(f.Crew.Hooks) != 2 {
		t.Fatalf("hooks = %+v", f.Crew)
	}
	h0, h1 := f.Crew.Hooks[0].Approval, f.Crew.Hooks[1]
	if h0.All || strings.Join(h0.Tools, ",") != "Send email,Post" {
		t.Errorf("name-guarded hook gates %v (all %v)", h0.Tools, h0.All)
	}
	if h1.Approval.All || strings.Join(h1.Approval.Tools, ",") != "Delete file" || strings.Join(h1.Agents, ",") != "Janitor" {
		t.Errorf("filtered hook = %+v agents %v", h1.Approval, h1.Agents)
	}
}
