package sarif

import (
	"sort"

	gosarif "github.com/owenrumney/go-sarif/v2/sarif"

	"github.com/acg-dev/acg/prove"
)

// builtinDriver is the driver name of acg's own prover runs.
const builtinDriver = "acg"

// Write puts flows into a SARIF 2.1.0 log, one result per flow in the shape
// CodeQL and Opengrep use: the sink is the primary location, the source the
// related location the message links to, and the steps one threadFlow.
// Each rule carries acg-source:/acg-sink: tags so Read recovers the kinds.
func Write(flows []prove.Flow, version string) *gosarif.Report {
	rep, _ := gosarif.New(gosarif.Version210) // only fails for unknown versions
	driver := &gosarif.ToolComponent{Name: builtinDriver, Rules: []*gosarif.ReportingDescriptor{}}
	driver.InformationURI = strp("https://github.com/acg-dev/acg")
	if version != "" {
		driver.SemanticVersion = strp(version)
	}
	run := &gosarif.Run{Tool: gosarif.Tool{Driver: driver}, Results: []*gosarif.Result{}, ColumnKind: "utf16CodeUnits"}
	rules := map[string]*gosarif.ReportingDescriptor{}
	for _, fl := range flows {
		if _, ok := rules[fl.RuleID]; !ok {
			r := &gosarif.ReportingDescriptor{ID: fl.RuleID, Name: strp(fl.RuleID),
				ShortDescription: &gosarif.MultiformatMessageString{Text: strp(describe(fl))}}
			r.Properties = gosarif.Properties{"kind": "path-problem",
				"tags": []any{"acg-source:" + fl.SourceKind, "acg-sink:" + fl.SinkKind}}
			rules[fl.RuleID] = r
		}
		run.Results = append(run.Results, result(fl))
	}
	ids := make([]string, 0, len(rules))
	for id := range rules {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		driver.Rules = append(driver.Rules, rules[id])
	}
	rep.AddRun(run)
	return rep
}

func describe(fl prove.Flow) string {
	return fl.SourceKind + " data reaches a " + fl.SinkKind + " sink"
}

func result(fl prove.Flow) *gosarif.Result {
	msg := fl.Message
	if msg == "" {
		msg = "[" + fl.SourceKind + " data](1) reaches a " + fl.SinkKind + " sink"
	}
	res := &gosarif.Result{RuleID: strp(fl.RuleID), Message: gosarif.Message{Text: strp(msg)},
		Locations:        []*gosarif.Location{location(fl.Sink)},
		RelatedLocations: []*gosarif.Location{location(fl.Source).WithId(1)}}
	tf := &gosarif.ThreadFlow{}
	for _, s := range fl.Steps {
		tl := &gosarif.ThreadFlowLocation{Location: location(s)}
		n := s.Nesting
		tl.NestingLevel = &n
		tf.Locations = append(tf.Locations, tl)
	}
	res.CodeFlows = []*gosarif.CodeFlow{{ThreadFlows: []*gosarif.ThreadFlow{tf}}}
	return res
}

func location(s prove.Step) *gosarif.Location {
	r := &gosarif.Region{StartLine: intp(int(s.Loc.Start.Line)), StartColumn: intp(int(s.Loc.Start.Col))}
	if s.Loc.End.Line > 0 {
		r.EndLine, r.EndColumn = intp(int(s.Loc.End.Line)), intp(int(s.Loc.End.Col))
	}
	l := &gosarif.Location{PhysicalLocation: &gosarif.PhysicalLocation{
		ArtifactLocation: &gosarif.ArtifactLocation{URI: strp(s.Loc.File), URIBaseId: strp("%SRCROOT%")},
		Region:           r}}
	if s.Message != "" {
		l.Message = &gosarif.Message{Text: strp(s.Message)}
	}
	return l
}

func strp(s string) *string { return &s }
func intp(i int) *int       { return &i }
