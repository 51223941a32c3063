package policy

import (
	_ "embed"
	"fmt"

	"gopkg.in/yaml.v3"

	"github.com/acg-dev/acg/config"
)

//go:embed patterns.yaml
var patternsYAML []byte

// Pattern is one row of the dangerous-chain database: a tool with the
// source role followed by a tool with the target role is an attack chain.
type Pattern struct {
	ID          string `yaml:"id"`
	Category    string `yaml:"category"`
	Source      string `yaml:"source"`
	Target      string `yaml:"target"`
	Type        string `yaml:"type"`
	Risk        string `yaml:"risk"`
	Remediation string `yaml:"remediation"`
	// user rows come from the config file and may name tools exactly.
	user bool
}

// Patterns is a loaded database: rows in matching order, with the role
// synonyms applied.
type Patterns struct {
	Rows     []Pattern
	synonyms map[string]string
}

type patternsFile struct {
	Synonyms map[string]string `yaml:"synonyms"`
	Patterns []Pattern         `yaml:"patterns"`
}

// ParsePatterns reads a patterns file (the embedded one, or rows a user
// adds in the config file under the same keys).
func ParsePatterns(data []byte) (*Patterns, error) {
	var pf patternsFile
	if err := yaml.Unmarshal(data, &pf); err != nil {
		return nil, fmt.Errorf("patterns: %w", err)
	}
	p := &Patterns{synonyms: pf.Synonyms}
	if p.synonyms == nil {
		p.synonyms = map[string]string{}
	}
	return p.With(pf.Patterns)
}

// With returns the database with more rows: a row whose source and target
// (after synonyms) match an existing row replaces it in place; others are
// appended. Rows with missing fields or an unknown risk are an error.
func (p *Patterns) With(rows []Pattern) (*Patterns, error) {
	out := &Patterns{Rows: append([]Pattern(nil), p.Rows...), synonyms: p.synonyms}
	at := map[[2]string]int{}
	for i, r := range out.Rows {
		at[[2]string{r.Source, r.Target}] = i
	}
	for _, r := range rows {
		if r.Source == "" || r.Target == "" || r.Type == "" {
			return nil, fmt.Errorf("patterns: row %q needs source, target and type", r.ID)
		}
		if _, ok := ParseSeverity(r.Risk); !ok {
			return nil, fmt.Errorf("patterns: row %q: risk %q is not critical, high, medium or low", r.ID, r.Risk)
		}
		r.Source, r.Target = out.Canonical(r.Source), out.Canonical(r.Target)
		key := [2]string{r.Source, r.Target}
		if i, dup := at[key]; dup {
			if len(p.Rows) == 0 {
				continue // a duplicate inside one file: the first row wins
			}
			out.Rows[i] = r
			continue
		}
		at[key] = len(out.Rows)
		out.Rows = append(out.Rows, r)
	}
	return out, nil
}

// Canonical maps a role name through the synonyms.
func (p *Patterns) Canonical(role string) string {
	if c, ok := p.synonyms[role]; ok {
		return c
	}
	return role
}

var defaultPatterns = func() *Patterns {
	p, err := ParsePatterns(patternsYAML)
	if err != nil {
		panic(err) // embedded data is checked by tests
	}
	return p
}()

// DefaultPatterns returns the embedded database.
func DefaultPatterns() *Patterns { return defaultPatterns }

// userPatterns adds the rows of the config file (.acg.yaml
// chain_patterns) to the embedded database. A user row's source and
// target are canonical roles, or exact tool names (never substrings).
func userPatterns(rows []config.ChainPattern) (*Patterns, error) {
	if len(rows) == 0 {
		return DefaultPatterns(), nil
	}
	var ps []Pattern
	for _, r := range rows {
		ps = append(ps, Pattern{ID: fmt.Sprintf("%s:%d", config.FileName, r.Line), Category: r.Category, Source: r.Source,
			Target: r.Target, Type: r.Type, Risk: r.Severity, Remediation: r.Remediation, user: true})
	}
	return DefaultPatterns().With(ps)
}
