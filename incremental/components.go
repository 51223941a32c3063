package incremental

import (
	"context"
	"fmt"
	"runtime/debug"
	"sort"
	"strings"
	"sync"

	"github.com/acg-dev/acg/extract"
	"github.com/acg-dev/acg/prove"
	"github.com/acg-dev/acg/resolve"
)

// Analyzer analyses successive snapshots of one workspace and rebuilds only
// what a change reaches.
//
// Resolution crosses files only through index.module (imports), so the files
// of a workspace fall into closed groups: a group's agents and tools resolve
// to files of the same group only. Building a closed group alone gives
// exactly the part of the whole-workspace build that belongs to its files.
// The Analyzer keeps the parts of each group and, for a new snapshot,
// rebuilds only the groups that hold a changed file, or that looked up a
// module name whose answer an added or removed file can change. The merged
// parts become one graph and the checks run over all of it, as in
// Snapshot.Analyze, so the findings equal a cold scan's.
type Analyzer struct {
	// Log hears what went wrong without stopping the analysis: a panic
	// while building a group (its files then contribute nothing until they
	// change) or inside a check.
	Log func(msg string)

	mu    sync.Mutex
	comps []*component
	files map[string]*File // the extracted files of the last analysed snapshot
}

// component is one closed group of files and what building it gave.
type component struct {
	files  []*File         // sorted by path; pointer identity says unchanged
	names  map[string]bool // every module name its files looked up, found or not
	parts  *resolve.Parts
	joined bool // holds the joined files (see joined)
}

// plainFrameworks are those whose agents and tools reach other files only
// through imports (their MCP servers join by paths, and a file with servers
// is joined whatever its framework).
var plainFrameworks = map[extract.Framework]bool{extract.FrameworkLangGraph: true, extract.FrameworkLangChain: true, extract.FrameworkOpenAIAgents: true,
	extract.FrameworkPython: true, extract.FrameworkUnknown: true, extract.FrameworkPydanticAI: true, extract.FrameworkGoogleADK: true,
	extract.FrameworkAgentFramework: true, extract.FrameworkSmolagents: true, extract.FrameworkVercelAI: true}

// joined reports a file that resolveSources joins with others by paths and
// names rather than imports: configs (MCP clients, Claude Code, crew YAML,
// .acg.yaml), MCP servers, crews, and agents or tools of any framework not
// known to be plain. All such files form one group, rebuilt when any of
// them changes, appears or goes: correct for any join, at the price of
// rebuilding them together.
func joined(f *extract.File) bool {
	if f.Modules != nil {
		// tsconfig.json, package.json: read through recorded lookups
		// (resolve/tsmodules.go), never joined by path.
		return false
	}
	if !f.Lang.Code() || len(f.Servers) > 0 || f.Crew != nil || f.Client != nil || f.Claude != nil || f.Subagent != nil {
		return true
	}
	// A compile() of a builder made elsewhere and the agent of a builder
	// returned uncompiled are joined by joinCompiles, in either direction.
	if len(f.Compiles) > 0 {
		return true
	}
	for _, a := range f.Agents {
		if !plainFrameworks[a.Framework] || a.Extra[extract.ExtraBuilder] != "" {
			return true
		}
	}
	for _, t := range f.Tools {
		if !plainFrameworks[t.Framework] {
			return true
		}
	}
	return false
}

// Analyze returns the analysis of s with the external provers' flows
// (Snapshot.AnalyzeWith), reusing the groups of files that the changes
// since the last call do not reach. It fails only when ctx ends, and then
// keeps what it had for the next call.
func (a *Analyzer) Analyze(ctx context.Context, s *Snapshot, external []prove.Flow) (*Result, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	cur := map[string]*File{}
	var all []*extract.File
	for _, f := range s.Files() {
		if f.Facts() != nil {
			cur[f.Path] = f
			all = append(all, f.Facts())
		}
	}
	ix := resolve.NewIndex(all)

	// Module names whose answer may change: those of added or removed
	// files, and their paths (files named by path: hook scripts). A joined file that comes or goes changes the joined group.
	changedNames := map[string]bool{}
	joinedChanged := false
	for p, f := range a.files {
		if cur[p] == nil {
			changedNames[resolve.FileName(p)] = true
			addModuleNames(changedNames, f.Facts())
			joinedChanged = joinedChanged || joined(f.Facts())
		}
	}
	for p, f := range cur {
		old := a.files[p]
		switch {
		case old == nil:
			changedNames[resolve.FileName(p)] = true
			addModuleNames(changedNames, f.Facts())
			joinedChanged = joinedChanged || joined(f.Facts())
		case old != f:
			// A changed file changes the lookups that read it by name
			// only (a tsconfig.json, a package.json), and those of the
			// keys it gained or lost (a package renamed).
			changedNames[resolve.FileName(p)] = true
			changedKeys(changedNames, old.Facts(), f.Facts())
		}
	}
	var keep []*component
	covered := map[string]bool{}
	for _, c := range a.comps {
		if c.valid(cur, changedNames) && !(c.joined && joinedChanged) {
			keep = append(keep, c)
			for _, f := range c.files {
				covered[f.Path] = true
			}
		}
	}
	work := map[string]*File{}
	for p, f := range cur {
		if !covered[p] {
			work[p] = f
		}
	}
	// A changed joined file rebuilds the joined group with it.
	for _, f := range work {
		if joined(f.Facts()) {
			var rest []*component
			for _, c := range keep {
				if !c.joined {
					rest = append(rest, c)
					continue
				}
				for _, g := range c.files {
					work[g.Path] = g
				}
			}
			keep = rest
			break
		}
	}
	built, keep, err := a.rebuild(ctx, ix, work, keep)
	if err != nil {
		return nil, err
	}
	comps := append(keep, built...)
	sort.Slice(comps, func(i, j int) bool { return comps[i].files[0].Path < comps[j].files[0].Path })
	res := a.check(s, merge(comps), external)
	a.comps, a.files = comps, cur
	return res, nil
}

func (c *component) valid(cur map[string]*File, changedNames map[string]bool) bool {
	for _, f := range c.files {
		if cur[f.Path] != f {
			return false
		}
	}
	for n := range c.names {
		if changedNames[n] {
			return false
		}
	}
	return true
}

// addModuleNames adds every name under which the index finds a file.
func addModuleNames(set map[string]bool, f *extract.File) {
	if f == nil {
		return
	}
	for _, k := range f.Keys {
		set[k] = true
	}
}

// changedKeys adds the keys one of a and b has and the other has not.
func changedKeys(set map[string]bool, a, b *extract.File) {
	if a == nil || b == nil {
		addModuleNames(set, a)
		addModuleNames(set, b)
		return
	}
	in := func(k string, f *extract.File) bool {
		for _, x := range f.Keys {
			if x == k {
				return true
			}
		}
		return false
	}
	for _, k := range a.Keys {
		if !in(k, b) {
			set[k] = true
		}
	}
	for _, k := range b.Keys {
		if !in(k, a) {
			set[k] = true
		}
	}
}

// rebuild builds the work files as closed groups. A build that reaches a
// file of a kept group takes that group in and starts again; the result is
// split along the dependencies it recorded, so that an edit which drops an
// import also splits the group.
func (a *Analyzer) rebuild(ctx context.Context, ix *resolve.Index, work map[string]*File, keep []*component) ([]*component, []*component, error) {
	if len(work) == 0 {
		return nil, keep, nil
	}
	for {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		r := a.build(ix, work)
		var outside []string
		for p := range r.reached {
			if work[p] == nil {
				outside = append(outside, p)
			}
		}
		if len(outside) == 0 {
			groups := r.groups(work)
			if len(groups) == 1 {
				return []*component{r.component(work)}, keep, nil
			}
			var out []*component
			for _, g := range groups {
				if err := ctx.Err(); err != nil {
					return nil, nil, err
				}
				gr := a.build(ix, g)
				for p := range gr.reached {
					if g[p] == nil {
						// Cannot happen while builds are deterministic; keep
						// the whole set together rather than risk a wrong split.
						return []*component{r.component(work)}, keep, nil
					}
				}
				out = append(out, gr.component(g))
			}
			return out, keep, nil
		}
		// Take in the groups the build reached and build again.
		take := map[string]bool{}
		for _, p := range outside {
			take[p] = true
		}
		var rest []*component
		for _, c := range keep {
			in := false
			for _, f := range c.files {
				if take[f.Path] {
					in = true
					break
				}
			}
			if !in {
				rest = append(rest, c)
				continue
			}
			for _, f := range c.files {
				work[f.Path] = f
			}
		}
		keep = rest
		for _, p := range outside {
			if work[p] == nil {
				// A file outside every group: it is extracted (the index has
				// it) so it must be in cur; be safe and stop looping.
				return nil, nil, fmt.Errorf("analysis reached %s, which no group holds", p)
			}
		}
	}
}

// run is one recorded build.
type run struct {
	parts   *resolve.Parts
	failed  bool
	reached map[string]bool            // files reached from the built ones
	edges   map[string]map[string]bool // from path → reached paths
	names   map[string]map[string]bool // from path → module names looked up
	loose   bool                       // a lookup without a known importer: do not split
}

// build resolves files against the whole index, recording every module
// lookup. A panic fails this build only.
func (a *Analyzer) build(ix *resolve.Index, files map[string]*File) (r *run) {
	r = &run{reached: map[string]bool{}, edges: map[string]map[string]bool{}, names: map[string]map[string]bool{}}
	rix := *ix
	rix.Rec = func(from *extract.File, name string, found *extract.File) {
		if from == nil {
			r.loose = true
			return
		}
		if r.names[from.Path] == nil {
			r.names[from.Path] = map[string]bool{}
		}
		r.names[from.Path][name] = true
		if found != nil {
			r.reached[found.Path] = true
			if r.edges[from.Path] == nil {
				r.edges[from.Path] = map[string]bool{}
			}
			r.edges[from.Path][found.Path] = true
		}
	}
	facts := make([]*extract.File, 0, len(files))
	for _, p := range sortedPaths(files) {
		facts = append(facts, files[p].Facts())
	}
	defer func() {
		if v := recover(); v != nil {
			r.parts, r.failed = &resolve.Parts{}, true
			// Not followed further: the failed files are reported and skipped.
			r.reached = map[string]bool{}
			a.logf("analysis of %s failed and is skipped until they change: %v\n%s", strings.Join(sortedPaths(files), ", "), v, debug.Stack())
		}
	}()
	r.parts = resolve.BuildParts(&rix, facts)
	return r
}

func (a *Analyzer) logf(format string, args ...any) {
	if a.Log != nil {
		a.Log(fmt.Sprintf(format, args...))
	}
}

func sortedPaths(files map[string]*File) []string {
	out := make([]string, 0, len(files))
	for p := range files {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// groups splits files into the sets connected by recorded lookups.
func (r *run) groups(files map[string]*File) []map[string]*File {
	if r.loose || r.failed {
		return []map[string]*File{files}
	}
	parent := map[string]string{}
	var find func(string) string
	find = func(p string) string {
		for parent[p] != p {
			parent[p] = parent[parent[p]]
			p = parent[p]
		}
		return p
	}
	joinedRoot := ""
	for _, p := range sortedPaths(files) {
		parent[p] = p
		if joined(files[p].Facts()) {
			if joinedRoot == "" {
				joinedRoot = p
			} else {
				parent[p] = joinedRoot
			}
		}
	}
	for from, tos := range r.edges {
		for to := range tos {
			if _, ok := parent[from]; !ok {
				continue
			}
			if _, ok := parent[to]; !ok {
				continue
			}
			if x, y := find(from), find(to); x != y {
				parent[x] = y
			}
		}
	}
	byRoot := map[string]map[string]*File{}
	for _, p := range sortedPaths(files) {
		root := find(p)
		if byRoot[root] == nil {
			byRoot[root] = map[string]*File{}
		}
		byRoot[root][p] = files[p]
	}
	out := make([]map[string]*File, 0, len(byRoot))
	for _, g := range byRoot {
		out = append(out, g)
	}
	sort.Slice(out, func(i, j int) bool { return sortedPaths(out[i])[0] < sortedPaths(out[j])[0] })
	return out
}

// component keeps the run as the group of files.
func (r *run) component(files map[string]*File) *component {
	c := &component{names: map[string]bool{}, parts: r.parts}
	for _, p := range sortedPaths(files) {
		c.files = append(c.files, files[p])
		c.joined = c.joined || joined(files[p].Facts())
		for n := range r.names[p] {
			c.names[n] = true
		}
	}
	return c
}

// merge joins the parts of every group in the order a whole build gives:
// agents by id, the rest group by group.
func merge(comps []*component) *resolve.Parts {
	out := &resolve.Parts{}
	for _, c := range comps {
		// Copies: the checks may change a graph's nodes (.acg.yaml tool
		// overrides replace effects); the kept parts must stay as built.
		for _, a := range c.parts.Agents {
			cp := *a
			out.Agents = append(out.Agents, &cp)
		}
		for _, t := range c.parts.Tools {
			cp := *t
			out.Tools = append(out.Tools, &cp)
		}
		for _, sv := range c.parts.Servers {
			cp := *sv
			out.Servers = append(out.Servers, &cp)
		}
		out.Uses = append(out.Uses, c.parts.Uses...)
		out.Links = append(out.Links, c.parts.Links...)
	}
	sort.Slice(out.Agents, func(i, j int) bool { return out.Agents[i].ID < out.Agents[j].ID })
	return out
}

// check proves the flows and runs the checks over the merged graph, as
// Snapshot.Analyze does. A panicking check costs its own findings only
// (policy.Run recovers it on the input it failed on); it is logged here.
func (a *Analyzer) check(s *Snapshot, p *resolve.Parts, external []prove.Flow) *Result {
	res := s.finish(p.Graph(), external, true)
	for _, f := range res.CheckFailures {
		a.logf("check %s failed and is skipped: %s\n%s", f.Check, f.Panic, f.Stack)
	}
	return res
}
