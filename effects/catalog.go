package effects

import (
	"embed"
	"fmt"
	"sort"
	"strings"

	"github.com/acg-dev/acg/extract"
	"gopkg.in/yaml.v3"
)

//go:embed catalog/*.yaml
var catalogFS embed.FS

// CatalogTool is a prebuilt tool whose effects are known.
type CatalogTool struct {
	Class         string            `yaml:"class"`
	NameArg       string            `yaml:"name_arg"`
	Kind          string            `yaml:"kind"`
	Packages      []string          `yaml:"packages"`
	Framework     extract.Framework `yaml:"framework"`
	Name          string            `yaml:"name"`
	NameUnverfied bool              `yaml:"name_unverified"`
	Effects       []Label           `yaml:"effects"`
	Roles         []string          `yaml:"roles"`
	ApprovalKwarg string            `yaml:"approval_kwarg"`
	// Prompts: the client asks the user before each call by default
	// (Claude Code built-ins that need permission).
	Prompts bool   `yaml:"prompts"`
	Summary string `yaml:"summary"`
	Source  string `yaml:"source"`
	// Narrow lists constructor settings that fix what the tool can do
	// (a scraper bound to one URL cannot be pointed anywhere else): when
	// one matches, its effects replace Effects.
	Narrow []*Narrowing `yaml:"narrow"`
	// ApprovalConfig is where the approval setting lives when it is not a
	// keyword (a path into a config dict: tool_config.require_approval);
	// ApprovalDefault is what the service does when it is provably not set
	// ("always": it asks before every call).
	ApprovalConfig  string `yaml:"approval_config"`
	ApprovalDefault string `yaml:"approval_default"`
	// Params are the constructor's positional parameters in order, so
	// that a narrowing reads an argument passed by position, and knows
	// one absent only when no positional argument could be it.
	Params []string `yaml:"params"`
	// HostedContainer marks a tool that runs in an OpenAI-hosted container
	// (hosted shell, code interpreter): a container another tool reuses
	// by id may have been created by it.
	HostedContainer bool `yaml:"hosted_container"`
	// Wraps names the argument of a factory that returns the tools it is
	// given, unchanged in what they do (tool_namespace(tools=[...])): the
	// factory's tools are those tools.
	Wraps string `yaml:"wraps"`
	// ServerURL names the constructor argument (a keyword, or a path into
	// its dict literals) holding the URL of the MCP server a hosted MCP
	// tool reaches: a catalogued server there gives the tool its tools'
	// labels.
	ServerURL string `yaml:"server_url"`
	// NamedOnly marks a client built-in that a session has only when it
	// is named (a legacy name, a tool of some versions): it is known, but
	// not added to every session (Claude Code).
	NamedOnly bool `yaml:"named_only"`
	// LegacyOf names the current tool a legacy name stands for (Task is
	// Agent, MultiEdit is Edit): it has that tool's effects and gates.
	LegacyOf string `yaml:"legacy_of"`
	// ImportedAs are other names the same object is imported under (a
	// package's __init__ re-exports `load_artifacts_tool as
	// load_artifacts`): each matches as Class does.
	ImportedAs []string `yaml:"imported_as"`
}

// Narrowing is one constructor setting that narrows a catalogued tool.
type Narrowing struct {
	// When maps constructor keywords (or paths into the dicts they hold)
	// to what their value must be: "literal" for any value fixed in the
	// source (a constant), an exact value ("false", "none", a string),
	// "present" for a key written with any value, "absent" for a key that
	// is provably not written (every dict on the way is a literal without
	// `**` spreads), or alternatives joined by "|" ("disabled|absent").
	When    map[string]string `yaml:"when"`
	Effects []Label           `yaml:"effects"`
	Roles   []string          `yaml:"roles"`
	Why     string            `yaml:"why"`
	// Container names the argument holding the id of a hosted container
	// the tool reuses: the tool then has the labels of the hosted tools
	// that container was proved to come from (an agent run in the tree
	// whose containers all narrow), else every label by the fail-closed
	// default, with Why saying what could not be followed.
	Container string `yaml:"container"`
}

// CatalogToolkit expands to several prebuilt tools.
type CatalogToolkit struct {
	Class     string            `yaml:"class"`
	Packages  []string          `yaml:"packages"`
	Framework extract.Framework `yaml:"framework"`
	Tools     []string          `yaml:"tools"`
	// SelectionKwarg names the argument that picks a subset (by tool name).
	SelectionKwarg string         `yaml:"selection_kwarg"`
	ExtraTools     []*CatalogTool `yaml:"extra_tools"`
	Source         string         `yaml:"source"`
}

// BuiltinProvider lists tools an agent factory, middleware or option adds
// without the code naming them (create_deep_agent, allow_delegation …).
type BuiltinProvider struct {
	Provider      string            `yaml:"provider"`
	Packages      []string          `yaml:"packages"`
	Framework     extract.Framework `yaml:"framework"`
	Kind          string            `yaml:"kind"`
	ApprovalKwarg string            `yaml:"approval_kwarg"`
	Tools         []*CatalogTool    `yaml:"tools"`
}

// MCPServer is a well-known MCP server with per-tool effects.
type MCPServer struct {
	ID      string    `yaml:"id"`
	Match   []string  `yaml:"match"`
	Summary string    `yaml:"summary"`
	Source  string    `yaml:"source"`
	Status  string    `yaml:"status"`
	Tools   []MCPTool `yaml:"tools"`
	// ToolsUnverified: the tool list was not checked in source, so the
	// server may expose tools the catalog does not name.
	ToolsUnverified bool `yaml:"tools_unverified"`
	// DefaultEffects label a tool of this server that the catalog does not
	// list (new or renamed): fail closed.
	DefaultEffects []Label `yaml:"default_effects"`
	// ReadOnlyWhen lists config switches that expose only read tools.
	ReadOnlyWhen *ReadOnlySwitch `yaml:"read_only_when"`
}

// ReadOnlySwitch lists where a config can turn a server read-only.
type ReadOnlySwitch struct {
	Args      []string          `yaml:"args"`
	Env       map[string]string `yaml:"env"`
	URLSuffix []string          `yaml:"url_suffix"`
	URLQuery  map[string]string `yaml:"url_query"`
	Headers   map[string]string `yaml:"headers"`
}

// MCPTool is one tool of a catalogued MCP server.
type MCPTool struct {
	Name     string   `yaml:"name"`
	Effects  []Label  `yaml:"effects"`
	Roles    []string `yaml:"roles"`
	ReadOnly bool     `yaml:"read_only"`
	// ReadOnlyEffects replace Effects when the server runs read-only.
	ReadOnlyEffects []Label `yaml:"read_only_effects"`
	Deprecated      bool    `yaml:"deprecated"`
}

// Catalog holds the embedded data on prebuilt tools and MCP servers.
type Catalog struct {
	Tools      []*CatalogTool     `yaml:"tools"`
	Toolkits   []*CatalogToolkit  `yaml:"toolkits"`
	LoadTools  map[string]any     `yaml:"load_tools"`
	MCPServers []*MCPServer       `yaml:"mcp_servers"`
	Builtins   []*BuiltinProvider `yaml:"builtin_tools"`
	Aliases    *Aliases           `yaml:"aliases"`
	// HostedTypes are provider-hosted tools given as specs ({"type": …}).
	HostedTypes []*HostedType `yaml:"hosted_tool_types"`
	byClass     map[string][]*CatalogTool
}

// HostedType is a provider-hosted tool named by its spec's "type": an
// exact type, or a prefix ending in "_" for dated versions
// (web_search_20250305).
type HostedType struct {
	Type        string `yaml:"type"`
	Provider    string `yaml:"provider"`
	CatalogTool `yaml:",inline"`
}

// Hosted finds the hosted tool of a spec type; an exact type wins over a
// prefix.
func (c *Catalog) Hosted(typ string) *HostedType {
	var best *HostedType
	for _, h := range c.HostedTypes {
		prefix := strings.HasSuffix(h.Type, "_")
		switch {
		case !prefix && h.Type == typ:
			return h
		case prefix && strings.HasPrefix(typ, h.Type) && len(typ) > len(h.Type):
			if best == nil || len(h.Type) > len(best.Type) {
				best = h
			}
		}
	}
	return best
}

var defaultCatalog = func() *Catalog {
	c, err := loadCatalog()
	if err != nil {
		panic(err) // embedded data is checked by tests
	}
	return c
}()

// DefaultCatalog returns the embedded catalog.
func DefaultCatalog() *Catalog { return defaultCatalog }

func loadCatalog() (*Catalog, error) {
	c := &Catalog{byClass: map[string][]*CatalogTool{}, LoadTools: map[string]any{}}
	entries, err := catalogFS.ReadDir("catalog")
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	for _, n := range names {
		data, err := catalogFS.ReadFile("catalog/" + n)
		if err != nil {
			return nil, err
		}
		var part Catalog
		if err := yaml.Unmarshal(data, &part); err != nil {
			return nil, fmt.Errorf("catalog/%s: %w", n, err)
		}
		c.Tools = append(c.Tools, part.Tools...)
		c.Toolkits = append(c.Toolkits, part.Toolkits...)
		c.MCPServers = append(c.MCPServers, part.MCPServers...)
		c.Builtins = append(c.Builtins, part.Builtins...)
		c.HostedTypes = append(c.HostedTypes, part.HostedTypes...)
		if part.Aliases != nil {
			c.Aliases = part.Aliases
		}
		for k, v := range part.LoadTools {
			c.LoadTools[k] = v
		}
	}
	for _, t := range c.Tools {
		for _, l := range t.Effects {
			if !validLabel(l) {
				return nil, fmt.Errorf("catalog: %s: unknown effect %q", t.Class, l)
			}
		}
		for _, n := range t.Narrow {
			if len(n.When) == 0 || n.Why == "" {
				return nil, fmt.Errorf("catalog: %s: a narrowing needs `when` and `why`", t.Class)
			}
			for _, l := range n.Effects {
				if !validLabel(l) || !hasLabel(t.Effects, l) {
					return nil, fmt.Errorf("catalog: %s: narrowing effect %q is not one of the tool's", t.Class, l)
				}
			}
		}
		c.byClass[t.Class] = append(c.byClass[t.Class], t)
		for _, n := range t.ImportedAs {
			c.byClass[n] = append(c.byClass[n], t)
		}
	}
	for _, h := range c.HostedTypes {
		if h.Type == "" || h.Name == "" {
			return nil, fmt.Errorf("catalog: a hosted tool type needs `type` and `name`")
		}
		for _, l := range h.Effects {
			if !validLabel(l) {
				return nil, fmt.Errorf("catalog: hosted %s: unknown effect %q", h.Type, l)
			}
		}
	}
	for _, s := range c.MCPServers {
		for _, t := range s.Tools {
			for _, l := range t.Effects {
				if !validLabel(l) {
					return nil, fmt.Errorf("catalog: mcp %s/%s: unknown effect %q", s.ID, t.Name, l)
				}
			}
		}
	}
	for _, p := range c.Builtins {
		for _, t := range p.Tools {
			for _, l := range t.Effects {
				if !validLabel(l) {
					return nil, fmt.Errorf("catalog: builtin %s/%s: unknown effect %q", p.Provider, t.Name, l)
				}
			}
		}
	}
	if c.Aliases != nil {
		for _, sc := range c.Aliases.ShellCommands {
			for _, l := range sc.Effects {
				if !validLabel(l) {
					return nil, fmt.Errorf("catalog: alias %q: unknown effect %q", sc.Command, l)
				}
			}
		}
	}
	return c, nil
}

func hasLabel(ls []Label, l Label) bool {
	for _, x := range ls {
		if x == l {
			return true
		}
	}
	return false
}

func validLabel(l Label) bool {
	for _, x := range Labels {
		if x == l {
			return true
		}
	}
	return false
}

// Tool finds the catalog entry of a qualified class name: its last
// component is the class, its first the package it was imported from.
func (c *Catalog) Tool(qual string) *CatalogTool {
	top, _, _ := strings.Cut(qual, ".")
	for _, t := range c.byClass[lastDot(qual)] {
		for _, p := range t.Packages {
			if p == top {
				return t
			}
		}
	}
	return nil
}

// ToolByName finds a tool class by its class name within a framework.
func (c *Catalog) ToolByClass(class string) *CatalogTool {
	if ts := c.byClass[class]; len(ts) > 0 {
		return ts[0]
	}
	return nil
}

// Toolkit finds a toolkit by qualified class name.
func (c *Catalog) Toolkit(qual string) *CatalogToolkit {
	top, _, _ := strings.Cut(qual, ".")
	for _, k := range c.Toolkits {
		if k.Class != lastDot(qual) {
			continue
		}
		for _, p := range k.Packages {
			if p == top {
				return k
			}
		}
	}
	return nil
}

// Effects returns the effects of a catalog tool.
func (t *CatalogTool) EffectsOf(detail string) *Effects {
	e := newEffects()
	for _, l := range t.Effects {
		e.add(Evidence{Label: l, Kind: "catalog", Detail: detail}, ByCatalog)
	}
	for _, r := range t.Roles {
		e.addRoleBy(r, ByCatalog)
	}
	e.settle(ByCatalog)
	return e
}
