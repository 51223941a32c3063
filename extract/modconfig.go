package extract

import (
	"path"
	"strings"

	"gopkg.in/yaml.v3"
)

// Module-resolution configs of JavaScript and TypeScript: tsconfig.json
// (and the files its "extends" names), jsconfig.json, package.json and
// pnpm-workspace.yaml. They say where an import of a package name or a
// tsconfig path alias lands inside the tree; resolve/tsmodules.go applies
// them. Only what resolution needs is kept, and a file that does not parse
// is kept as nothing (its imports stay unresolved and fail closed): these
// are not acg's configs, so their syntax errors are not reported.

// ModuleConfigKind says which module-resolution config rel is: "tsconfig"
// (tsconfig.json, tsconfig.*.json, jsconfig.json), "package" (package.json),
// "pnpm-workspace" or "".
func ModuleConfigKind(rel string) string {
	b := path.Base(rel)
	switch {
	case b == "package.json":
		return "package"
	case b == "pnpm-workspace.yaml" || b == "pnpm-workspace.yml":
		return "pnpm-workspace"
	case b == "jsconfig.json" || b == "tsconfig.json" || strings.HasPrefix(b, "tsconfig.") && strings.HasSuffix(b, ".json"):
		return "tsconfig"
	}
	return ""
}

// ModuleConfig is what one such file says.
type ModuleConfig struct {
	TS        *TSConfig
	Package   *PackageJSON
	Workspace []string // pnpm-workspace.yaml packages: globs of package dirs
}

// TSConfig is the module-resolution part of a tsconfig.json.
type TSConfig struct {
	// Extends are the configs it extends, as written (a relative path, or
	// a package specifier; an array since TypeScript 5.0).
	Extends []string
	// BaseURL is compilerOptions.baseUrl as written; HasBaseURL says it was.
	BaseURL    string
	HasBaseURL bool
	// Paths are compilerOptions.paths in file order; HasPaths says the key
	// was there (an empty object overrides an extended one).
	Paths    []PathAlias
	HasPaths bool
	// OutDir and RootDir say how a build lays output out (dist/x.js from
	// src/x.ts), to map built output back to source.
	OutDir, RootDir string
}

// PathAlias is one compilerOptions.paths entry: a pattern with at most one
// "*" and its targets, tried in order.
type PathAlias struct {
	Pattern string
	Targets []string
}

// PackageJSON is the module-resolution part of a package.json.
type PackageJSON struct {
	Name         string
	Main, Module string
	Types        string
	// Exports is the "exports" field, nil when absent.
	Exports *PkgExports
	// Bin are the commands the package installs, name to path (a string
	// "bin" is named after the package without its scope).
	Bin []PkgBin
	// Workspaces are the globs of workspace package dirs (npm and yarn:
	// an array, or {"packages": [...]}).
	Workspaces []string
}

// PkgBin is one bin entry.
type PkgBin struct{ Name, Path string }

// PkgExports is a value of the "exports" field: a target path, null
// (Blocked), an array of fallbacks, or an object of subpaths ("./x") or of
// conditions ("import", "default"), in file order.
type PkgExports struct {
	Target  string
	Blocked bool
	Alts    []*PkgExports
	Keys    []string
	Vals    []*PkgExports
}

// ModuleConfigFile extracts a module-resolution config.
func ModuleConfigFile(rel string, src []byte) *File {
	f := &File{Path: rel, Lang: LangJSON, Lines: LineStarts(src), Modules: &ModuleConfig{}}
	switch ModuleConfigKind(rel) {
	case "pnpm-workspace":
		f.Lang = LangYAML
		var doc struct {
			Packages []string `yaml:"packages"`
		}
		if yaml.Unmarshal(src, &doc) == nil {
			f.Modules.Workspace = doc.Packages
		}
		return f
	}
	v, err := ParseJSONC(src)
	if err != nil || v.Kind != JSONObject {
		return f
	}
	switch ModuleConfigKind(rel) {
	case "tsconfig":
		f.Modules.TS = readTSConfig(v)
	case "package":
		f.Modules.Package = readPackageJSON(v)
	}
	return f
}

func readTSConfig(v *JSONValue) *TSConfig {
	c := &TSConfig{}
	switch e := v.Get("extends"); {
	case e == nil:
	case e.Kind == JSONString:
		c.Extends = []string{e.Str}
	default:
		c.Extends = e.Strings()
	}
	opts := v.Get("compilerOptions")
	if s, ok := opts.Get("baseUrl").String(); ok {
		c.BaseURL, c.HasBaseURL = s, true
	}
	if p := opts.Get("paths"); p != nil && p.Kind == JSONObject {
		c.HasPaths = true
		for _, m := range p.Members {
			c.Paths = append(c.Paths, PathAlias{Pattern: m.Key, Targets: m.Value.Strings()})
		}
	}
	c.OutDir, _ = opts.Get("outDir").String()
	c.RootDir, _ = opts.Get("rootDir").String()
	return c
}

func readPackageJSON(v *JSONValue) *PackageJSON {
	p := &PackageJSON{}
	p.Name, _ = v.Get("name").String()
	p.Main, _ = v.Get("main").String()
	p.Module, _ = v.Get("module").String()
	if s, ok := v.Get("types").String(); ok {
		p.Types = s
	} else {
		p.Types, _ = v.Get("typings").String()
	}
	if e := v.Member("exports"); e != nil {
		p.Exports = readExports(e.Value, 0)
	}
	switch b := v.Get("bin"); {
	case b == nil:
	case b.Kind == JSONString:
		name := p.Name
		if i := strings.LastIndexByte(name, '/'); i >= 0 {
			name = name[i+1:]
		}
		if name != "" {
			p.Bin = []PkgBin{{Name: name, Path: b.Str}}
		}
	case b.Kind == JSONObject:
		for _, m := range b.Members {
			if s, ok := m.Value.String(); ok {
				p.Bin = append(p.Bin, PkgBin{Name: m.Key, Path: s})
			}
		}
	}
	switch w := v.Get("workspaces"); {
	case w == nil:
	case w.Kind == JSONArray:
		p.Workspaces = w.Strings()
	case w.Kind == JSONObject:
		p.Workspaces = w.Get("packages").Strings()
	}
	return p
}

func readExports(v *JSONValue, depth int) *PkgExports {
	if v == nil || depth > 16 {
		return nil
	}
	switch v.Kind {
	case JSONString:
		return &PkgExports{Target: v.Str}
	case JSONNull:
		return &PkgExports{Blocked: true}
	case JSONArray:
		e := &PkgExports{}
		for _, x := range v.Elems {
			if a := readExports(x, depth+1); a != nil {
				e.Alts = append(e.Alts, a)
			}
		}
		return e
	case JSONObject:
		e := &PkgExports{}
		for _, m := range v.Members {
			if x := readExports(m.Value, depth+1); x != nil {
				e.Keys = append(e.Keys, m.Key)
				e.Vals = append(e.Vals, x)
			}
		}
		return e
	}
	return nil
}

// ModuleConfigKeys are the names resolve finds a package.json under: its
// package name ("pkg:@acme/tools") and each of its commands ("bin:notes"),
// so that a package's coming, going or renaming changes the lookups of
// that name (the workspace compares these keys between versions).
func ModuleConfigKeys(f *File) []string {
	if f.Modules == nil || f.Modules.Package == nil {
		return nil
	}
	var keys []string
	if n := f.Modules.Package.Name; n != "" {
		keys = append(keys, PackageKey(n))
	}
	for _, b := range f.Modules.Package.Bin {
		keys = append(keys, BinKey(b.Name))
	}
	return keys
}

// PackageKey and BinKey are the lookup names of a package and a command.
func PackageKey(name string) string { return "pkg:" + name }
func BinKey(name string) string     { return "bin:" + name }
