package effects_test

import (
	"context"
	"testing"

	"github.com/acg-dev/acg/effects"
	"github.com/acg-dev/acg/extract"
	"github.com/acg-dev/acg/extract/python"
)

// TestSettingAbsence: a constructor setting is provably absent only when
// nothing could hold it (no positional argument in its place, no ** spread
// in the call or in the dicts on the way); a setting passed by position or
// through the OpenAI SDK's TypedDict param types is read as written.
func TestSettingAbsence(t *testing.T) {
	ci := effects.DefaultCatalog().Tool("agents.CodeInterpreterTool")
	if ci == nil {
		t.Fatal("CodeInterpreterTool is not catalogued")
	}
	for _, tc := range []struct {
		src, path string
		value     string // the literal found, "" for none
		absent    bool
	}{
		{`CodeInterpreterTool(tool_config={"type": "code_interpreter", "container": {"type": "auto"}})`, "tool_config.container.file_ids", "", true},
		{`CodeInterpreterTool(tool_config={"type": "code_interpreter", "container": {"type": "auto"}})`, "tool_config.container.type", "auto", false},
		{`CodeInterpreterTool({"type": "code_interpreter", "container": {"type": "auto"}})`, "tool_config.container.type", "auto", false},
		{`CodeInterpreterTool({"type": "code_interpreter", "container": {"type": "auto"}})`, "tool_config.container.file_ids", "", true},
		{`CodeInterpreterTool(tool_config={"container": {"type": "auto", **EXTRA}})`, "tool_config.container.file_ids", "", false},
		{`CodeInterpreterTool(**KWARGS)`, "tool_config", "", false},
		{`CodeInterpreterTool(tool_config=CONFIG)`, "tool_config.container.file_ids", "", false},
		{`CodeInterpreterTool(tool_config=CodeInterpreter(type="code_interpreter", container=CodeInterpreterContainerCodeInterpreterToolAuto(type="auto")))`, "tool_config.container.type", "auto", false},
		{`CodeInterpreterTool(tool_config=CodeInterpreter(type="code_interpreter", container=CodeInterpreterContainerCodeInterpreterToolAuto(type="auto")))`, "tool_config.container.file_ids", "", true},
		{`CodeInterpreterTool(tool_config=build(container=dict(type="auto")))`, "tool_config.container.type", "", false},
		{`CodeInterpreterTool(tool_config=dict(type="code_interpreter", container=dict(type="auto")))`, "tool_config.container.file_ids", "", true},
		{`CodeInterpreterTool()`, "tool_config", "", true},
	} {
		src := "from agents import CodeInterpreterTool\nfrom openai.types.responses.tool_param import CodeInterpreter, CodeInterpreterContainerCodeInterpreterToolAuto\n" +
			"from cfg import CONFIG, EXTRA, KWARGS, build\ntool = " + tc.src + "\n"
		tree, err := python.Parse(context.Background(), []byte(src), nil)
		if err != nil {
			t.Fatal(err)
		}
		f := python.Extract("t.py", []byte(src), tree)
		var ctor *extract.Expr
		for _, fn := range f.Funcs {
			for _, c := range fn.Calls {
				if c.Qual == "agents.CodeInterpreterTool" {
					ctor = c.Expr
				}
			}
		}
		if ctor == nil {
			t.Fatalf("%s: no constructor call", tc.src)
		}
		v, absent := ci.Setting(ctor, tc.path)
		got, _ := extract.Deref(v).StrValue()
		if got != tc.value || absent != tc.absent {
			t.Errorf("%s %s: value %q absent %v, want %q absent %v", tc.src, tc.path, got, absent, tc.value, tc.absent)
		}
	}
}
