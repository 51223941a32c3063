package report

import (
	"crypto/sha1"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"sort"
	"strings"

	"github.com/owenrumney/go-sarif/v2/sarif"

	"github.com/acg-dev/acg/extract"
	"github.com/acg-dev/acg/policy"
)

// FingerprintKey names acg's stable finding id among a result's
// partialFingerprints.
const FingerprintKey = "acgFindingId/v1"

// taxonomy is one public catalogue that findings map into.
type taxonomy struct {
	name, org, version, uri string
	of                      func(policy.Taxonomy) []string
	taxonURI                func(id string) string
}

// taxonomies are the catalogues, in the order of run.taxonomies.
var taxonomies = []taxonomy{
	{name: "OWASP Top 10 for LLM Applications", org: "OWASP", version: "2025", uri: "https://genai.owasp.org/llm-top-10/",
		of: func(t policy.Taxonomy) []string { return t.OWASPLLM }},
	{name: "OWASP Top 10 for Agentic Applications", org: "OWASP", version: "2026",
		uri: "https://genai.owasp.org/resource/owasp-top-10-for-agentic-applications-for-2026/",
		of:  func(t policy.Taxonomy) []string { return t.OWASPASI }},
	{name: "MITRE ATLAS", org: "MITRE", uri: "https://atlas.mitre.org/",
		of:       func(t policy.Taxonomy) []string { return t.ATLAS },
		taxonURI: func(id string) string { return "https://atlas.mitre.org/techniques/" + id }},
}

// SARIF writes the document as a SARIF 2.1.0 log: one rule per check,
// one result per finding (suppressed ones carry their suppression), the
// path as a code flow, the tools behind each leg as related locations,
// and taxonomy references.
func SARIF(w io.Writer, d *Document, o Options) error {
	log, err := sarif.New(sarif.Version210)
	if err != nil {
		return err
	}
	driver := sarif.NewDriver("acg").WithInformationURI(InfoURI).
		WithFullName("acg (Agent Capability Graph)").WithOrganization("acg")
	if o.ToolVersion != "" {
		driver.WithVersion(o.ToolVersion)
		if isSemver(o.ToolVersion) {
			driver.WithSemanticVersion(strings.TrimPrefix(o.ToolVersion, "v"))
		}
	}
	ruleIndex := map[string]int{}
	for i, r := range Rules() {
		ruleIndex[r.ID] = i
		driver.AddRule(sarifRule(r))
	}
	all := d.all()
	for _, f := range all {
		if _, ok := ruleIndex[f.Rule]; !ok { // a finding of a rule nobody registered
			ruleIndex[f.Rule] = len(driver.Rules)
			driver.AddRule(sarifRule(infoFor(f.Rule, "")))
		}
	}
	taxa, comps := sarifTaxonomies(all)
	for i := range taxonomies {
		driver.AddSupportedTaxonomie(compRef(comps[i], i))
	}
	run := sarif.NewRun(*sarif.NewTool(driver))
	run.ColumnKind = "utf16CodeUnits"
	run.Results = []*sarif.Result{}
	run.Taxonomies = comps
	if o.Root != "" {
		run.OriginalUriBaseIDs = map[string]*sarif.ArtifactLocation{srcRoot: sarif.NewArtifactLocation().WithUri(rootURI(o.Root))}
	}
	tfl := sharedFlowLocations(all)
	run.ThreadFlowLocations = make([]*sarif.ThreadFlowLocation, len(tfl.order))
	for i, st := range tfl.order {
		run.ThreadFlowLocations[i] = flowLocation(st)
	}
	for _, f := range all {
		run.AddResult(sarifResult(f, ruleIndex[f.Rule], taxa, comps, tfl, o))
	}
	run.AddInvocations(sarifInvocation(d.Notices))
	log.AddRun(run)
	return writeJSON(w, func(w io.Writer) error {
		if err := log.PrettyWrite(w); err != nil {
			return err
		}
		_, err := io.WriteString(w, "\n")
		return err
	})
}

// srcRoot is the uriBaseId every artifact location is relative to.
const srcRoot = "%SRCROOT%"

// rootURI is the file URI of an absolute directory, with the trailing
// slash SARIF requires of a base URI (§3.14.14).
func rootURI(dir string) string {
	p := filepath.ToSlash(dir)
	if !strings.HasPrefix(p, "/") { // C:/x on Windows
		p = "/" + p
	}
	if !strings.HasSuffix(p, "/") {
		p += "/"
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

func isSemver(v string) bool {
	v = strings.TrimPrefix(v, "v")
	parts := strings.SplitN(v, ".", 3)
	if len(parts) != 3 {
		return false
	}
	for _, p := range parts[:2] {
		if p == "" || strings.Trim(p, "0123456789") != "" {
			return false
		}
	}
	return parts[2] != "" && parts[2][0] >= '0' && parts[2][0] <= '9'
}

func sarifRule(r RuleInfo) *sarif.ReportingDescriptor {
	level := "error"
	if r.ID == policy.RuleInvalidSuppression {
		level = "warning"
	}
	return sarif.NewRule(r.ID).WithName(r.Name).
		WithShortDescription(sarif.NewMultiformatMessageString(r.Short)).
		WithFullDescription(sarif.NewMultiformatMessageString(r.Full)).
		WithHelp(&sarif.MultiformatMessageString{Text: ptr(markdownToText(r.Help)), Markdown: ptr(r.Help)}).
		WithHelpURI(r.HelpURI()).
		WithDefaultConfiguration(&sarif.ReportingConfiguration{Level: level}).
		WithProperties(sarif.Properties{
			"security-severity": r.SecuritySeverity,
			"problem.severity":  level,
			"precision":         "high",
			"tags":              r.Tags,
		})
}

var markdownStripper = strings.NewReplacer("**", "", "`", "")

func markdownToText(md string) string { return markdownStripper.Replace(md) }

func ptr[T any](v T) *T { return &v }

// taxonKey identifies one taxon: its catalogue and id.
type taxonKey struct {
	comp int
	id   string
}

// sarifTaxonomies builds the three catalogues with the taxa the findings
// reference. An entry is written "ID Name" ("ASI01 Agent Goal Hijack").
func sarifTaxonomies(fs []*policy.Finding) (map[taxonKey]int, []*sarif.ToolComponent) {
	names := make([]map[string]string, len(taxonomies))
	for i := range names {
		names[i] = map[string]string{}
	}
	for _, f := range fs {
		for i, t := range taxonomies {
			for _, e := range t.of(f.Taxonomy) {
				id, name := splitTaxon(e)
				names[i][id] = name
			}
		}
	}
	index := map[taxonKey]int{}
	comps := make([]*sarif.ToolComponent, len(taxonomies))
	for i, t := range taxonomies {
		c := &sarif.ToolComponent{Name: t.name, Rules: []*sarif.ReportingDescriptor{}}
		c.WithGUID(guid("taxonomy:" + t.name)).WithOrganization(t.org).WithInformationURI(t.uri).
			WithShortDescription(sarif.NewMultiformatMessageString(t.name))
		if t.version != "" {
			c.WithVersion(t.version)
		}
		ids := make([]string, 0, len(names[i]))
		for id := range names[i] {
			ids = append(ids, id)
		}
		sort.Strings(ids)
		for j, id := range ids {
			index[taxonKey{i, id}] = j
			taxon := sarif.NewRule(id).WithName(names[i][id]).WithShortDescription(sarif.NewMultiformatMessageString(names[i][id]))
			if t.taxonURI != nil {
				taxon.WithHelpURI(t.taxonURI(id))
			}
			c.AddTaxa(taxon)
		}
		comps[i] = c
	}
	return index, comps
}

func splitTaxon(e string) (id, name string) {
	id, name, ok := strings.Cut(e, " ")
	if !ok {
		return e, e
	}
	return id, name
}

func compRef(c *sarif.ToolComponent, i int) *sarif.ToolComponentReference {
	return sarif.NewToolComponentReference().WithName(c.Name).WithIndex(i).WithGuid(*c.GUID)
}

// guid is a name-based UUID (version 5 layout): stable across runs, as
// SARIF's guid properties require a GUID and goldens require determinism.
func guid(name string) string {
	h := sha1.Sum([]byte("acg:" + name))
	h[6] = (h[6] & 0x0f) | 0x50
	h[8] = (h[8] & 0x3f) | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", h[0:4], h[4:6], h[6:8], h[8:10], h[10:16])
}

func level(s policy.Severity) string {
	switch s {
	case policy.Critical, policy.High:
		return "error"
	case policy.Medium:
		return "warning"
	}
	return "note"
}

// flowTable is the run's threadFlowLocations: each step that more than
// one thread flow passes through, listed once (SARIF 2.1.0 §3.14.25), the
// thread flows naming it by index (§3.38.2). A handoff chain's findings
// share their sources' and sinks' steps hundreds of times.
type flowTable struct {
	index map[policy.Step]int
	order []policy.Step
}

// supportingPaths are a finding's supporting paths, one thread flow each.
func supportingPaths(f *policy.Finding) [][]policy.Step {
	if len(f.Paths) == 0 && len(f.Steps) > 0 {
		return [][]policy.Step{f.Steps}
	}
	return f.Paths
}

func sharedFlowLocations(fs []*policy.Finding) flowTable {
	count := map[policy.Step]int{}
	for _, f := range fs {
		for _, p := range supportingPaths(f) {
			for _, st := range p {
				count[st]++
			}
		}
	}
	// indices in order of first appearance
	t := flowTable{index: map[policy.Step]int{}}
	for _, f := range fs {
		for _, p := range supportingPaths(f) {
			for _, st := range p {
				if _, ok := t.index[st]; !ok && count[st] > 1 {
					t.index[st] = len(t.order)
					t.order = append(t.order, st)
				}
			}
		}
	}
	return t
}

// flowLocation is one step as a thread flow location.
func flowLocation(s policy.Step) *sarif.ThreadFlowLocation {
	return sarif.NewThreadFlowLocation().WithLocation(
		sarifLoc(s.Loc, s.File, s.Line, s.Column).WithMessage(sarif.NewTextMessage(s.Message)))
}

func sarifResult(f *policy.Finding, ruleIdx int, taxa map[taxonKey]int, comps []*sarif.ToolComponent, tfl flowTable, o Options) *sarif.Result {
	msg := f.Message
	if msg == "" {
		msg = infoFor(f.Rule, "").Short
	}
	if f.Remediation != "" {
		msg = strings.TrimSuffix(msg, ".") + ". Fix: " + f.Remediation
	}
	r := sarif.NewRuleResult(f.Rule).WithRuleIndex(ruleIdx).WithLevel(level(f.Severity)).
		WithMessage(sarif.NewTextMessage(msg)).
		WithLocations([]*sarif.Location{sarifLoc(f.Loc, f.Location.File, f.Location.Line, f.Location.Column)}).
		WithPartialFingerPrints(map[string]interface{}{FingerprintKey: f.ID})
	for i, rel := range f.AllRelated() {
		r.AddRelatedLocation(sarifLoc(rel.Loc, rel.File, rel.Line, rel.Column).WithId(i + 1).
			WithMessage(sarif.NewTextMessage(rel.Message)))
	}
	// One thread flow per supporting path: a finding that stands for many
	// sources or chains shows each of them.
	if paths := supportingPaths(f); len(paths) > 0 {
		var tfs []*sarif.ThreadFlow
		for _, p := range paths {
			tf := sarif.NewThreadFlow()
			for _, s := range p {
				if i, ok := tfl.index[s]; ok {
					tf.AddLocation(sarif.NewThreadFlowLocation().WithIndex(i))
					continue
				}
				tf.AddLocation(flowLocation(s))
			}
			tfs = append(tfs, tf)
		}
		r.AddCodeFlow(sarif.NewCodeFlow().WithTextMessage(flowMessage(f)).WithThreadFlows(tfs))
	}
	for i, t := range taxonomies {
		for _, e := range t.of(f.Taxonomy) {
			id, _ := splitTaxon(e)
			r.AddTaxa(sarif.NewReportingDescriptorReference().WithId(id).WithIndex(taxa[taxonKey{i, id}]).
				WithToolComponentReference(compRef(comps[i], i)))
		}
	}
	if s := f.Suppression; s != nil {
		r.AddSuppression(sarif.NewSuppression(s.Kind).WithStatus("accepted").WithJustifcation(s.Justification).
			WithGuid(guid("suppression:" + f.ID + "@" + s.Location.File)).
			WithLocation(sarifLoc(extract.Loc{}, s.Location.File, s.Location.Line, s.Location.Column)))
	}
	if o.Baseline {
		r.WithBaselineState("new")
	}
	props := sarif.Properties{
		"id": f.ID, "severity": string(f.Severity), "risk_score": f.RiskScore,
		"decided_by": f.DecidedBy, "triage": f.Triage, "triage_reason": f.TriageReason,
	}
	for k, v := range map[string]string{"agent": f.Agent, "agent_id": f.AgentID, "chain_type": f.ChainType, "vulnerability_type": f.VulnerabilityType} {
		if v != "" {
			props[k] = v
		}
	}
	if len(f.Chain) > 0 {
		props["chain"] = f.Chain
	}
	if srcs := f.AllSources(); len(srcs) > 0 {
		props["sources"] = srcs
	}
	if f.TestCode {
		props["test_code"] = true
	}
	r.Properties = props
	return r
}

// sarifInvocation reports the input that was not read in full as tool
// execution notifications: an error for a file that could not be read or
// does not parse, a warning for one skipped on purpose (size, binary).
// The run still succeeded (SARIF §3.20.14: executionSuccessful is false
// only when the tool failed): its results hold for what was read, and the
// notifications say what was not.
func sarifInvocation(ns []Notice) *sarif.Invocation {
	inv := &sarif.Invocation{ExecutionSuccessful: ptr(true), ToolExecutionNotifications: []*sarif.Notification{}}
	for _, n := range ns {
		level := "error"
		if n.Kind == "too-large" || n.Kind == "binary" {
			level = "warning"
		}
		inv.AddTToolExecutionNotification(sarif.NewNotification().WithLevel(level).
			WithMessage(sarif.NewTextMessage(n.Kind + ": " + n.Message)).
			WithDescriptor(sarif.NewReportingDescriptorReference().WithId("acg/" + n.Kind)).
			WithLocations([]*sarif.Location{sarifLoc(extract.Loc{}, n.File, n.Line, n.Column)}))
	}
	return inv
}

func flowMessage(f *policy.Finding) string {
	if len(f.Chain) > 0 {
		return strings.Join(f.Chain, " → ")
	}
	return f.Rule
}

// sarifLoc makes a physical location; the full range when loc has one.
func sarifLoc(loc extract.Loc, file string, line, col int) *sarif.Location {
	reg := sarif.NewRegion().WithStartLine(max(line, 1))
	if col > 0 {
		reg.WithStartColumn(col)
	}
	if loc.Valid() && int(loc.Start.Line) == line && int(loc.End.Line) >= line && (int(loc.End.Line) > line || int(loc.End.Col) > col) {
		reg.WithEndLine(int(loc.End.Line)).WithEndColumn(int(loc.End.Col))
	}
	return sarif.NewLocationWithPhysicalLocation(sarif.NewPhysicalLocation().
		WithArtifactLocation(sarif.NewSimpleArtifactLocation(file).WithUriBaseId(srcRoot)).
		WithRegion(reg))
}
