package extract

import (
	"path"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/acg-dev/acg/internal/secret"
)

// CrewYAMLKind says whether a path is a crew's YAML config: agents.yaml or
// tasks.yaml in a directory named config (CrewAI's default layout).
func CrewYAMLKind(rel string) string {
	rel = path.Clean(strings.ReplaceAll(rel, "\\", "/"))
	if path.Base(path.Dir(rel)) != "config" {
		return ""
	}
	switch strings.TrimSuffix(strings.TrimSuffix(path.Base(rel), ".yaml"), ".yml") {
	case "agents":
		return "agents"
	case "tasks":
		return "tasks"
	}
	return ""
}

// CrewYAML extracts a crew's agents.yaml or tasks.yaml: per key, the role,
// tools, allow_delegation (agents) or agent, tools, human_input (tasks).
func CrewYAML(rel string, src []byte) *File {
	f := &File{Path: rel, Lang: LangYAML, Lines: LineStarts(src)}
	cc := &CrewConfig{Kind: CrewYAMLKind(rel)}
	f.Crew = &CrewFacts{Config: cc}
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		f.Problems = append(f.Problems, Problem{Loc: yamlErrLoc(f, src, 0, err), Message: "invalid YAML: " + yamlErrMsg(err)})
		return f
	}
	y := yamlDoc{f: f, src: src, base: 0}
	m := yamlMapping(&doc)
	if m == nil {
		return f
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if v.Kind != yaml.MappingNode {
			continue
		}
		e := &CrewEntry{Key: k.Value, KeyLoc: y.nodeLoc(k)}
		if n := yamlGet(v, "role"); n != nil && n.Kind == yaml.ScalarNode {
			e.Role = secret.Mask(strings.TrimSpace(n.Value)) // it names the agent in every output
		}
		if n := yamlGet(v, "agent"); n != nil && n.Kind == yaml.ScalarNode {
			e.Agent = n.Value
		}
		if n := yamlGet(v, "tools"); n != nil {
			e.Tools = y.toolNames(n)
		}
		if n := yamlGet(v, "allow_delegation"); n != nil {
			var b bool
			if n.Decode(&b) == nil {
				e.AllowDelegation = b
			}
		}
		cc.Entries = append(cc.Entries, e)
	}
	return f
}
