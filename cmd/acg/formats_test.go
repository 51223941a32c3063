package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/acg-dev/acg/config"
	"github.com/acg-dev/acg/effects"
	"github.com/acg-dev/acg/policy"
	"github.com/acg-dev/acg/report"
)

// run runs acg scan in process and returns stdout, stderr and the exit code.
func run(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := scan(asProject(args), &out, &errb)
	return out.String(), errb.String(), code
}

// asProject scans a fixture under testdata as a project of its own, as if
// it were a checkout: without --root the repository's root would be the
// root, and every path and id of the goldens would change.
func asProject(args []string) []string {
	for _, a := range args {
		if a == "--root" || a == "-root" || a == "--" {
			return args
		}
	}
	for _, a := range args {
		if !strings.HasPrefix(a, "../../testdata/") {
			continue
		}
		dir := a
		if info, err := os.Stat(a); err == nil && !info.IsDir() {
			dir = filepath.Dir(a)
		}
		return append([]string{"--root", dir}, args...)
	}
	return args
}

func fixedClock(t *testing.T) {
	t.Helper()
	old := now
	now = func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }
	t.Cleanup(func() { now = old })
}

const schemaURL = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

func sarifSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open("../../report/testdata/sarif/sarif-schema-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(schemaURL, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(schemaURL)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// sarifLog is the part of a SARIF log that GitHub code scanning reads.
type sarifLog struct {
	Runs []struct {
		Tool struct {
			Driver struct {
				Name  string `json:"name"`
				Rules []struct {
					ID               string `json:"id"`
					ShortDescription *struct {
						Text string `json:"text"`
					} `json:"shortDescription"`
					Help *struct {
						Text     string `json:"text"`
						Markdown string `json:"markdown"`
					} `json:"help"`
					HelpURI    string         `json:"helpUri"`
					Properties map[string]any `json:"properties"`
				} `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		Taxonomies []struct {
			Name string `json:"name"`
			Taxa []struct {
				ID string `json:"id"`
			} `json:"taxa"`
		} `json:"taxonomies"`
		Results []struct {
			RuleID    string `json:"ruleId"`
			RuleIndex int    `json:"ruleIndex"`
			Message   struct {
				Text string `json:"text"`
			} `json:"message"`
			Locations []struct {
				PhysicalLocation struct {
					ArtifactLocation struct {
						URI string `json:"uri"`
					} `json:"artifactLocation"`
					Region struct {
						StartLine int `json:"startLine"`
					} `json:"region"`
				} `json:"physicalLocation"`
			} `json:"locations"`
			PartialFingerprints map[string]string `json:"partialFingerprints"`
			RelatedLocations    []struct {
				ID int `json:"id"`
			} `json:"relatedLocations"`
			CodeFlows []struct {
				ThreadFlows []struct {
					Locations []any `json:"locations"`
				} `json:"threadFlows"`
			} `json:"codeFlows"`
			Taxa []struct {
				ID            string `json:"id"`
				Index         int    `json:"index"`
				ToolComponent struct {
					Name  string `json:"name"`
					Index int    `json:"index"`
				} `json:"toolComponent"`
			} `json:"taxa"`
			Suppressions []struct {
				Kind          string `json:"kind"`
				Status        string `json:"status"`
				Justification string `json:"justification"`
			} `json:"suppressions"`
		} `json:"results"`
	} `json:"runs"`
}

var findingID = regexp.MustCompile(`^ACG-[0-9A-F]{12}$`)

// checkGitHub checks what GitHub code scanning needs beyond the schema.
func checkGitHub(t *testing.T, raw []byte) sarifLog {
	t.Helper()
	var log sarifLog
	if err := json.Unmarshal(raw, &log); err != nil {
		t.Fatal(err)
	}
	if len(log.Runs) != 1 {
		t.Fatalf("%d runs", len(log.Runs))
	}
	run := log.Runs[0]
	if run.Tool.Driver.Name != "acg" {
		t.Errorf("tool.driver.name = %q", run.Tool.Driver.Name)
	}
	rules := map[string]int{}
	for i, r := range run.Tool.Driver.Rules {
		rules[r.ID] = i
		if r.ShortDescription == nil || r.ShortDescription.Text == "" {
			t.Errorf("rule %s: no shortDescription", r.ID)
		}
		if r.Help == nil || r.Help.Text == "" || r.Help.Markdown == "" {
			t.Errorf("rule %s: no help", r.ID)
		}
		if !strings.HasPrefix(r.HelpURI, "https://") {
			t.Errorf("rule %s: helpUri %q", r.ID, r.HelpURI)
		}
		ss, _ := r.Properties["security-severity"].(string)
		if v, err := strconv.ParseFloat(ss, 64); err != nil || v <= 0 || v > 10 {
			t.Errorf("rule %s: security-severity %q", r.ID, ss)
		}
	}
	for _, want := range append([]string{policy.RuleInvalidSuppression}, checkNames()...) {
		if _, ok := rules[want]; !ok {
			t.Errorf("no rule for check %s", want)
		}
	}
	for i, r := range run.Results {
		if idx, ok := rules[r.RuleID]; !ok || idx != r.RuleIndex {
			t.Errorf("result %d: ruleId %q / ruleIndex %d do not match the rules", i, r.RuleID, r.RuleIndex)
		}
		if r.Message.Text == "" {
			t.Errorf("result %d: no message", i)
		}
		if len(r.Locations) == 0 {
			t.Fatalf("result %d: no location", i)
		}
		pl := r.Locations[0].PhysicalLocation
		if u := pl.ArtifactLocation.URI; u == "" || strings.HasPrefix(u, "/") || strings.Contains(u, ":") || strings.Contains(u, `\`) {
			t.Errorf("result %d: uri %q is not a relative path", i, u)
		}
		if pl.Region.StartLine < 1 {
			t.Errorf("result %d: startLine %d", i, pl.Region.StartLine)
		}
		if !findingID.MatchString(r.PartialFingerprints[report.FingerprintKey]) {
			t.Errorf("result %d: partialFingerprints %v", i, r.PartialFingerprints)
		}
		for j, rl := range r.RelatedLocations {
			if rl.ID != j+1 {
				t.Errorf("result %d: related location %d has id %d", i, j, rl.ID)
			}
		}
		for _, cf := range r.CodeFlows {
			for _, tf := range cf.ThreadFlows {
				if len(tf.Locations) == 0 {
					t.Errorf("result %d: empty thread flow", i)
				}
			}
		}
		for _, tx := range r.Taxa {
			tc := run.Taxonomies[tx.ToolComponent.Index]
			if tc.Name != tx.ToolComponent.Name || tc.Taxa[tx.Index].ID != tx.ID {
				t.Errorf("result %d: taxon %+v does not resolve", i, tx)
			}
		}
	}
	return log
}

func checkNames() []string {
	var out []string
	for _, c := range policy.Checks() {
		out = append(out, c.Name)
	}
	return out
}

func validateSARIF(t *testing.T, s *jsonschema.Schema, raw []byte) {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Validate(inst); err != nil {
		t.Fatalf("SARIF does not validate against the 2.1.0 schema:\n%v", err)
	}
}

// TestSARIFValidates is the issue's done-criterion: `acg scan testdata
// --format sarif` validates against the official schema, and carries what
// GitHub code scanning reads; so does a run with suppressed findings.
func TestSARIFValidates(t *testing.T) {
	s := sarifSchema(t)
	for _, dir := range []string{"../../testdata", "../../testdata/suppressed", "../../testdata/suppression-invalid"} {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			out, errs, code := run(t, dir, "--format", "sarif", "--fail-on", "none")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			validateSARIF(t, s, []byte(out))
			log := checkGitHub(t, []byte(out))
			js, _, _ := run(t, dir, "--format", "json", "--fail-on", "none")
			var doc report.Document
			if err := json.Unmarshal([]byte(js), &doc); err != nil {
				t.Fatal(err)
			}
			if got, want := len(log.Runs[0].Results), len(doc.Findings)+len(doc.Suppressed); got != want || want == 0 {
				t.Errorf("%d results for %d findings", got, want)
			}
			suppressed := 0
			for _, r := range log.Runs[0].Results {
				for _, sp := range r.Suppressions {
					suppressed++
					if sp.Status != "accepted" || sp.Justification == "" || (sp.Kind != "inSource" && sp.Kind != "external") {
						t.Errorf("suppression %+v", sp)
					}
				}
			}
			if suppressed != len(doc.Suppressed) {
				t.Errorf("%d suppressions in SARIF, %d suppressed findings", suppressed, len(doc.Suppressed))
			}
		})
	}
	t.Run("the validator rejects a broken log", func(t *testing.T) {
		out, _, _ := run(t, "../../testdata/inbox", "--format", "sarif", "--fail-on", "none")
		broken := strings.Replace(out, `"startLine": 9`, `"startLine": 0`, 1)
		inst, _ := jsonschema.UnmarshalJSON(strings.NewReader(broken))
		if broken == out || s.Validate(inst) == nil {
			t.Fatal("a region with startLine 0 passed the schema")
		}
	})
}

// TestFormatGoldens pins every batch format of the inbox demo.
func TestFormatGoldens(t *testing.T) {
	fixedClock(t)
	dir := t.TempDir()
	side := map[string]string{"graph.json": "--graph", "svg": "--svg", "cedar": "--cedar"}
	args := []string{"../../testdata/inbox", "--fail-on", "none"}
	for ext, flag := range side {
		args = append(args, flag, filepath.Join(dir, "inbox."+ext))
	}
	got := map[string][]byte{}
	for _, f := range []string{"sarif", "jsonl", "text"} {
		out, errs, code := run(t, append(args, "--format", f)...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", f, code, errs)
		}
		got[f] = []byte(out)
	}
	// %SRCROOT% is where the checkout is: the golden names it ROOT.
	abs, err := filepath.Abs("../../testdata/inbox")
	if err != nil {
		t.Fatal(err)
	}
	got["sarif"] = bytes.ReplaceAll(got["sarif"], []byte(`"file://`+filepath.ToSlash(abs)+`/"`), []byte(`"file:///ROOT/"`))
	for ext := range side {
		b, err := os.ReadFile(filepath.Join(dir, "inbox."+ext))
		if err != nil {
			t.Fatal(err)
		}
		if ext == "svg" {
			parseSVG(t, filepath.Join(dir, "inbox."+ext))
		}
		got[ext] = b
	}
	for ext, b := range got {
		g := filepath.Join("../../testdata/golden/formats", "inbox."+ext)
		if *update {
			if err := os.MkdirAll(filepath.Dir(g), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(g, b, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(g)
		if err != nil {
			t.Fatalf("no golden (run go test ./cmd/acg -run FormatGoldens -update): %v", err)
		}
		if !bytes.Equal(b, want) {
			t.Errorf("%s differs from its golden (rerun with -update and review):\n%s", ext, diffLines(string(want), string(b)))
		}
	}
}

func TestChainEvents(t *testing.T) {
	fixedClock(t)
	for _, tt := range []struct {
		dir  string
		want []string // action_taken of each line, in order
	}{
		{"inbox", []string{"reported", "reported", "reported", "reported"}},
		{"inbox-fixed", []string{"blocked-by-approval"}},
		{"suppressed", []string{"suppressed", "suppressed", "suppressed", "suppressed"}},
	} {
		out, errs, code := run(t, "../../testdata/"+tt.dir, "--format", "jsonl", "--fail-on", "none")
		if code != 0 {
			t.Fatalf("%s: exit %d %s", tt.dir, code, errs)
		}
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if len(lines) != len(tt.want) {
			t.Fatalf("%s: %d lines, want %d:\n%s", tt.dir, len(lines), len(tt.want), out)
		}
		for i, l := range lines {
			js, ok := strings.CutPrefix(l, "[CHAIN_DETECTED] ")
			if !ok {
				t.Fatalf("%s: line %q lacks the tag", tt.dir, l)
			}
			var e map[string]any
			if err := json.Unmarshal([]byte(js), &e); err != nil {
				t.Fatalf("%s: %v", tt.dir, err)
			}
			for _, k := range []string{"ts", "tools_sequence", "emergent_capability", "in_scope", "action_taken"} {
				if _, ok := e[k]; !ok {
					t.Errorf("%s: no %s in %s", tt.dir, k, js)
				}
			}
			if e["ts"] != "2026-01-02T03:04:05Z" || e["action_taken"] != tt.want[i] || e["in_scope"] != (tt.want[i] != "reported") {
				t.Errorf("%s line %d: %s", tt.dir, i, js)
			}
		}
	}
}

// TestBaseline: a baseline run after adding one vulnerable agent reports
// exactly that one, from a JSON or a SARIF baseline.
func TestBaseline(t *testing.T) {
	orig, dir := t.TempDir(), t.TempDir()
	copyDir(t, "../../testdata/inbox", orig)
	copyDir(t, "../../testdata/inbox", dir)
	baselines := map[string]string{}
	for _, f := range []string{"json", "sarif"} {
		out, _, code := run(t, orig, "--format", f)
		if code != exitFindings {
			t.Fatalf("the inbox demo should fail the scan, exit %d", code)
		}
		baselines[f] = filepath.Join(orig, "..", "baseline."+f)
		mustWrite(t, baselines[f], out)
	}
	// Unchanged tree: nothing new, so exit 0 although findings exist.
	out, errs, code := run(t, dir, "--format", "json", "--baseline", baselines["json"])
	if code != exitOK || countFindings(t, out) != 0 {
		t.Fatalf("unchanged tree: exit %d, %d findings: %s", code, countFindings(t, out), errs)
	}
	// A new agent in a new file, and an unrelated edit above the old one
	// (ids do not depend on lines).
	src, _ := os.ReadFile(filepath.Join(dir, "agent.py"))
	mustWrite(t, filepath.Join(dir, "agent.py"), "# a comment that moves every line down\n\n"+string(src))
	mustWrite(t, filepath.Join(dir, "archiver.py"), `"""A second agent: reads mail and notes, writes an archive file."""
from langchain_openai import ChatOpenAI
from langchain_core.tools import tool
from langgraph.prebuilt import create_react_agent

from .tools import read_email, read_notes


@tool
def append_archive(text: str) -> str:
    """Append a text to the local archive."""
    with open("/srv/archive.txt", "a") as f:
        f.write(text)
    return "ok"


archiver = create_react_agent(ChatOpenAI(model="gpt-4o-mini"), tools=[read_email, read_notes, append_archive])
`)
	for format, base := range baselines {
		out, errs, code := run(t, dir, "--format", "json", "--baseline", base)
		var doc report.Document
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("%v: %s", err, errs)
		}
		// The new agent's findings only: rule-of-two, the toxic-flow from
		// the mail to its archive write, and the read_notes ->
		// append_archive dangerous-chain.
		rules := map[string]bool{}
		for _, f := range doc.Findings {
			if f.Agent != "archiver" {
				t.Fatalf("%s baseline: a finding of %s is not new: %+v", format, f.Agent, f)
			}
			rules[f.Rule] = true
		}
		if len(doc.Findings) != 3 || !rules["rule-of-two"] || !rules["toxic-flow"] || !rules["dangerous-chain"] {
			t.Fatalf("%s baseline: want exactly the new agent's findings, got %+v", format, doc.Findings)
		}
		if code != exitFindings {
			t.Errorf("%s baseline: exit %d, want %d for a new critical finding", format, code, exitFindings)
		}
	}
	// Bad baselines are usage errors, not empty baselines.
	bad := filepath.Join(orig, "..", "bad.json")
	mustWrite(t, bad, `{"agents": []}`)
	if _, errs, code := run(t, dir, "--baseline", bad); code != exitUsage || !strings.Contains(errs, "neither acg JSON output") {
		t.Errorf("bad baseline: exit %d %s", code, errs)
	}
	if _, _, code := run(t, dir, "--baseline", filepath.Join(dir, "missing.json")); code != exitUsage {
		t.Errorf("missing baseline: exit %d", code)
	}
}

func countFindings(t *testing.T, js string) int {
	t.Helper()
	var doc report.Document
	if err := json.Unmarshal([]byte(js), &doc); err != nil {
		t.Fatal(err)
	}
	return len(doc.Findings)
}

func copyDir(t *testing.T, from, to string) {
	t.Helper()
	entries, err := os.ReadDir(from)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(from, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		mustWrite(t, filepath.Join(to, e.Name()), string(b))
	}
}

func mustWrite(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestConfig drives .acg.yaml through the CLI: errors name the line and
// stop the scan; --config replaces the root's file; a scan of single
// files still reads the root's config.
func TestConfig(t *testing.T) {
	dir := t.TempDir()
	copyDir(t, "../../testdata/inbox", dir)
	mustWrite(t, filepath.Join(dir, ".acg.yaml"), "version: 1\ntools:\n  - tool: send_http\n    effects: [network_egres]\n    reason: fixed endpoint\nseverity: high\n")
	_, errs, code := run(t, dir)
	if code != exitUsage || !strings.Contains(errs, `.acg.yaml:4:15: effect is not one of`) ||
		!strings.Contains(errs, `.acg.yaml:6:1: unknown key "severity"`) {
		t.Fatalf("bad config: exit %d\n%s", code, errs)
	}
	mustWrite(t, filepath.Join(dir, ".acg.yaml"), "disabled_rules: [rule-of-too]\n")
	if _, errs, code := run(t, dir); code != exitUsage || !strings.Contains(errs, `.acg.yaml:1:18: unknown rule (known:`) {
		t.Fatalf("unknown rule: exit %d\n%s", code, errs)
	}
	// A valid config given with --config wins over the broken root one.
	alt := filepath.Join(t.TempDir(), "ci.yaml")
	mustWrite(t, alt, "severity_threshold: critical\n")
	out, errs, code := run(t, dir, "--format", "json", "--config", alt)
	var doc report.Document
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v %s", err, errs)
	}
	// Only the inbox's critical findings stay (rule-of-two, toxic-flow and
	// the read_notes -> send_http dangerous-chain); missing-approval is high.
	if code != exitFindings || len(doc.Findings) < 2 {
		t.Fatalf("threshold critical: exit %d, %+v", code, doc.Findings)
	}
	for _, f := range doc.Findings {
		if f.Severity != policy.Critical {
			t.Fatalf("threshold critical kept %s %s", f.Rule, f.Severity)
		}
	}
	// Overrides: decided_by config, with the reason and line as evidence.
	mustWrite(t, filepath.Join(dir, ".acg.yaml"), "tools:\n  - tool: tools.py#send_http\n    effects: []\n    reason: dry-run build, posts nowhere\n")
	out, errs, code = run(t, filepath.Join(dir, "agent.py"), filepath.Join(dir, "tools.py"), "--root", dir, "--format", "json")
	if code != exitOK {
		t.Fatalf("override: exit %d %s %s", code, errs, out)
	}
	doc = report.Document{}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	for _, tl := range doc.Tools {
		if tl.ID != "tools.py#send_http" {
			continue
		}
		for l, by := range tl.DecidedBy {
			if by != "config" || tl.Effects[l] {
				t.Errorf("send_http %s: %v by %s", l, tl.Effects[l], by)
			}
		}
	}
	if len(doc.Findings) != 0 {
		t.Errorf("findings remain: %+v", doc.Findings)
	}
	text, _, _ := run(t, dir, "--fail-on", "none")
	if !strings.Contains(text, "acg: no findings (1 agent") {
		t.Errorf("text: %s", text)
	}
}

// TestContractVocabulary: config validates labels and severities by name;
// they must stay the ones effects and policy use.
func TestContractVocabulary(t *testing.T) {
	if len(config.Labels) != len(effects.Labels) {
		t.Fatal(config.Labels, effects.Labels)
	}
	for i, l := range effects.Labels {
		if config.Labels[i] != string(l) {
			t.Errorf("label %d: config %s, effects %s", i, config.Labels[i], l)
		}
	}
	for _, s := range config.Severities {
		if _, ok := policy.ParseSeverity(s); !ok {
			t.Errorf("severity %s unknown to policy", s)
		}
	}
}

func TestFlagsAfterPaths(t *testing.T) {
	if _, errs, code := run(t, "../../testdata/inbox", "--format", "nope"); code != exitUsage || !strings.Contains(errs, `--format "nope"`) {
		t.Errorf("exit %d %s", code, errs)
	}
	if _, errs, code := run(t, "--", "--format"); code != exitUsage || !strings.Contains(errs, "--format") {
		t.Errorf("a path after -- is a path: exit %d %s", code, errs)
	}
}
