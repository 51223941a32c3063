package incremental

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tsAgent is a Vercel AI SDK agent whose one tool is imported by imp.
func tsAgent(imp, ref string) string {
	return `import { generateText } from "ai";
` + imp + `
export async function run(prompt: string) {
  return generateText({ model: "m", prompt, tools: { x: ` + ref + ` } });
}
`
}

// Imports of package names and path aliases resolve to the tree's source
// through tsconfig paths/baseUrl (extends chains, JSONC) and the packages
// of npm/yarn/pnpm workspaces (exports, main, built output mapped back to
// src/), export * and export * as; what the configs do not map stays a
// package and fails closed. Negatives first.
func TestTypeScriptModuleResolution(t *testing.T) {
	ws := `{"private": true, "workspaces": ["packages/*", "apps/*"]}`
	pkg := func(body string) string { return `{"name": "@acme/tools", "version": "1.0.0", ` + body + `}` }
	agentAt := "apps/web/src/agent.ts"
	cases := []struct {
		name  string
		files map[string]string
		want  string // the tool's id, "" for none of the tree
	}{
		// Negatives: the configs do not say it, so nothing of the tree.
		{"package outside every workspace", map[string]string{
			"package.json": `{"private": true, "workspaces": ["apps/*"]}`, "packages/tools/package.json": pkg(`"main": "src/index.ts"`),
			"packages/tools/src/index.ts": tsTools, agentAt: tsAgent(`import { sendHttp } from "@acme/tools";`, "sendHttp")}, ""},
		{"no workspaces at all", map[string]string{
			"packages/tools/package.json": pkg(`"main": "src/index.ts"`),
			"packages/tools/src/index.ts": tsTools, agentAt: tsAgent(`import { sendHttp } from "@acme/tools";`, "sendHttp")}, ""},
		{"subpath the exports do not list", map[string]string{
			"package.json": ws, "packages/tools/package.json": pkg(`"exports": {".": "./src/index.ts"}`),
			"packages/tools/src/http.ts": tsTools, agentAt: tsAgent(`import { sendHttp } from "@acme/tools/src/http";`, "sendHttp")}, ""},
		{"alias target outside the root", map[string]string{
			"tsconfig.json": `{"compilerOptions": {"paths": {"@lib/*": ["../lib/*"]}}}`,
			"lib/http.ts":   tsTools, "src/agent.ts": tsAgent(`import { sendHttp } from "@lib/http";`, "sendHttp")}, ""},
		{"extends outside the root", map[string]string{
			"tsconfig.json": `{"extends": "../base/tsconfig.json"}`,
			"src/http.ts":   tsTools, "src/agent.ts": tsAgent(`import { sendHttp } from "@/http";`, "sendHttp")}, ""},
		{"a name export * does not give: default", map[string]string{
			"src/http.ts": `export default 1;\n` + tsTools, "src/index.ts": `export * from "./http.js";`,
			"src/agent.ts": tsAgent(`import x from "./index.js";`, "x")}, ""},

		// Positives.
		{"paths wildcard through an extends chain (JSONC)", map[string]string{
			"tsconfig.json": `{
  // the project's config
  "extends": "./config/tsconfig.base.json",
  "compilerOptions": { "strict": true, },
}`,
			"config/tsconfig.base.json": `{ /* shared */ "compilerOptions": { "baseUrl": "..", "paths": { "@/*": ["src/*",], }, }, }`,
			"src/tools/http.ts":         tsTools, "src/agent.ts": tsAgent(`import { sendHttp } from "@/tools/http.js";`, "sendHttp")}, "src/tools/http.ts#sendHttp"},
		{"paths exact alias, relative to the config without baseUrl", map[string]string{
			"app/tsconfig.json":     `{"compilerOptions": {"paths": {"#http": ["./lib/http/index.ts"]}}}`,
			"app/lib/http/index.ts": tsTools, "app/src/agent.ts": tsAgent(`import { sendHttp } from "#http";`, "sendHttp")}, "app/lib/http/index.ts#sendHttp"},
		{"baseUrl", map[string]string{
			"tsconfig.json":   `{"compilerOptions": {"baseUrl": "src"}}`,
			"src/lib/http.ts": tsTools, "src/agent.ts": tsAgent(`import { sendHttp } from "lib/http";`, "sendHttp")}, "src/lib/http.ts#sendHttp"},
		{"workspace exports conditions, built output mapped to src", map[string]string{
			"package.json": ws, "packages/tools/package.json": pkg(`"exports": {".": {"types": "./dist/index.d.ts", "import": "./dist/index.js"}}`),
			"packages/tools/src/index.ts": tsTools, agentAt: tsAgent(`import { sendHttp } from "@acme/tools";`, "sendHttp")}, "packages/tools/src/index.ts#sendHttp"},
		{"workspace exports subpath pattern", map[string]string{
			"package.json": ws, "packages/tools/package.json": pkg(`"exports": {".": "./dist/index.js", "./*": {"import": "./dist/esm/*.js", "require": "./dist/cjs/*.cjs"}}`),
			"packages/tools/src/http.ts": tsTools, agentAt: tsAgent(`import { sendHttp } from "@acme/tools/http";`, "sendHttp")}, "packages/tools/src/http.ts#sendHttp"},
		{"workspace main with tsconfig outDir/rootDir", map[string]string{
			"package.json": ws, "packages/tools/package.json": pkg(`"main": "build/index.js"`),
			"packages/tools/tsconfig.json":   `{"compilerOptions": {"outDir": "build", "rootDir": "source"}}`,
			"packages/tools/source/index.ts": tsTools, agentAt: tsAgent(`import { sendHttp } from "@acme/tools";`, "sendHttp")}, "packages/tools/source/index.ts#sendHttp"},
		{"pnpm workspace, export * and export * as", map[string]string{
			"pnpm-workspace.yaml": "packages:\n  - 'packages/**'\n", "packages/tools/package.json": pkg(`"module": "./dist/index.mjs"`),
			"packages/tools/src/http.ts":  tsTools,
			"packages/tools/src/index.ts": `export * from "./other.js";\nexport * as net from "./http.js";\n`,
			"packages/tools/src/other.ts": `export const one = 1;\n`,
			agentAt:                       tsAgent(`import { net } from "@acme/tools";`, "net.sendHttp")}, "packages/tools/src/http.ts#sendHttp"},
		{"export * from a workspace package's index", map[string]string{
			"package.json": ws, "packages/tools/package.json": pkg(`"main": "dist/index.js"`),
			"packages/tools/src/http.ts":  tsTools,
			"packages/tools/src/index.ts": `export * from "./other.js";\nexport * from "./http.js";\n`,
			"packages/tools/src/other.ts": `export const one = 1;\n`,
			agentAt:                       tsAgent(`import { sendHttp } from "@acme/tools";`, "sendHttp")}, "packages/tools/src/http.ts#sendHttp"},
		{"tsconfig paths onto a workspace package dir", map[string]string{
			"tsconfig.json":               `{"compilerOptions": {"baseUrl": ".", "paths": {"@acme/*": ["packages/*"]}}}`,
			"packages/tools/package.json": pkg(`"main": "./dist/index.js"`),
			"packages/tools/src/index.ts": tsTools, agentAt: tsAgent(`import { sendHttp } from "@acme/tools";`, "sendHttp")}, "packages/tools/src/index.ts#sendHttp"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := load(t, writeTree(t, tc.files))
			got := usesOf(s, "run")
			if len(got) != 1 {
				t.Fatalf("uses = %v, want one", got)
			}
			if tc.want == "" {
				if !strings.Contains(got[0], "#?") {
					t.Errorf("resolved to %s; the configs do not map it", got[0])
				}
				return
			}
			if got[0] != tc.want {
				t.Errorf("uses = %v, want [%s]", got, tc.want)
			}
		})
	}
}

// The live workspace rebuilds an importer when a config it read changes,
// comes or goes (the lookups of resolve/tsmodules.go are recorded by file
// name and package name), and the result equals a cold scan's.
func TestTypeScriptModuleConfigEdits(t *testing.T) {
	ctx := context.Background()
	root := writeTree(t, map[string]string{
		"package.json":                `{"private": true, "workspaces": ["apps/*"]}`,
		"packages/tools/package.json": `{"name": "@acme/tools", "main": "dist/index.js"}`,
		"packages/tools/src/index.ts": tsTools,
		"apps/web/src/agent.ts":       tsAgent(`import { sendHttp } from "@acme/tools";`, "sendHttp"),
	})
	w := NewWorkspace(root, func(m string) { t.Log(m) })
	if _, err := w.Load(ctx, nil); err != nil {
		t.Fatal(err)
	}
	resolved := func() bool {
		res, err := w.Analyze(ctx, w.Snapshot(), nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range res.Graph.Uses {
			if u.Tool == "packages/tools/src/index.ts#sendHttp" {
				return true
			}
		}
		return false
	}
	if resolved() {
		t.Fatal("resolved before the package is a workspace member")
	}
	edit := func(rel, text string) {
		if text == "" {
			if err := os.Remove(filepath.Join(root, rel)); err != nil {
				t.Fatal(err)
			}
		} else if err := os.WriteFile(filepath.Join(root, rel), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		w.Refresh([]string{rel})
	}
	edit("package.json", `{"private": true, "workspaces": ["apps/*", "packages/*"]}`)
	if !resolved() {
		t.Fatal("a workspaces edit did not rebuild the importer")
	}
	edit("packages/tools/package.json", `{"name": "@acme/other", "main": "dist/index.js"}`)
	if resolved() {
		t.Fatal("a package renamed still resolves under its old name")
	}
	edit("packages/tools/package.json", `{"name": "@acme/tools", "main": "dist/index.js"}`)
	if !resolved() {
		t.Fatal("a package renamed back does not resolve")
	}
	edit("package.json", "")
	if resolved() {
		t.Fatal("removing the workspace root kept the resolution")
	}
	edit("apps/web/tsconfig.json", `{"compilerOptions": {"paths": {"@acme/tools": ["../../packages/tools/src/index.ts"]}}}`)
	if !resolved() {
		t.Fatal("a tsconfig added above the importer was not read")
	}
}

// A tool made by a factory of another package (tools: { sendHttp:
// makeSend(x) }) is named by its code, not by the key the model calls it
// by; the AI SDK's toolApproval is keyed by that key and still gates it.
func TestTypeScriptToolApprovalByKeyCoversFactoryTools(t *testing.T) {
	factory := `import { tool } from "ai";
import { z } from "zod";
export const makeSend = (who: string) =>
  tool({
    description: "POST",
    inputSchema: z.object({ url: z.string(), body: z.string() }),
    execute: async ({ url, body }) => (await fetch(url, { method: "POST", body: who + body })).status,
  });
`
	agent := func(opts string) string {
		return `import { generateText } from "ai";
import { makeSend } from "@acme/tools";
export async function run(prompt: string) {
  return generateText({ model: "m", prompt, tools: { sendHttp: makeSend("x") }` + opts + ` });
}
`
	}
	for _, tc := range []struct {
		name, opts string
		gated      bool
	}{
		{"another key approved", `, toolApproval: { other: "user-approval" }`, false},
		{"no approval", ``, false},
		{"the key approved", `, toolApproval: { sendHttp: "user-approval" }`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := load(t, writeTree(t, map[string]string{
				"pnpm-workspace.yaml": "packages: ['packages/*']\n", "packages/tools/package.json": `{"name": "@acme/tools", "main": "dist/index.js"}`,
				"packages/tools/src/index.ts": factory, "src/agent.ts": agent(tc.opts)}))
			n := 0
			for _, u := range s.Analyze().Graph.Uses {
				if strings.HasSuffix(u.Agent, "#run") && strings.HasPrefix(u.Tool, "packages/tools/src/index.ts#") {
					n++
					if got := len(u.Gates) > 0; got != tc.gated {
						t.Errorf("gated = %v, want %v", got, tc.gated)
					}
				}
			}
			if n != 1 {
				t.Fatalf("%d uses of the factory's tool, want 1", n)
			}
		})
	}
}
