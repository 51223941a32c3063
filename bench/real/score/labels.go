package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Rules scored on certain labels. The YAML keys use underscores.
var scoredRules = []string{"rule-of-two", "missing-approval", "unrestricted-execution"}

func ruleKey(rule string) string { return strings.ReplaceAll(rule, "-", "_") }

// Manifest lists the target repositories at pinned commits.
type Manifest struct {
	Targets []Target `yaml:"targets"`
}

// Target is one repository; Paths limit the scan to the labelled parts.
type Target struct {
	Repo       string   `yaml:"repo"`
	Commit     string   `yaml:"commit"`
	Kind       string   `yaml:"kind"`
	Frameworks []string `yaml:"frameworks"`
	Paths      []string `yaml:"paths"`
}

// MirrorName is the directory the fetch tool uses for a repository.
func (t Target) MirrorName() string { return strings.ReplaceAll(t.Repo, "/", "+") }

// LabelName is the label file's base name for a repository.
func (t Target) LabelName() string { return strings.ReplaceAll(t.Repo, "/", "__") + ".yaml" }

// Verdict is a label's answer for one rule.
type Verdict int

const (
	Unlabelled Verdict = iota
	False
	True
	Uncertain
)

func (v Verdict) String() string {
	return [...]string{"unlabelled", "false", "true", "uncertain"}[v]
}

// parseVerdict reads "true: reason", "false: reason" or "uncertain: reason".
// A verdict without a reason is an error: every verdict must say why.
func parseVerdict(s string) (Verdict, string, error) {
	head, reason, ok := strings.Cut(s, ":")
	reason = strings.TrimSpace(reason)
	if !ok || reason == "" {
		return Unlabelled, "", fmt.Errorf("verdict %q: want \"true|false|uncertain: reason\"", s)
	}
	switch strings.TrimSpace(strings.ToLower(head)) {
	case "true":
		return True, reason, nil
	case "false":
		return False, reason, nil
	case "uncertain":
		return Uncertain, reason, nil
	}
	return Unlabelled, "", fmt.Errorf("verdict %q: %q is not true, false or uncertain", s, head)
}

// Loc is a path and a 1-based line inside the target repository.
type Loc struct {
	File string
	Line int
}

func (l Loc) String() string { return l.File + ":" + strconv.Itoa(l.Line) }

// parseLoc reads "path/to/file.py:12"; the line is required.
func parseLoc(s string) (Loc, error) {
	i := strings.LastIndexByte(s, ':')
	if i <= 0 {
		return Loc{}, fmt.Errorf("location %q: want path:line", s)
	}
	n, err := strconv.Atoi(s[i+1:])
	if err != nil || n < 1 {
		return Loc{}, fmt.Errorf("location %q: bad line", s)
	}
	return Loc{File: filepath.ToSlash(s[:i]), Line: n}, nil
}

// LabelledAgent is one agent found by reading the code.
type LabelledAgent struct {
	Repo      string
	Loc       Loc
	Also      []Loc // other places acg may report the same agent (a config's sibling file)
	Name      string
	Aliases   []string
	Framework string
	Verdicts  map[string]Verdict // by rule name
	Reasons   map[string]string
}

// Names are the names a matching acg agent may carry.
func (a *LabelledAgent) Names() []string { return append([]string{a.Name}, a.Aliases...) }

// LabelFile is one repository's labels.
type LabelFile struct {
	Repo     string
	Complete bool // every agent in the scanned paths is listed
	Agents   []*LabelledAgent
}

type rawLabelFile struct {
	Repo     string            `yaml:"repo"`
	Complete bool              `yaml:"complete"`
	Defaults map[string]string `yaml:"defaults"`
	Agents   []rawAgent        `yaml:"agents"`
}

type rawAgent struct {
	File      string   `yaml:"file"`
	Name      string   `yaml:"name"`
	Aliases   []string `yaml:"aliases"`
	Also      []string `yaml:"also"`
	Framework string   `yaml:"framework"`
	Rules     map[string]string
}

// UnmarshalYAML keeps the rule verdicts, whose keys are the rule names.
func (r *rawAgent) UnmarshalYAML(n *yaml.Node) error {
	type plain rawAgent
	if err := n.Decode((*plain)(r)); err != nil {
		return err
	}
	var all map[string]any
	if err := n.Decode(&all); err != nil {
		return err
	}
	r.Rules = map[string]string{}
	for _, rule := range scoredRules {
		if v, ok := all[ruleKey(rule)]; ok {
			s, ok := v.(string)
			if !ok {
				return fmt.Errorf("line %d: %s must be a string \"verdict: reason\"", n.Line, ruleKey(rule))
			}
			r.Rules[rule] = s
		}
	}
	return nil
}

// parseLabels reads one label file's bytes.
func parseLabels(data []byte) (*LabelFile, error) {
	var raw rawLabelFile
	if err := yaml.Unmarshal(data, &raw); err != nil {
		return nil, err
	}
	if raw.Repo == "" {
		return nil, fmt.Errorf("no repo")
	}
	lf := &LabelFile{Repo: raw.Repo, Complete: raw.Complete}
	for i, ra := range raw.Agents {
		loc, err := parseLoc(ra.File)
		if err != nil {
			return nil, fmt.Errorf("agent %d: %w", i+1, err)
		}
		if ra.Name == "" {
			return nil, fmt.Errorf("agent %d (%s): no name", i+1, loc)
		}
		a := &LabelledAgent{Repo: raw.Repo, Loc: loc, Name: ra.Name, Aliases: ra.Aliases,
			Framework: ra.Framework, Verdicts: map[string]Verdict{}, Reasons: map[string]string{}}
		for _, s := range ra.Also {
			l, err := parseLoc(s)
			if err != nil {
				return nil, fmt.Errorf("agent %s: %w", loc, err)
			}
			a.Also = append(a.Also, l)
		}
		for _, rule := range scoredRules {
			s, ok := ra.Rules[rule]
			if !ok {
				s, ok = raw.Defaults[ruleKey(rule)]
			}
			if !ok {
				return nil, fmt.Errorf("agent %s %q: no verdict for %s", loc, ra.Name, rule)
			}
			v, reason, err := parseVerdict(s)
			if err != nil {
				return nil, fmt.Errorf("agent %s %q: %s: %w", loc, ra.Name, rule, err)
			}
			a.Verdicts[rule], a.Reasons[rule] = v, reason
		}
		lf.Agents = append(lf.Agents, a)
	}
	return lf, nil
}

// loadManifest reads the manifest and every target's label file.
func loadManifest(manifestPath, labelsDir string) (*Manifest, map[string]*LabelFile, error) {
	data, err := os.ReadFile(manifestPath)
	if err != nil {
		return nil, nil, err
	}
	var m Manifest
	if err := yaml.Unmarshal(data, &m); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", manifestPath, err)
	}
	labels := map[string]*LabelFile{}
	for _, t := range m.Targets {
		if t.Repo == "" || len(t.Commit) != 40 {
			return nil, nil, fmt.Errorf("%s: target %q needs repo and a 40-digit commit", manifestPath, t.Repo)
		}
		p := filepath.Join(labelsDir, t.LabelName())
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, nil, err
		}
		lf, err := parseLabels(data)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", p, err)
		}
		if lf.Repo != t.Repo {
			return nil, nil, fmt.Errorf("%s: repo %q, manifest says %q", p, lf.Repo, t.Repo)
		}
		labels[t.Repo] = lf
	}
	return &m, labels, nil
}
