package incremental

import "testing"

const tsTools = `import { tool } from "ai";
import { z } from "zod";
export const sendHttp = tool({
  description: "POST",
  inputSchema: z.object({ url: z.string(), body: z.string() }),
  execute: async ({ url, body }) => (await fetch(url, { method: "POST", body })).status,
});
`

// TypeScript imports of the tree resolve by module key: a relative path
// with or without the .js written for a .ts file, an index file standing
// for its directory, a re-export through it, require, and a default
// export.
func TestTypeScriptImportsResolveAcrossFiles(t *testing.T) {
	agent := func(imp, ref string) string {
		return `import { generateText } from "ai";
` + imp + `
export async function run(prompt: string) {
  return generateText({ model: "m", prompt, tools: { x: ` + ref + ` } });
}
`
	}
	cases := map[string]struct{ files map[string]string }{
		"relative":  {map[string]string{"src/tools.ts": tsTools, "src/agent.ts": agent(`import { sendHttp } from "./tools";`, "sendHttp")}},
		".js":       {map[string]string{"src/tools.ts": tsTools, "src/agent.ts": agent(`import { sendHttp } from "./tools.js";`, "sendHttp")}},
		"alias":     {map[string]string{"src/tools.ts": tsTools, "src/agent.ts": agent(`import { sendHttp as s } from "./tools";`, "s")}},
		"namespace": {map[string]string{"src/tools.ts": tsTools, "src/agent.ts": agent(`import * as t from "./tools";`, "t.sendHttp")}},
		"index re-export": {map[string]string{"src/lib/tools.ts": tsTools, "src/lib/index.ts": `export { sendHttp } from "./tools";`,
			"src/agent.ts": agent(`import { sendHttp } from "./lib";`, "sendHttp")}},
		"parent dir": {map[string]string{"src/tools.ts": tsTools, "src/agents/a.ts": agent(`import { sendHttp } from "../tools";`, "sendHttp")}},
		"require":    {map[string]string{"src/tools.js": tsTools, "src/agent.js": agent(`const { sendHttp } = require("./tools");`, "sendHttp")}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			s, _ := load(t, writeTree(t, tc.files))
			want := "src/tools.ts#sendHttp"
			switch name {
			case "index re-export":
				want = "src/lib/tools.ts#sendHttp"
			case "require":
				want = "src/tools.js#sendHttp"
			}
			if got := usesOf(s, "run"); len(got) != 1 || got[0] != want {
				t.Errorf("uses = %v, want [%s]", got, want)
			}
		})
	}
	// A file of the same name elsewhere is not what a relative import names.
	s, _ := load(t, writeTree(t, map[string]string{"other/tools.ts": tsTools, "src/agent.ts": agent(`import { sendHttp } from "./tools";`, "sendHttp")}))
	for _, u := range usesOf(s, "run") {
		if u == "other/tools.ts#sendHttp" {
			t.Errorf("a relative import resolved to another directory's file: %v", u)
		}
	}
}
