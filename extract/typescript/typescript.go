// Package typescript is the TypeScript and JavaScript front end: it turns
// one .ts/.tsx/.js/.jsx/.mjs/.cjs file into the language-neutral facts of
// package extract (functions, calls with qualified callees, flows,
// bindings, expressions), then runs the adapters of the TypeScript agent
// frameworks on them. Like every front end it is a pure function of the
// file's path and bytes (docs/architecture.md "Front ends").
package typescript

import (
	"context"
	"fmt"
	"path"
	"strings"
	"sync"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/typescript/tsx"
	tsgrammar "github.com/smacker/go-tree-sitter/typescript/typescript"

	"github.com/acg-dev/acg/extract"
	"github.com/acg-dev/acg/extract/syntax"
)

// The grammars are one value each for the process (the node name tables
// of syntax.Mirror are cached by the language pointer). JavaScript files
// are read with the TSX grammar: it parses JavaScript and JSX, and one
// node vocabulary serves every file of this front end.
var (
	tsLanguage  = sync.OnceValue(tsgrammar.GetLanguage)
	tsxLanguage = sync.OnceValue(tsx.GetLanguage)
)

// Exts are the file endings the front end takes.
var Exts = []string{".ts", ".mts", ".cts", ".tsx", ".js", ".jsx", ".mjs", ".cjs"}

// Declaration reports a declaration file (.d.ts): types only, no code.
func Declaration(rel string) bool {
	b := path.Base(rel)
	return strings.HasSuffix(b, ".d.ts") || strings.HasSuffix(b, ".d.mts") || strings.HasSuffix(b, ".d.cts")
}

// LanguageFor is the grammar of a file: TypeScript for .ts/.mts/.cts (where
// `<T>x` is a type assertion), TSX for everything else.
func LanguageFor(rel string) *sitter.Language {
	switch path.Ext(rel) {
	case ".ts", ".mts", ".cts":
		return tsLanguage()
	}
	return tsxLanguage()
}

// LangOf is the extract.Lang of a file.
func LangOf(rel string) extract.Lang {
	switch path.Ext(rel) {
	case ".ts", ".mts", ".cts", ".tsx":
		return extract.LangTypeScript
	}
	return extract.LangJavaScript
}

// Parse parses src with a fresh parser; old, when given, is the previous
// tree of the file already edited, so only what changed is parsed again.
func Parse(ctx context.Context, rel string, src []byte, old *sitter.Tree) (*sitter.Tree, error) {
	p := sitter.NewParser()
	defer p.Close()
	p.SetLanguage(LanguageFor(rel))
	t, err := p.ParseCtx(ctx, old, src)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", LangOf(rel), err)
	}
	return t, nil
}

// ModuleKey is the name the file is imported under inside the tree: its
// slash path from the root without extension; an index file answers for
// its directory ("src/tools/index.ts" is "src/tools").
func ModuleKey(rel string) string {
	rel = path.Clean(strings.ReplaceAll(rel, "\\", "/"))
	rel = stripExt(rel)
	if path.Base(rel) == "index" {
		if d := path.Dir(rel); d != "." {
			return d
		}
		return "index"
	}
	return rel
}

func stripExt(p string) string {
	for _, e := range Exts {
		if strings.HasSuffix(p, e) {
			return strings.TrimSuffix(p, e)
		}
	}
	return p
}

// ModuleKeys are the keys resolve finds a file under.
func ModuleKeys(f *extract.File) []string {
	if f.Module == "" {
		return nil
	}
	return []string{f.Module}
}

// Specifier is the module an import names, as a qualified-name prefix: a
// relative specifier becomes the imported file's module key (from the
// importing file's directory, `.js` written for a `.ts` file dropped, an
// index standing for its directory); a package keeps its specifier
// without `node:`.
func Specifier(from, spec string) string {
	if strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../") || spec == "." || spec == ".." {
		p := path.Join(path.Dir(strings.ReplaceAll(from, "\\", "/")), spec)
		if strings.HasPrefix(p, "../") || p == ".." {
			return spec // outside the scan root: nothing of the tree
		}
		p = stripExt(p)
		if path.Base(p) == "index" && path.Dir(p) != "." {
			p = path.Dir(p)
		}
		return p
	}
	return strings.TrimPrefix(spec, "node:")
}

// Adapter adds a framework's facts to an extracted file.
type Adapter func(f *extract.File)

// adapters run after the walk, in order.
var adapters = []Adapter{VercelAIAdapter, OpenAIAgentsAdapter}

// Extract extracts the facts of one file from its tree. It never fails:
// whatever tree-sitter recovered from a broken file is extracted, and the
// syntax errors become Problems.
func Extract(rel string, src []byte, tree *sitter.Tree) *extract.File {
	f := &extract.File{Path: rel, Lang: LangOf(rel), Classes: map[string]*extract.Class{}}
	f.Module = ModuleKey(rel)
	f.Lines = extract.LineStarts(src)
	b := &builder{src: src, f: f}
	root := syntax.Mirror(tree.RootNode(), LanguageFor(rel))
	mod := &extract.Func{Name: "<module>", Qual: "<module>", Loc: b.loc(root), Body: b.loc(root)}
	mod.Scope = extract.NewScope(nil, mod)
	f.Scope = mod.Scope
	f.Funcs = append(f.Funcs, mod)
	b.collectErrors(root)
	b.collectShapes(root)
	b.walkBody(mod, root, nil)
	for _, fn := range f.Funcs {
		for _, o := range fn.Returns {
			if o.Call >= 0 && o.Call < len(fn.Calls) && !fn.Calls[o.Call].Returned {
				fn.Calls[o.Call].Returned, fn.Calls[o.Call].ReturnStep = true, o.Step
			}
		}
	}
	for _, a := range adapters {
		a(f)
	}
	for _, a := range f.Agents {
		if a.Call != nil && a.Call.Call != nil {
			a.Call.Call.BuildsAgent = true
		}
	}
	return f
}

type builder struct {
	src []byte
	f   *extract.File
	// destructured are the pattern parameters of each function.
	destructured map[*extract.Func][]destructuredParam
	// shapes are the module's object type aliases and interfaces, by
	// name: member -> its type as written (paramtypes.go).
	shapes map[string]map[string]string
}

func (b *builder) loc(n *syntax.Node) extract.Loc { return syntax.Loc(b.f.Path, b.src, b.f.Lines, n) }

func (b *builder) text(n *syntax.Node) string {
	if n == nil {
		return ""
	}
	return n.Content(b.src)
}

func (b *builder) collectErrors(root *syntax.Node) {
	for _, n := range syntax.Errors(root, 20) {
		msg := "syntax error"
		if n.IsMissing() {
			msg = "syntax error: missing " + n.Type()
		}
		b.f.Problems = append(b.f.Problems, extract.Problem{Loc: b.loc(n), Message: msg, Syntax: true})
	}
}
