package resolve

import (
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/acg-dev/acg/extract"
	"github.com/acg-dev/acg/extract/typescript"
)

// Module resolution of JavaScript and TypeScript imports that name no file
// directly: tsconfig path aliases and baseUrl, and the packages of the
// tree's npm, yarn and pnpm workspaces (docs/architecture.md "Module
// resolution of TypeScript"). The front end keeps such a specifier as
// written ("@acme/tools", "@/lib/mail"); Index.module asks tsModule when no
// file has that key, and an answer is always a TypeScript or JavaScript
// file of the tree. Only the facts of files of the tree are read, so
// nothing outside the scan root is ever followed; what does not resolve
// stays package-named and fails closed as before.
//
// Every config consulted is recorded (Index.Rec) under its file name, and
// a package under its PackageKey, with no file found: the workspace then
// rebuilds an importer when a config it read, or could have read, comes,
// goes or changes, without joining importers into one group through their
// shared configs.

// tsIndex holds the module-resolution configs of a snapshot.
type tsIndex struct {
	cfg  map[string]*extract.File   // path → tsconfig/package.json/pnpm-workspace file
	pkgs map[string][]*extract.File // package name → package.json files
	bins map[string][]*extract.File // command name → package.json files
}

func newTSIndex(files []*extract.File) *tsIndex {
	t := &tsIndex{cfg: map[string]*extract.File{}, pkgs: map[string][]*extract.File{}, bins: map[string][]*extract.File{}}
	for _, f := range files {
		if f.Modules == nil {
			continue
		}
		t.cfg[f.Path] = f
		if p := f.Modules.Package; p != nil {
			if p.Name != "" {
				t.pkgs[p.Name] = append(t.pkgs[p.Name], f)
			}
			for _, b := range p.Bin {
				t.bins[b.Name] = append(t.bins[b.Name], f)
			}
		}
	}
	return t
}

// isJS reports a file of the TypeScript front end.
func isJS(f *extract.File) bool {
	return f != nil && (f.Lang == extract.LangTypeScript || f.Lang == extract.LangJavaScript)
}

// record tells the recorder that from read (or looked for) a config.
func (ix *Index) record(from *extract.File, name string) {
	if ix.Rec != nil && from != nil {
		ix.Rec(from, name, nil)
	}
}

// config is the config file at rel, recording the lookup.
func (ix *Index) config(rel string, from *extract.File) *extract.File {
	ix.record(from, FileName(rel))
	return ix.ts.cfg[rel]
}

// tsModule resolves a specifier imported by from (a TypeScript or
// JavaScript file) through tsconfig paths and baseUrl, then through the
// workspace packages of the tree.
func (ix *Index) tsModule(spec string, from *extract.File) *extract.File {
	if spec == "" || strings.HasPrefix(spec, ".") || strings.HasPrefix(spec, "/") {
		return nil
	}
	if f := ix.tsAlias(spec, from); f != nil {
		return f
	}
	return ix.tsPackage(spec, from)
}

// tsFileAt is the TypeScript or JavaScript file a path of the tree names
// as an import does: the file with a code extension dropped (.js written
// for .ts, as NodeNext wants), a declaration file's source, or the
// directory's index, or a directory's package.json entry.
func (ix *Index) tsFileAt(p string, from *extract.File, depth int) *extract.File {
	p = path.Clean(p)
	if p == ".." || strings.HasPrefix(p, "../") || strings.HasPrefix(p, "/") {
		return nil // outside the scan root
	}
	for _, d := range []string{".d.ts", ".d.mts", ".d.cts"} {
		p = strings.TrimSuffix(p, d)
	}
	key := typescript.ModuleKey(p)
	var best *extract.File
	for _, f := range ix.byMod[key] {
		if isJS(f) && (best == nil || f.Module == key && best.Module != key) {
			best = f
		}
	}
	if best != nil || depth > 4 {
		return best
	}
	if pj := ix.config(path.Join(p, "package.json"), from); pj != nil && pj.Modules.Package != nil {
		return ix.pkgEntry(pj, "", from, depth+1)
	}
	return nil
}

// tsSourceAt is tsFileAt for a path in a package's built output: the
// source it was compiled from first (the package's tsconfig outDir and
// rootDir, then the conventional layouts of jsSources), the path itself
// last.
func (ix *Index) tsSourceAt(dir, target string, from *extract.File, depth int) *extract.File {
	p := path.Join(dir, target)
	for _, d := range [][2]string{{".d.ts", ".js"}, {".d.mts", ".mjs"}, {".d.cts", ".cjs"}} {
		if strings.HasSuffix(p, d[0]) {
			p = strings.TrimSuffix(p, d[0]) + d[1]
		}
	}
	var cands []string
	if tc := ix.config(path.Join(dir, "tsconfig.json"), from); tc != nil && tc.Modules.TS != nil && tc.Modules.TS.OutDir != "" {
		out := path.Join(dir, tc.Modules.TS.OutDir)
		if rest, ok := strings.CutPrefix(p, out+"/"); ok {
			root := path.Join(dir, tc.Modules.TS.RootDir)
			cands = append(cands, path.Join(root, rest))
		}
	}
	if jsExt(p) == "" {
		cands = append(cands, p)
	} else {
		srcs := jsSources(p)
		cands = append(cands, srcs[1:]...)
		cands = append(cands, srcs[0])
	}
	for _, c := range cands {
		if f := ix.tsFileAt(c, from, depth); f != nil {
			return f
		}
	}
	return nil
}

// tsconfigFor is the tsconfig.json (or jsconfig.json) nearest above a
// file, as editors and tsc -p pick the project of a file.
func (ix *Index) tsconfigFor(from *extract.File) *extract.File {
	for d := path.Dir(from.Path); ; d = path.Dir(d) {
		for _, n := range []string{"tsconfig.json", "jsconfig.json"} {
			if c := ix.config(path.Join(d, n), from); c != nil && c.Modules.TS != nil {
				return c
			}
		}
		if d == "." || d == "/" {
			return nil
		}
	}
}

// tsOptions are the resolution options in effect for one tsconfig after
// its extends chain: baseUrl and paths with the directories they are
// relative to.
type tsOptions struct {
	baseURL   string // directory, relative to the root
	hasBase   bool
	paths     []extract.PathAlias
	pathsBase string // the directory paths targets are relative to
	hasPaths  bool
}

// tsEffective follows extends (a file's own settings win; of several
// extended configs the later wins) inside the tree.
func (ix *Index) tsEffective(c *extract.File, from *extract.File, depth int) tsOptions {
	var o tsOptions
	if depth > 8 || c == nil || c.Modules.TS == nil {
		return o
	}
	tc := c.Modules.TS
	dir := path.Dir(c.Path)
	for _, e := range tc.Extends {
		base := ix.tsExtended(dir, e, from)
		if base == nil {
			continue
		}
		b := ix.tsEffective(base, from, depth+1)
		if b.hasBase {
			o.baseURL, o.hasBase = b.baseURL, true
		}
		if b.hasPaths {
			o.paths, o.pathsBase, o.hasPaths = b.paths, b.pathsBase, true
		}
	}
	if tc.HasBaseURL {
		o.baseURL, o.hasBase = path.Join(dir, tc.BaseURL), true
	}
	if tc.HasPaths {
		o.paths, o.pathsBase, o.hasPaths = tc.Paths, dir, true
	}
	if o.hasPaths && o.hasBase {
		// paths are relative to baseUrl when there is one.
		o.pathsBase = o.baseURL
	}
	return o
}

// tsExtended is the config an extends entry names: a relative path (".json"
// added as tsc does), or a workspace package's file ("@acme/tsconfig/base.json",
// or its tsconfig.json). Anything else is outside the tree.
func (ix *Index) tsExtended(dir, e string, from *extract.File) *extract.File {
	var cands []string
	if strings.HasPrefix(e, "./") || strings.HasPrefix(e, "../") {
		p := path.Join(dir, e)
		cands = []string{p, p + ".json"}
	} else if name, sub := splitPackage(e); name != "" {
		for _, pj := range ix.workspacePackages(name, from) {
			pd := path.Dir(pj.Path)
			if sub == "" {
				cands = append(cands, path.Join(pd, "tsconfig.json"))
			} else {
				cands = append(cands, path.Join(pd, sub), path.Join(pd, sub)+".json")
			}
		}
	}
	for _, p := range cands {
		if p == ".." || strings.HasPrefix(p, "../") {
			continue
		}
		if c := ix.config(p, from); c != nil && c.Modules.TS != nil {
			return c
		}
	}
	return nil
}

// tsAlias resolves spec through the importer's tsconfig paths (the exact
// pattern, else the matching pattern with the longest prefix, each target
// in turn) and then baseUrl, as tsc does.
func (ix *Index) tsAlias(spec string, from *extract.File) *extract.File {
	c := ix.tsconfigFor(from)
	if c == nil {
		return nil
	}
	o := ix.tsEffective(c, from, 0)
	if o.hasPaths {
		var best *extract.PathAlias
		bestStar := ""
		bestLen := -1
		for i := range o.paths {
			pa := &o.paths[i]
			pre, suf, star := strings.Cut(pa.Pattern, "*")
			if !star {
				if pa.Pattern == spec {
					best, bestStar = pa, "" // an exact pattern wins
					break
				}
				continue
			}
			if len(spec) >= len(pre)+len(suf) && strings.HasPrefix(spec, pre) && strings.HasSuffix(spec, suf) && len(pre) > bestLen {
				best, bestStar, bestLen = pa, spec[len(pre):len(spec)-len(suf)], len(pre)
			}
		}
		if best != nil {
			for _, t := range best.Targets {
				if f := ix.tsSourceAt(o.pathsBase, strings.Replace(t, "*", bestStar, 1), from, 0); f != nil {
					return f
				}
			}
		}
	}
	if o.hasBase {
		return ix.tsFileAt(path.Join(o.baseURL, spec), from, 0)
	}
	return nil
}

// splitPackage splits a bare specifier into the package name (two segments
// when scoped) and the subpath.
func splitPackage(spec string) (name, sub string) {
	segs := strings.SplitN(spec, "/", 3)
	n := 1
	if strings.HasPrefix(spec, "@") {
		if len(segs) < 2 {
			return "", ""
		}
		n = 2
	}
	name = strings.Join(segs[:n], "/")
	if len(segs) > n {
		sub = strings.Join(segs[n:], "/")
	}
	return name, sub
}

// tsPackage resolves a package specifier to a workspace package's source.
func (ix *Index) tsPackage(spec string, from *extract.File) *extract.File {
	name, sub := splitPackage(spec)
	if name == "" {
		return nil
	}
	for _, pj := range ix.workspacePackages(name, from) {
		if f := ix.pkgEntry(pj, sub, from, 0); f != nil {
			return f
		}
	}
	return nil
}

// workspacePackages are the package.json files of the tree that declare
// the package name and are members of a workspace (a package.json
// "workspaces" or a pnpm-workspace.yaml in a directory above, whose globs
// match the package's directory). Nearest the importer first.
func (ix *Index) workspacePackages(name string, from *extract.File) []*extract.File {
	ix.record(from, extract.PackageKey(name))
	var out []*extract.File
	for _, pj := range ix.ts.pkgs[name] {
		ix.record(from, FileName(pj.Path))
		if ix.isWorkspaceMember(path.Dir(pj.Path), from) {
			out = append(out, pj)
		}
	}
	if from != nil {
		sort.SliceStable(out, func(i, j int) bool {
			return commonPrefix(out[i].Path, from.Path) > commonPrefix(out[j].Path, from.Path)
		})
	}
	return out
}

// isWorkspaceMember reports a package directory some workspace root above
// it lists.
func (ix *Index) isWorkspaceMember(dir string, from *extract.File) bool {
	for d := path.Dir(dir); ; d = path.Dir(d) {
		var globs []string
		if pj := ix.config(path.Join(d, "package.json"), from); pj != nil && pj.Modules.Package != nil {
			globs = append(globs, pj.Modules.Package.Workspaces...)
		}
		for _, n := range []string{"pnpm-workspace.yaml", "pnpm-workspace.yml"} {
			if w := ix.config(path.Join(d, n), from); w != nil {
				globs = append(globs, w.Modules.Workspace...)
			}
		}
		rel := dir
		if d != "." {
			rel = strings.TrimPrefix(dir, d+"/")
		}
		for _, g := range globs {
			if workspaceGlob(g, rel) {
				return true
			}
		}
		if d == "." || d == "/" {
			return false
		}
	}
}

// workspaceGlob matches a workspace glob ("packages/*", "apps/**",
// "!**/test/**" excludes nothing here: an exclusion is skipped) against a
// package directory relative to the workspace root.
func workspaceGlob(g, rel string) bool {
	g = strings.TrimSuffix(strings.TrimPrefix(g, "./"), "/")
	if g == "" || strings.HasPrefix(g, "!") {
		return false
	}
	return globMatch(strings.Split(g, "/"), strings.Split(rel, "/"))
}

func globMatch(g, p []string) bool {
	if len(g) == 0 {
		return len(p) == 0
	}
	if g[0] == "**" {
		for i := 0; i <= len(p); i++ {
			if globMatch(g[1:], p[i:]) {
				return true
			}
		}
		return false
	}
	if len(p) == 0 {
		return false
	}
	if ok, err := path.Match(g[0], p[0]); err != nil || !ok {
		return false
	}
	return globMatch(g[1:], p[1:])
}

// pkgEntry resolves a subpath ("" for the package itself) of a package:
// through "exports" when it has them (as Node does, and then only them),
// else "module", "main", "types" and the index for the package itself, or
// the subpath as a path inside the package. Built output maps back to its
// source (tsSourceAt).
func (ix *Index) pkgEntry(pj *extract.File, sub string, from *extract.File, depth int) *extract.File {
	p := pj.Modules.Package
	dir := path.Dir(pj.Path)
	if p.Exports != nil {
		key := "."
		if sub != "" {
			key = "./" + sub
		}
		for _, t := range exportTargets(p.Exports, key) {
			if f := ix.tsSourceAt(dir, t, from, depth); f != nil {
				return f
			}
		}
		return nil
	}
	if sub != "" {
		return ix.tsSourceAt(dir, sub, from, depth)
	}
	for _, t := range []string{p.Module, p.Main, p.Types, "index"} {
		if t == "" {
			continue
		}
		if f := ix.tsSourceAt(dir, t, from, depth); f != nil {
			return f
		}
	}
	return nil
}

// exportTargets are the paths an "exports" field gives a subpath key
// ("." or "./x"), in the order to try them: the exact subpath, else the
// pattern ("./*", "./tools/*.js") with the longest prefix, "*" replaced.
// Conditions are read in the package's order, the ones Node runs with
// before "types" (acg maps what runs back to its source; a "types" entry
// is the fallback).
func exportTargets(e *extract.PkgExports, key string) []string {
	subpaths := len(e.Keys) > 0 && strings.HasPrefix(e.Keys[0], ".")
	if !subpaths {
		if key != "." {
			return nil
		}
		return conditionTargets(e, "", 0)
	}
	for i, k := range e.Keys {
		if k == key {
			return conditionTargets(e.Vals[i], "", 0)
		}
	}
	best, star, bestLen := -1, "", -1
	for i, k := range e.Keys {
		pre, suf, ok := strings.Cut(k, "*")
		if ok && len(key) >= len(pre)+len(suf) && strings.HasPrefix(key, pre) && strings.HasSuffix(key, suf) && len(pre) > bestLen {
			best, star, bestLen = i, key[len(pre):len(key)-len(suf)], len(pre)
		}
	}
	if best < 0 {
		return nil
	}
	return conditionTargets(e.Vals[best], star, 0)
}

func conditionTargets(e *extract.PkgExports, star string, depth int) []string {
	if e == nil || e.Blocked || depth > 16 {
		return nil
	}
	if e.Target != "" {
		return []string{strings.ReplaceAll(e.Target, "*", star)}
	}
	var out []string
	for _, a := range e.Alts {
		out = append(out, conditionTargets(a, star, depth+1)...)
	}
	var types []string
	for i, k := range e.Keys {
		if k == "types" || k == "typings" {
			types = append(types, conditionTargets(e.Vals[i], star, depth+1)...)
			continue
		}
		out = append(out, conditionTargets(e.Vals[i], star, depth+1)...)
	}
	return append(out, types...)
}

// binPath is the file a workspace package's command runs (relative to
// the root), for a launch `npx <cmd>` or `npm exec --package=<pkg> --
// <cmd>`: pkg names the package (else cmd does, or a package of the tree
// has a command named cmd: workspace packages link theirs into
// node_modules/.bin); of a package, the command named cmd, else the one
// named after the package, else its only one.
func (ix *Index) binPath(pkg, cmd string, from *extract.File) (string, bool) {
	strip := func(s string) string {
		if i := strings.LastIndexByte(s, '@'); i > 0 {
			return s[:i] // pkg@1.2.3, @scope/pkg@latest
		}
		return s
	}
	pkg, cmd = strip(pkg), strip(cmd)
	pick := func(pj *extract.File, names ...string) (string, bool) {
		p := pj.Modules.Package
		for _, n := range names {
			for _, b := range p.Bin {
				if b.Name == n || n == "" && len(p.Bin) == 1 {
					return path.Join(path.Dir(pj.Path), b.Path), true
				}
			}
		}
		return "", false
	}
	if pkg != "" {
		for _, pj := range ix.binPackages(pkg, from) {
			if p, ok := pick(pj, cmd, pkg[strings.LastIndexByte(pkg, '/')+1:], ""); ok {
				return p, true
			}
		}
		return "", false
	}
	for _, pj := range ix.binPackages(cmd, from) {
		if p, ok := pick(pj, cmd[strings.LastIndexByte(cmd, '/')+1:], ""); ok {
			return p, true
		}
	}
	ix.record(from, extract.BinKey(cmd))
	for _, pj := range ix.ts.bins[cmd] {
		ix.record(from, FileName(pj.Path))
		if path.Dir(pj.Path) == "." || ix.isWorkspaceMember(path.Dir(pj.Path), from) {
			if p, ok := pick(pj, cmd); ok {
				return p, true
			}
		}
	}
	return "", false
}

// binPackages are the packages of a name whose commands a launch may run:
// the workspace members, and the package at the root (a repository that
// is the server's package, run as npx <its name>).
func (ix *Index) binPackages(name string, from *extract.File) []*extract.File {
	out := ix.workspacePackages(name, from)
	for _, pj := range ix.ts.pkgs[name] {
		if path.Dir(pj.Path) == "." && !slices.Contains(out, pj) {
			out = append(out, pj)
		}
	}
	return out
}

// npxCommand reads a launch that runs a package's command through npx or
// npm exec (npm x, pnpm exec, pnpm dlx, yarn dlx): the package named by
// -p/--package, and the command (the first operand). ok is false for any
// other launch.
func npxCommand(l *extract.Launch) (pkg, cmd string, ok bool) {
	tokens := append([]string{path.Base(l.Command)}, l.Args...)
	i := 0
	switch {
	case tokens[0] == "npx":
		i = 1
	case len(tokens) > 1 && (tokens[0] == "npm" && (tokens[1] == "exec" || tokens[1] == "x") ||
		tokens[0] == "pnpm" && (tokens[1] == "exec" || tokens[1] == "dlx") || tokens[0] == "yarn" && tokens[1] == "dlx"):
		i = 2
	default:
		return "", "", false
	}
	valued := map[string]bool{"-p": true, "--package": true, "-c": true, "--call": true, "--prefix": true,
		"--registry": true, "--cache": true, "--userconfig": true, "-w": true, "--workspace": true, "-C": true, "--dir": true}
	for ; i < len(tokens); i++ {
		t := tokens[i]
		switch {
		case t == "--":
			if i+1 < len(tokens) {
				return pkg, tokens[i+1], true
			}
			return "", "", false
		case t == "-p" || t == "--package":
			if i+1 < len(tokens) {
				pkg = tokens[i+1]
			}
			i++
		case strings.HasPrefix(t, "--package="):
			pkg = strings.TrimPrefix(t, "--package=")
		case valued[t]:
			i++
		case strings.HasPrefix(t, "-"):
		default:
			if strings.Contains(t, ":") {
				return "", "", false // github:owner/repo, a URL: not a package of the tree
			}
			return pkg, t, true
		}
	}
	return "", "", false
}
