package incremental_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acg-dev/acg/extract/typescript"
	"github.com/acg-dev/acg/incremental"
)

// The DESIGN.md budgets on TypeScript: a keystroke in a 2,000-line module
// of a 200-file workspace (early cutoff when the facts do not change; an
// incremental analysis when they do), and a cold scan against a bare
// tree-sitter parse of the same files.

// genTS writes a 200-file TypeScript workspace: 199 tool modules and a
// 2,000-line agent module importing them (Vercel AI SDK).
func genTS(b *testing.B, dir string) string {
	b.Helper()
	write := func(rel, text string) {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	var imports, names strings.Builder
	for i := 0; i < 199; i++ {
		write(fmt.Sprintf("src/tools/t%03d.ts", i), fmt.Sprintf(`import { tool } from "ai";
import { z } from "zod";
import { readFile } from "node:fs/promises";

function clean%[1]d(s: string): string {
  return s.trim().slice(0, 200);
}

export const tool%[1]d = tool({
  description: "Tool %[1]d",
  inputSchema: z.object({ q: z.string() }),
  execute: async ({ q }) => {
    const text = await readFile("data/%[1]d.txt", "utf8");
    return clean%[1]d(text + q);
  },
});
`, i))
		if i < 20 {
			fmt.Fprintf(&imports, "import { tool%d } from \"./tools/t%03d.js\";\n", i, i)
			fmt.Fprintf(&names, "tool%d, ", i)
		}
	}
	var body strings.Builder
	body.WriteString("import { generateText } from \"ai\";\n" + imports.String() + "\n")
	for n := 0; strings.Count(body.String(), "\n") < 1960; n++ {
		fmt.Fprintf(&body, `// Scale every item of batch %[1]d by its weight.
export function scale%[1]d(items: number[], weight: number): number[] {
  const out: number[] = [];
  for (const x of items) {
    out.push(Math.round(x * weight));
  }
  return out;
}

`, n)
	}
	fmt.Fprintf(&body, `export async function runAgent(prompt: string) {
  const { text } = await generateText({ model: "m", prompt, tools: { %s} });
  return text;
}
`, names.String())
	write("src/agent.ts", body.String())
	return "src/agent.ts"
}

func tsSetup(b *testing.B) (*incremental.Workspace, string, []byte) {
	b.Helper()
	dir := b.TempDir()
	rel := genTS(b, dir)
	ws := incremental.NewWorkspace(dir, func(m string) { b.Log(m) })
	if _, err := ws.Load(context.Background(), nil); err != nil {
		b.Fatal(err)
	}
	src := ws.Snapshot().File(rel).Src
	if _, err := ws.Open(context.Background(), rel, 1, src); err != nil {
		b.Fatal(err)
	}
	if _, err := ws.Analyze(context.Background(), ws.Snapshot(), nil); err != nil {
		b.Fatal(err)
	}
	return ws, rel, src
}

// benchTSKeystroke types and deletes one character at the offset of
// marker and analyses after each edit, as the server does before it
// publishes (debounce 0).
func benchTSKeystroke(b *testing.B, marker string) {
	ws, rel, src := tsSetup(b)
	at := bytes.Index(src, []byte(marker))
	if at < 0 {
		b.Fatal("marker not found")
	}
	at += len(marker)
	base := ws.Snapshot()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s, fresh, err := ws.Change(context.Background(), rel, int32(i+2), edit(i, at))
		if err != nil || !fresh {
			b.Fatal(err, fresh)
		}
		if _, ok := s.ShiftsSince(base); ok {
			// Comment edits only: the server republishes the last
			// analysis moved along (lsp/workspace.go), analysing nothing.
			continue
		}
		if _, err := ws.Analyze(context.Background(), s, nil); err != nil {
			b.Fatal(err)
		}
		base = s
	}
}

// In a comment: the facts do not change (early cutoff).
func BenchmarkTSKeystrokeComment(b *testing.B) { benchTSKeystroke(b, "// Scale every") }

// In code: a name in a function body changes the facts.
func BenchmarkTSKeystrokeCode(b *testing.B) { benchTSKeystroke(b, "Math.round(x") }

func tsSources(b *testing.B, root string) ([]string, [][]byte) {
	var rels []string
	var srcs [][]byte
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".ts") {
			return err
		}
		src, err := os.ReadFile(p)
		rels, srcs = append(rels, p), append(srcs, src)
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	return rels, srcs
}

func BenchmarkTSColdScan(b *testing.B) {
	root := b.TempDir()
	genTS(b, root)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s, _, err := incremental.Load(context.Background(), root, nil)
		if err != nil {
			b.Fatal(err)
		}
		s.Analyze()
	}
}

func BenchmarkTSParseOnly(b *testing.B) {
	root := b.TempDir()
	genTS(b, root)
	rels, srcs := tsSources(b, root)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j, src := range srcs {
			t, err := typescript.Parse(context.Background(), rels[j], src, nil)
			if err != nil {
				b.Fatal(err)
			}
			t.Close()
		}
	}
}
