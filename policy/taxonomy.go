package policy

import "github.com/acg-dev/acg/effects"

// Catalogue entries used in findings.
const (
	LLM01 = "LLM01:2025 Prompt Injection"
	LLM02 = "LLM02:2025 Sensitive Information Disclosure"
	LLM06 = "LLM06:2025 Excessive Agency"

	ASI01 = "ASI01 Agent Goal Hijack"
	ASI02 = "ASI02 Tool Misuse and Exploitation"
	ASI03 = "ASI03 Identity and Privilege Abuse"
	ASI05 = "ASI05 Unexpected Code Execution"
	ASI07 = "ASI07 Insecure Inter-Agent Communication"
	ASI09 = "ASI09 Human-Agent Trust Exploitation"

	ATLASIndirectInjection = "AML.T0051.001 LLM Prompt Injection: Indirect"
	ATLASToolInvocation    = "AML.T0053 AI Agent Tool Invocation"
	ATLASExfilViaTool      = "AML.T0086 Exfiltration via AI Agent Tool Invocation"
)

// taxonomyFor maps a rule and its decisive action label to the catalogues.
func taxonomyFor(rule string, action effects.Label) Taxonomy {
	t := Taxonomy{OWASPLLM: []string{LLM06}, OWASPASI: []string{ASI02}, ATLAS: []string{ATLASToolInvocation}}
	switch rule {
	case "rule-of-two", "toxic-flow":
		t.OWASPLLM = []string{LLM01, LLM06}
		t.OWASPASI = []string{ASI01, ASI02}
		t.ATLAS = []string{ATLASIndirectInjection, ATLASToolInvocation}
	}
	switch action {
	case effects.NetworkEgress:
		t.OWASPLLM = appendUniq(t.OWASPLLM, LLM02)
		t.ATLAS = appendUniq(t.ATLAS, ATLASExfilViaTool)
	case effects.ExecutesCode:
		t.OWASPASI = appendUniq(t.OWASPASI, ASI05)
	}
	return t
}

// TaxonomyFor maps a rule and the kind of action its path ends in onto
// the public catalogues; the observed chains of package traces are mapped
// as their static counterparts are.
func TaxonomyFor(rule string, action effects.Label) Taxonomy { return taxonomyFor(rule, action) }
