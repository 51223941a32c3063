// Package config owns the project configuration file `.acg.yaml`: tool
// effect overrides, custom chain patterns, the severity threshold, disabled
// rules, prover settings and suppressions; and the inline suppression
// comment `# acg: ignore[rule] reason`. It only reads and validates: the
// workspace (package incremental) applies what it says. Every value keeps
// its line so that errors and evidence point into the file.
package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/acg-dev/acg/internal/secret"
)

// FileName is the configuration file read from the scan root.
const FileName = ".acg.yaml"

// Labels are the tool effect labels an override may set (the output
// contract's names; package effects defines the same six).
var Labels = []string{"untrusted_input", "reads_private", "network_egress", "writes_state", "executes_code", "irreversible"}

// Severities are the finding severities, highest first.
var Severities = []string{"critical", "high", "medium", "low"}

// Provers are the flow provers that can be configured.
var Provers = []string{"builtin", "codeql", "opengrep", "semgrep"}

// Config is a parsed `.acg.yaml`. The zero value is the empty config.
type Config struct {
	// Path is the file as named to Parse, for messages and evidence.
	Path    string
	Version int
	// SeverityThreshold drops findings below it ("" keeps every finding).
	SeverityThreshold string
	DisabledRules     []Ref
	Tools             []ToolOverride
	ChainPatterns     []ChainPattern
	Provers           map[string]Prover
	Suppressions      []Suppression
	// thresholdPos is where the threshold was set.
	thresholdPos Pos
}

// Pos is a 1-based position in the config file.
type Pos struct {
	Line   int
	Column int
}

// Ref is a rule name written in the config.
type Ref struct {
	Name string
	Pos
}

// ToolOverride declares a tool's effects. Effects holds the labels it
// sets; when Complete (the list form) every other label is declared absent.
type ToolOverride struct {
	// Tool matches a tool id (file#symbol) or a tool name.
	Tool     string
	Effects  map[string]bool
	Complete bool
	Reason   string
	Pos
}

// ChainPattern is a user pattern for the dangerous-chain check, in the
// shape of the built-in pattern database: calling Target after Source is
// dangerous. Source and Target are tool names as the model sees them.
type ChainPattern struct {
	Source      string
	Target      string
	Type        string // vulnerability type, e.g. data_exfiltration
	Severity    string
	Category    string
	Description string
	Remediation string
	Pos
}

// Prover is one prover's settings. A repository's config asks for a
// prover by name; it never names the program: acg runs only programs the
// user chose (docs/security.md, "Programs acg runs").
type Prover struct {
	Enabled bool
	// Path is where a `path:` key stood. Old configs set the executable
	// there; it is still parsed, so they stay valid, but its value is not
	// kept: nothing may run it.
	Path *Pos
	// Rules are extra rule files or query files, relative to the scan
	// root: data for the prover, never programs.
	Rules []File
	Pos
}

// File is a file named in the config, relative to the scan root.
type File struct {
	Path string
	Pos
}

// Suppression silences the findings it matches. At least one of ID, Agent
// and Tool is set; Rule narrows to one rule.
type Suppression struct {
	ID     string
	Agent  string
	Tool   string
	Rule   string
	Reason string
	Pos
}

// Error is one problem in the config file.
type Error struct {
	File string
	Pos
	Msg string
}

func (e *Error) Error() string {
	if e.Line == 0 {
		return e.File + ": " + e.Msg
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Column, e.Msg)
}

// Errors lists every problem found, in file order.
type Errors []*Error

func (es Errors) Error() string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = e.Error()
	}
	return strings.Join(parts, "\n")
}

// MaxSize bounds the config file: it is hand-written and small.
const MaxSize = 1 << 20

// Load reads and parses a config file.
func Load(path string) (*Config, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxSize+1))
	if err != nil {
		return nil, fmt.Errorf("config %s: %w", path, err)
	}
	return Parse(path, data)
}

// Parse reads a config. name is used in messages and as the File of
// evidence locations. The error, if any, is Errors.
func Parse(name string, data []byte) (*Config, error) {
	p := &parser{file: name, c: &Config{Path: name, Provers: map[string]Prover{}}}
	if len(data) > MaxSize {
		return nil, Errors{{File: name, Msg: fmt.Sprintf("%d bytes is over the %d byte limit for a config file", len(data), MaxSize)}}
	}
	if bytes.IndexByte(data, 0) >= 0 {
		return nil, Errors{{File: name, Msg: "binary content: not a YAML file"}}
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return p.c, nil // empty file: empty config
		}
		return nil, Errors{yamlError(name, err)}
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		p.errf(&extra, "only one YAML document is allowed")
	}
	root := &doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	p.top(root)
	if len(p.errs) > 0 {
		sort.SliceStable(p.errs, func(i, j int) bool { return p.errs[i].Line < p.errs[j].Line })
		return nil, p.errs
	}
	return p.c, nil
}

var yamlLine = regexp.MustCompile(`line (\d+)`)

// yamlError turns a YAML syntax error into an Error with its line. What
// the parser quotes from the input (an anchor's name) is dropped.
func yamlError(file string, err error) *Error {
	msg := secret.DropQuoted(strings.TrimPrefix(err.Error(), "yaml: "))
	e := &Error{File: file, Msg: "invalid YAML: " + msg}
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		e.Line, _ = strconv.Atoi(m[1])
		e.Column = 1
		e.Msg = "invalid YAML: " + strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(msg, m[0]), ":"))
	}
	return e
}

type parser struct {
	file string
	c    *Config
	errs Errors
}

func (p *parser) errf(n *yaml.Node, format string, args ...any) {
	p.errs = append(p.errs, &Error{File: p.file, Pos: pos(n), Msg: fmt.Sprintf(format, args...)})
}

func pos(n *yaml.Node) Pos { return Pos{Line: n.Line, Column: n.Column} }

// fields walks a mapping, calling the handler of each known key and
// reporting unknown and repeated keys.
func (p *parser) fields(n *yaml.Node, what string, handlers map[string]func(v *yaml.Node)) {
	if n.Kind != yaml.MappingNode {
		p.errf(n, "%s must be a mapping, not %s", what, kindName(n))
		return
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		h, ok := handlers[k.Value]
		switch {
		case !ok:
			p.errf(k, "unknown key %s in %s (known: %s)", secret.QuoteKey(k.Value), what, strings.Join(keys(handlers), ", "))
		case seen[k.Value]:
			p.errf(k, "key %s is repeated in %s", secret.QuoteKey(k.Value), what)
		case v.Kind == yaml.AliasNode:
			p.errf(v, "YAML aliases are not supported in %s", what)
		default:
			seen[k.Value] = true
			h(v)
		}
	}
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	case yaml.ScalarNode:
		// By type only: messages quote keys, never a value (a config may
		// be a file of the user's that holds credentials).
		switch n.Tag {
		case "!!null":
			return "empty"
		case "!!int", "!!float":
			return "a number"
		case "!!bool":
			return "true or false"
		}
		return "a string"
	}
	return "a document"
}

func (p *parser) str(n *yaml.Node, what string) (string, bool) {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		p.errf(n, "%s must be a string, not %s", what, kindName(n))
		return "", false
	}
	s := strings.TrimSpace(n.Value)
	if s == "" {
		p.errf(n, "%s must not be empty", what)
		return "", false
	}
	return s, true
}

func (p *parser) boolean(n *yaml.Node, what string) (bool, bool) {
	if n.Kind != yaml.ScalarNode || n.Tag != "!!bool" {
		p.errf(n, "%s must be true or false, not %s", what, kindName(n))
		return false, false
	}
	var b bool
	if err := n.Decode(&b); err != nil {
		p.errf(n, "%s must be true or false", what) // the decoder's error quotes the value
		return false, false
	}
	return b, true
}

func (p *parser) oneOf(n *yaml.Node, what string, allowed []string) (string, bool) {
	s, ok := p.str(n, what)
	if !ok {
		return "", false
	}
	for _, a := range allowed {
		if s == a {
			return s, true
		}
	}
	p.errf(n, "%s is not one of: %s", what, strings.Join(allowed, ", "))
	return "", false
}

func (p *parser) list(n *yaml.Node, what string, each func(*yaml.Node)) {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return // `key:` with nothing after it: an empty list
	}
	if n.Kind != yaml.SequenceNode {
		p.errf(n, "%s must be a list, not %s", what, kindName(n))
		return
	}
	for _, e := range n.Content {
		if e.Kind == yaml.AliasNode {
			p.errf(e, "YAML aliases are not supported in %s", what)
			continue
		}
		each(e)
	}
}

func (p *parser) top(n *yaml.Node) {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return // only comments
	}
	p.fields(n, "the config", map[string]func(*yaml.Node){
		"version": func(v *yaml.Node) {
			if v.Kind != yaml.ScalarNode || v.Value != "1" {
				p.errf(v, "version must be 1")
				return
			}
			p.c.Version = 1
		},
		"severity_threshold": func(v *yaml.Node) {
			if s, ok := p.oneOf(v, "severity_threshold", Severities); ok {
				p.c.SeverityThreshold, p.c.thresholdPos = s, pos(v)
			}
		},
		"disabled_rules": func(v *yaml.Node) {
			p.list(v, "disabled_rules", func(e *yaml.Node) {
				if s, ok := p.str(e, "a rule in disabled_rules"); ok {
					p.c.DisabledRules = append(p.c.DisabledRules, Ref{Name: s, Pos: pos(e)})
				}
			})
		},
		"tools":          func(v *yaml.Node) { p.list(v, "tools", p.tool) },
		"chain_patterns": func(v *yaml.Node) { p.list(v, "chain_patterns", p.pattern) },
		"provers":        p.provers,
		"suppressions":   func(v *yaml.Node) { p.list(v, "suppressions", p.suppression) },
	})
}

func (p *parser) tool(n *yaml.Node) {
	o := ToolOverride{Pos: pos(n)}
	hasEffects := false
	p.fields(n, "a tools entry", map[string]func(*yaml.Node){
		"tool": func(v *yaml.Node) { o.Tool, _ = p.str(v, "tool") },
		"reason": func(v *yaml.Node) {
			o.Reason, _ = p.str(v, "reason")
			p.placeholder(v, o.Reason, "why these are the tool's effects")
		},
		"effects": func(v *yaml.Node) {
			hasEffects = true
			o.Effects = map[string]bool{}
			switch v.Kind {
			case yaml.SequenceNode:
				// The list form declares the whole set: what it omits is absent.
				o.Complete = true
				p.list(v, "effects", func(e *yaml.Node) {
					if l, ok := p.oneOf(e, "effect", Labels); ok {
						o.Effects[l] = true
					}
				})
			case yaml.MappingNode:
				for i := 0; i+1 < len(v.Content); i += 2 {
					k, val := v.Content[i], v.Content[i+1]
					l, ok := p.oneOf(k, "effect", Labels)
					if !ok {
						continue
					}
					if _, dup := o.Effects[l]; dup {
						p.errf(k, "effect %q is repeated", l)
						continue
					}
					if b, ok := p.boolean(val, "effect "+l); ok {
						o.Effects[l] = b
					}
				}
			default:
				if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
					o.Complete = true // `effects: []` written as `effects:`: no effects at all
					return
				}
				p.errf(v, "effects must be a list of labels or a mapping of label: true/false, not %s", kindName(v))
			}
		},
	})
	if n.Kind != yaml.MappingNode {
		return
	}
	if !hasKey(n, "tool") {
		p.errf(n, "a tools entry needs tool: (a tool id such as tools.py#send_http, or a tool name)")
	}
	if !hasEffects {
		p.errf(n, "a tools entry needs effects: (a list of labels, or label: true/false)")
	}
	if !hasKey(n, "reason") {
		p.errf(n, "a tools entry needs a reason: say why the tool's effects differ from what acg decided")
	}
	p.c.Tools = append(p.c.Tools, o)
}

// placeholder rejects a reason that is still the placeholder a quick fix
// wrote (or empty): the entry does nothing until a person says why, as
// for the inline comment (an empty one is rejected by str).
func (p *parser) placeholder(v *yaml.Node, reason, what string) {
	if v.Kind == yaml.ScalarNode && strings.EqualFold(strings.TrimSpace(reason), ReasonPlaceholder) {
		p.errf(v, "replace the placeholder %q with the reason: say %s", ReasonPlaceholder, what)
	}
}

func hasKey(n *yaml.Node, key string) bool {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return true
		}
	}
	return false
}

func (p *parser) pattern(n *yaml.Node) {
	cp := ChainPattern{Pos: pos(n), Severity: "high"}
	p.fields(n, "a chain_patterns entry", map[string]func(*yaml.Node){
		"source":      func(v *yaml.Node) { cp.Source, _ = p.str(v, "source") },
		"target":      func(v *yaml.Node) { cp.Target, _ = p.str(v, "target") },
		"type":        func(v *yaml.Node) { cp.Type, _ = p.str(v, "type") },
		"severity":    func(v *yaml.Node) { cp.Severity, _ = p.oneOf(v, "severity", Severities) },
		"category":    func(v *yaml.Node) { cp.Category, _ = p.str(v, "category") },
		"description": func(v *yaml.Node) { cp.Description, _ = p.str(v, "description") },
		"remediation": func(v *yaml.Node) { cp.Remediation, _ = p.str(v, "remediation") },
	})
	if n.Kind != yaml.MappingNode {
		return
	}
	for _, k := range []string{"source", "target", "type"} {
		if !hasKey(n, k) {
			p.errf(n, "a chain pattern needs %s:", k)
		}
	}
	p.c.ChainPatterns = append(p.c.ChainPatterns, cp)
}

func (p *parser) provers(n *yaml.Node) {
	handlers := map[string]func(*yaml.Node){}
	for _, name := range Provers {
		name := name
		handlers[name] = func(v *yaml.Node) {
			pr := Prover{Pos: pos(v)}
			if v.Kind == yaml.ScalarNode {
				// Shorthand: `codeql: false`.
				pr.Enabled, _ = p.boolean(v, "provers."+name)
				p.c.Provers[name] = pr
				return
			}
			pr.Enabled = true
			p.fields(v, "provers."+name, map[string]func(*yaml.Node){
				"enabled": func(x *yaml.Node) { pr.Enabled, _ = p.boolean(x, "enabled") },
				"path": func(x *yaml.Node) {
					if _, ok := p.str(x, "path"); ok {
						at := pos(x)
						pr.Path = &at
					}
				},
				"rules": func(x *yaml.Node) {
					p.list(x, "rules", func(e *yaml.Node) {
						if s, ok := p.str(e, "an entry of rules"); ok {
							pr.Rules = append(pr.Rules, File{Path: s, Pos: pos(e)})
						}
					})
				},
			})
			p.c.Provers[name] = pr
		}
	}
	p.fields(n, "provers", handlers)
}

var findingID = regexp.MustCompile(`^ACG-[0-9A-F]{12}$`)

func (p *parser) suppression(n *yaml.Node) {
	s := Suppression{Pos: pos(n)}
	p.fields(n, "a suppressions entry", map[string]func(*yaml.Node){
		"id": func(v *yaml.Node) {
			if id, ok := p.str(v, "id"); ok {
				if !findingID.MatchString(id) {
					p.errf(v, "id is not a finding id (ACG- and 12 hex digits, as in the output)")
					return
				}
				s.ID = id
			}
		},
		"agent": func(v *yaml.Node) { s.Agent, _ = p.str(v, "agent") },
		"tool":  func(v *yaml.Node) { s.Tool, _ = p.str(v, "tool") },
		"rule":  func(v *yaml.Node) { s.Rule, _ = p.str(v, "rule") },
		"reason": func(v *yaml.Node) {
			s.Reason, _ = p.str(v, "reason")
			p.placeholder(v, s.Reason, "why the finding is acceptable")
		},
	})
	if n.Kind != yaml.MappingNode {
		return
	}
	if !hasKey(n, "id") && !hasKey(n, "agent") && !hasKey(n, "tool") {
		p.errf(n, "a suppression needs id:, agent: or tool: (to silence a whole rule, use disabled_rules)")
	}
	if !hasKey(n, "reason") {
		p.errf(n, "a suppression needs a reason: say why the finding is acceptable")
	}
	p.c.Suppressions = append(p.c.Suppressions, s)
}

// RuleRefs lists every rule name the config mentions, for CheckRules.
func (c *Config) RuleRefs() []Ref {
	if c == nil {
		return nil
	}
	out := append([]Ref(nil), c.DisabledRules...)
	for _, s := range c.Suppressions {
		if s.Rule != "" {
			out = append(out, Ref{Name: s.Rule, Pos: s.Pos})
		}
	}
	return out
}

// CheckRules reports rule names that are not among the known ones. The
// checks register at run time, so this runs once they are known.
func (c *Config) CheckRules(known []string) error {
	ok := map[string]bool{}
	for _, k := range known {
		ok[k] = true
	}
	var errs Errors
	for _, r := range c.RuleRefs() {
		if !ok[r.Name] {
			errs = append(errs, &Error{File: c.Path, Pos: r.Pos, Msg: fmt.Sprintf("unknown rule (known: %s)", strings.Join(known, ", "))})
		}
	}
	if errs != nil {
		return errs
	}
	return nil
}

// Disabled reports whether a rule is switched off.
func (c *Config) Disabled(rule string) bool {
	if c == nil {
		return false
	}
	for _, r := range c.DisabledRules {
		if r.Name == rule {
			return true
		}
	}
	return false
}

// ThresholdPos is where severity_threshold was set.
func (c *Config) ThresholdPos() Pos { return c.thresholdPos }

// Subject is what a suppression can match: one finding's identity.
type Subject struct {
	ID    string
	Rule  string
	Agent []string // the agent's name and id
	Tools []string // names and ids of the tools involved
}

// Suppressed returns the first suppression that matches a finding, or nil.
func (c *Config) Suppressed(s Subject) *Suppression {
	if c == nil {
		return nil
	}
	for i := range c.Suppressions {
		x := &c.Suppressions[i]
		if x.ID != "" && x.ID != s.ID {
			continue
		}
		if x.Rule != "" && x.Rule != s.Rule {
			continue
		}
		if x.Agent != "" && !contains(s.Agent, x.Agent) {
			continue
		}
		if x.Tool != "" && !contains(s.Tools, x.Tool) {
			continue
		}
		return x
	}
	return nil
}

// Overrides returns the tool overrides that apply to a tool, in file order.
func (c *Config) Overrides(id, name string) []ToolOverride {
	if c == nil {
		return nil
	}
	var out []ToolOverride
	for _, o := range c.Tools {
		if o.Tool == id || o.Tool == name {
			out = append(out, o)
		}
	}
	return out
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
