package provers

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/acg-dev/acg/incremental"
	"github.com/acg-dev/acg/prove"
)

// These tests run the real Semgrep CE engine (the pinned package that
// scripts/pyenv.sh installs, $ACG_VENV_SEMGREP) with acg's bundled rules
// on the fixtures, and read its output through prove/sarif.

func realSemgrep(t testing.TB) Selection {
	t.Helper()
	venv := os.Getenv("ACG_VENV_SEMGREP")
	if venv == "" {
		t.Skip("ACG_VENV_SEMGREP is not set: run scripts/test.sh, or scripts/pyenv.sh semgrep and export ACG_VENV_SEMGREP=$PWD/.venvs/semgrep")
	}
	t.Setenv("XDG_CACHE_HOME", t.TempDir()) // the bundled rules are written there
	r, err := Semgrep(Settings{Semgrep: filepath.Join(venv, "bin", "semgrep")})
	if err != nil {
		t.Fatalf("ACG_VENV_SEMGREP=%s: %v", venv, err)
	}
	return Selection{External: []prove.Prover{r}}
}

func load(t testing.TB, dir string) *incremental.Snapshot {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("../../testdata", dir))
	if err != nil {
		t.Fatal(err)
	}
	snap, _, err := incremental.Load(context.Background(), root, nil)
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

func semgrepFlows(t testing.TB, sel Selection, snap *incremental.Snapshot) []prove.Flow {
	t.Helper()
	fls, errs := sel.Run(context.Background(), snap, nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	for _, fl := range fls {
		if fl.Tool != "semgrep" || len(fl.Steps) < 2 || fl.Source.Loc.Start.Byte < 0 || fl.Sink.Loc.Start.Byte < 0 {
			t.Fatalf("flow not read as a semgrep path with positions: %+v", fl)
		}
	}
	return fls
}

// flowKey names a flow by file, kinds and the lines of its ends: the
// engines place columns differently (a call or its argument), lines alike.
func flowKey(fl *prove.Flow) string {
	return fmt.Sprintf("%s %s>%s %d>%d", fl.Source.Loc.File, fl.SourceKind, fl.SinkKind, fl.Source.Loc.Start.Line, fl.Sink.Loc.Start.Line)
}

func keys(fls []prove.Flow, keep func(*prove.Flow) bool) map[string]bool {
	out := map[string]bool{}
	for i := range fls {
		if keep == nil || keep(&fls[i]) {
			out[flowKey(&fls[i])] = true
		}
	}
	return out
}

// Why the engines disagree on a fixture's flow.
const (
	catalogue   = "the call is in acg's catalogue (effects/rules.yaml: SDK clients such as Slack, Gmail, GitHub, LangChain tools, feedparser, aiohttp) and not in the bundled pattern rules, which name HTTP, mail, sockets, vector stores, files, SQL and commands"
	interproc   = "the flow crosses a function of the file; Semgrep CE's engine follows taint within one function (Opengrep's --taint-intrafile and the builtin engine follow calls in the file)"
	fixedHost   = "a parameter in the path of a GET to a fixed host: the builtin engine reads the host from the f-string and counts no egress (a read sends out only through a URL the caller picks); the rules see a parameter in the URL"
	nodeConfig  = "a graph node's config parameter (RunnableConfig): the builtin engine knows the deployer fills it, not the model; the rules take every parameter as model-chosen"
	multiline   = "a call spread over lines: the builtin engine puts the sink on the call's first line, the rules on the argument's"
	display     = "st.write shows text in the Streamlit page (pure in acg's catalogue); the rules take any .write(...) as a write"
	storePut    = "a LangGraph store's put (BaseStore: a memory write in acg's rules, no egress); the rules take any .put(...) as an HTTP send"
	unexplained = "seen after the issue-11 merges and not explained yet: recorded so that any change shows"
	objState    = "a real flow the bundled rules miss: the result is stored in self.page, which another method of the class returns; the builtin prover follows object state, the rules' taint does not"
	withAs      = "a real flow the bundled rules miss: the client is bound by `with … as client` (async too), which the builtin prover types and the rules' patterns do not follow"
	scratch     = "a write into the tool's own temporary file, deleted before it returns (effects/scratch.go: scratch work, no state); the rules take any .write(...) on an opened file as a write"
	openWrite   = "a download written through `with open(path, \"wb\") as fh`: the builtin engine puts the sink on the open, the rules on fh.write"
	typedRecv   = "a real flow the builtin prover misses: it does not type a parameter's methods (client: httpx.Client; effects does, for the labels), while the rules take .post on any receiver as a send"
	attrParam   = "a real flow the rules miss: self.client is set from a constructor parameter annotated with the A2A Client, so the builtin prover types the call as a2a's send_message, a send whose reply is untrusted; the rules match the send by name only and have no source for the reply"
	treeSend    = "remote.send(...) is the tree's RemoteAgent.send, whose A2A call is in another file (the builtin prover follows one file); the rules take any .send(...) as a send"
	treeExecute = "the loop runs a tool object of the tree through its execute method (builtin: that method's body); the rules take any .execute(...) as SQL"
	untypedRecv = "a real flow the builtin prover cannot type: the receiver's type is not one type (a cache of two client types), so effects fails closed on it while the prover, which needs a known send, reports no flow; the rules take .post on any receiver as a send"
)

// engineDiffs is every flow one engine finds on the fixtures and the other
// does not: fixture flow -> the engine that finds it, and why. A new
// disagreement, or one that went away, fails the test: either a rule or
// the builtin engine changed, and this table says which and why.
var engineDiffs = map[string]struct{ engine, why string }{
	"effects/neg-credential-cache/tools.py param>write 15>22":                  {"builtin", openWrite},
	"effects/neg-google-people/tools.py param>write 28>32":                     {"builtin", catalogue},
	"effects/neg-pandas-eval-urllib3/agent.py untrusted>return 23>24":          {"builtin", catalogue},
	"effects/pos-sdk-read-send/agent.py param>egress 42>44":                    {"builtin", catalogue},
	"effects/pos-sdk-read-send/agent.py param>egress 61>63":                    {"builtin", catalogue},
	"effects/pos-sdk-read-send/agent.py param>egress 67>69":                    {"builtin", catalogue},
	"effects/pos-sdk-read-send/agent.py param>egress 79>81":                    {"builtin", catalogue},
	"effects/pos-sdk-read-send/agent.py param>write 35>37":                     {"builtin", catalogue},
	"effects/pos-sdk-read-send/agent.py param>write 98>100":                    {"builtin", catalogue},
	"effects/pos-sdk-read-send/agent.py untrusted>return 23>24":                {"builtin", catalogue},
	"effects/pos-sdk-read-send/agent.py untrusted>return 24>24":                {"builtin", catalogue},
	"effects/pos-sdk-read-send/agent.py untrusted>return 51>51":                {"builtin", catalogue},
	"effects/pos-sdk-read-send/agent.py untrusted>return 57>57":                {"builtin", catalogue},
	"effects/pos-sdk-read-send/agent.py untrusted>return 88>88":                {"builtin", catalogue},
	"effects/neg-sdk-data-services/agent.py param>write 105>108":               {"builtin", catalogue},
	"effects/neg-sdk-data-services/agent.py param>write 25>28":                 {"builtin", catalogue},
	"effects/neg-sdk-data-services/agent.py param>write 33>36":                 {"builtin", catalogue},
	"effects/neg-sdk-data-services/agent.py param>write 85>92":                 {"builtin", catalogue},
	"effects/neg-sdk-data-services/agent.py param>write 97>100":                {"builtin", catalogue},
	"effects/neg-sdk-data-services/agent.py untrusted>return 131>131":          {"builtin", catalogue},
	"effects/neg-sdk-data-services/agent.py untrusted>return 138>138":          {"builtin", catalogue},
	"effects/pos-sdk-data-services/agent.py param>egress 103>106":              {"builtin", catalogue},
	"effects/pos-sdk-data-services/agent.py param>egress 126>130":              {"builtin", catalogue},
	"effects/pos-sdk-data-services/agent.py param>egress 135>138":              {"builtin", catalogue},
	"effects/pos-sdk-data-services/agent.py param>egress 80>83":                {"builtin", catalogue},
	"effects/pos-sdk-data-services/agent.py param>write 25>28":                 {"builtin", catalogue},
	"effects/pos-sdk-data-services/agent.py param>write 33>36":                 {"builtin", catalogue},
	"effects/pos-sdk-data-services/agent.py param>write 88>91":                 {"builtin", catalogue},
	"effects/pos-sdk-data-services/agent.py untrusted>return 114>114":          {"builtin", catalogue},
	"effects/pos-sdk-data-services/agent.py untrusted>return 122>122":          {"builtin", catalogue},
	"effects/pos-sdk-data-services/agent.py untrusted>return 44>45":            {"builtin", catalogue},
	"effects/pos-sdk-data-services/agent.py untrusted>return 60>61":            {"builtin", catalogue},
	"effects/pos-sdk-data-services/agent.py untrusted>return 76>76":            {"builtin", catalogue},
	"langgraph/pos-module-alias/app/tools/mail.py untrusted>return 8>15":       {"builtin", interproc},
	"openai-agents/pos-agents-as-tools/orchestrator.py param>egress 9>12":      {"builtin", catalogue},
	"openai-agents/pos-agents-as-tools/orchestrator.py untrusted>return 12>13": {"builtin", catalogue},
	"ops-desk/web.py param>egress 23>25":                                       {"builtin", catalogue},
	"ops-desk/web.py untrusted>return 25>26":                                   {"builtin", catalogue},
	"ops-desk/web.py untrusted>return 56>57":                                   {"builtin", catalogue},
	"unrelated-names/mailbox.py untrusted>egress 9>14":                         {"builtin", interproc},
	"effects/pos-typed-params/agent.py param>egress 23>24":                     {"semgrep", typedRecv},
	"effects/pos-cache-mixed-values/agent.py param>egress 8>10":                {"semgrep", untypedRecv},
	"effects/pos-search-private-egress/agent.py param>egress 27>29":            {"builtin", catalogue},
	"effects/pos-search-private-egress/agent.py untrusted>return 29>29":        {"builtin", catalogue},
	"langgraph/neg-fixed-step-input-field/graph.py param>egress 52>45":         {"builtin", interproc},
	"langgraph/neg-set-dominance-multiline-router/graph.py param>egress 81>85": {"builtin", interproc},
	"langgraph/neg-set-dominance-multiline-router/graph.py param>egress 88>85": {"builtin", interproc},
	"langgraph/neg-set-dominance-multiline-router/graph.py param>egress 92>85": {"builtin", interproc},
	"langgraph/pos-fixed-step-model-field/graph.py param>egress 47>49":         {"builtin", multiline},
	"langgraph/pos-fixed-step-model-field/graph.py param>egress 47>50":         {"semgrep", multiline},
	"langgraph/neg-method-nodes/src/nodes.py untrusted>return 14>15":           {"builtin", unexplained},
	"effects/neg-config-alternatives/graph.py param>egress 50>53":              {"semgrep", nodeConfig},
	"effects/neg-market-data/agent.py param>egress 14>16":                      {"builtin", catalogue},
	"effects/neg-market-data/agent.py param>egress 21>23":                      {"builtin", catalogue},
	"effects/neg-market-data/agent.py param>egress 7>9":                        {"builtin", catalogue},
	"effects/neg-market-data/agent.py untrusted>return 16>17":                  {"builtin", catalogue},
	"effects/neg-market-data/agent.py untrusted>return 23>24":                  {"builtin", catalogue},
	"effects/neg-market-data/agent.py untrusted>return 9>10":                   {"builtin", catalogue},
	"effects/neg-types-followed/agent.py param>egress 37>39":                   {"semgrep", storePut},
	"effects/neg-types-followed/agent.py param>egress 71>72":                   {"semgrep", storePut},
	"effects/neg-search-sdk/agent.py param>write 34>39":                        {"semgrep", display},
	"openai-agents/pos-lists-mutated/support.py param>egress 6>8":              {"semgrep", fixedHost},
	"ops-desk/web.py param>egress 30>32":                                       {"semgrep", fixedHost},
	"ops-desk/web.py param>egress 48>50":                                       {"semgrep", fixedHost},
	"effects/neg-conditional-tool/agent.py untrusted>return 32>33":             {"builtin", catalogue},
	"effects/neg-search-sdk-readers/agent.py param>egress 14>16":               {"builtin", catalogue},
	"effects/neg-search-sdk-readers/agent.py param>egress 20>22":               {"builtin", catalogue},
	"effects/neg-search-sdk-readers/agent.py param>egress 26>29":               {"builtin", catalogue},
	"effects/neg-search-sdk-readers/agent.py untrusted>return 16>16":           {"builtin", catalogue},
	"effects/neg-search-sdk-readers/agent.py untrusted>return 22>22":           {"builtin", catalogue},
	"effects/neg-search-sdk-readers/agent.py untrusted>return 29>29":           {"builtin", catalogue},
	"effects/neg-document-loaders/agent.py untrusted>return 28>28":             {"builtin", catalogue},
	"effects/neg-env-settings/agent.py param>egress 41>45":                     {"builtin", withAs},
	"effects/pos-env-outward/agent.py param>egress 30>26":                      {"builtin", interproc},
	"effects/pos-env-outward/agent.py param>egress 36>39":                      {"builtin", withAs},
	"effects/pos-env-outward/agent.py param>egress 49>51":                      {"builtin", multiline},
	"effects/pos-env-outward/agent.py param>egress 49>53":                      {"semgrep", multiline},
	"effects/pos-google-delete/agent.py param>write 9>12":                      {"builtin", catalogue},
	"effects/pos-google-delete/agent.py param>write 16>19":                     {"builtin", catalogue},
	"effects/pos-google-delete/agent.py param>write 23>25":                     {"builtin", catalogue},
	"effects/pos-state-returned/browser.py untrusted>return 13>13":             {"builtin", objState},
	"pydantic-ai/neg-agent-delegation/agent.py untrusted>return 19>20":         {"builtin", withAs},
	"effects/pos-ctor-typed-attr/pager.py untrusted>return 12>12":              {"builtin", objState},
	"effects/pos-batch-delete/agent.py param>write 9>19":                       {"builtin", catalogue},
	"effects/pos-state-through-setter/browser.py param>egress 13>17":           {"builtin", interproc},
	"sdk-loops/neg-openai-weather/agent.py untrusted>prompt 19>27":             {"builtin", interproc},
	"sdk-loops/neg-openai-weather/agent.py untrusted>return 19>30":             {"builtin", interproc},
	"effects/pos-state-through-setter/browser.py untrusted>return 17>18":       {"builtin", objState},
	"effects/pos-batch-delete/agent.py param>write 23>26":                      {"builtin", catalogue},
	"effects/neg-scratch-tempfile/agent.py param>write 15>21":                  {"semgrep", scratch},
	"effects/neg-scratch-tempfile/agent.py param>write 31>35":                  {"builtin", openWrite},
	"effects/neg-scratch-tempfile/agent.py param>write 31>36":                  {"semgrep", openWrite},
	"effects/neg-scratch-tempfile/agent.py untrusted>return 17>25":             {"builtin", unexplained},
	"google-adk/neg-a2a-router/agent.py param>egress 19>27":                    {"semgrep", treeSend},
	"google-adk/neg-a2a-router/remote.py untrusted>return 12>13":               {"builtin", attrParam},
	"sdk-loops/neg-tool-objects/agent.py param>write 14>27":                    {"semgrep", treeExecute},
	"sdk-loops/pos-tool-objects/agent.py param>write 14>27":                    {"semgrep", treeExecute},
}

// TestSemgrepFixtures runs the bundled rules on every Python fixture in
// testdata/ (one Semgrep run over the whole tree) and compares the flows
// with the builtin engine's: every difference is in engineDiffs.
func TestSemgrepFixtures(t *testing.T) {
	sel := realSemgrep(t)
	snap := load(t, ".")
	sg := keys(semgrepFlows(t, sel, snap), nil)
	// The bundled rules are Python's: the builtin engine's flows in
	// TypeScript and JavaScript fixtures have nothing to be compared with.
	bi := keys(snap.Analyze().Flows, func(fl *prove.Flow) bool { return strings.HasSuffix(fl.Source.Loc.File, ".py") })
	if len(sg) < 100 {
		t.Fatalf("semgrep found %d flows on the fixtures: the rules did not run", len(sg))
	}
	var bad []string
	for k := range bi {
		d, listed := engineDiffs[k]
		switch {
		case !sg[k] && (!listed || d.engine != "builtin"):
			bad = append(bad, "only builtin finds "+k)
		case sg[k] && listed:
			bad = append(bad, "both engines now find "+k+" (engineDiffs says only "+d.engine+")")
		}
	}
	for k := range sg {
		d, listed := engineDiffs[k]
		switch {
		case !bi[k] && (!listed || d.engine != "semgrep"):
			bad = append(bad, "only semgrep finds "+k)
		case bi[k] && listed && d.engine == "semgrep":
			bad = append(bad, "both engines now find "+k)
		}
	}
	for k, d := range engineDiffs {
		if !bi[k] && !sg[k] {
			bad = append(bad, "neither engine finds "+k+" (engineDiffs says "+d.engine+")")
		}
	}
	sort.Strings(bad)
	if len(bad) > 0 {
		t.Errorf("builtin %d flows, semgrep %d; disagreements not in engineDiffs:\n%s", len(bi), len(sg), strings.Join(bad, "\n"))
	}
}

func isAction(fl *prove.Flow) bool { return prove.IsAction(fl.SinkKind) }

func toxic(res *incremental.Result) []string {
	var out []string
	for _, f := range res.Findings {
		if f.Rule == "toxic-flow" {
			out = append(out, f.ID+" "+f.Message)
		}
	}
	sort.Strings(out)
	return out
}

// TestSemgrepInboxAndTraps: on the inbox demo Semgrep finds exactly the
// builtin engine's flows, and with only its flows acg reports the same
// toxic-flow findings. On the traps it stays quiet: names that merely
// co-occur (unrelated-names), sinks written in comments, a docstring and a
// string (neg-comment-sinks), and an approval gate before the sink
// (inbox-fixed: interrupt() dominates requests.post).
func TestSemgrepInboxAndTraps(t *testing.T) {
	sel := realSemgrep(t)
	snap := load(t, "inbox")
	fls := semgrepFlows(t, sel, snap)
	sg, bi := keys(fls, nil), keys(snap.Analyze().Flows, nil)
	if fmt.Sprint(sg) != fmt.Sprint(bi) || len(sg) == 0 {
		t.Errorf("inbox flows:\nsemgrep %v\nbuiltin %v", sg, bi)
	}
	got, want := toxic(snap.AnalyzeWith(fls, false)), toxic(snap.Analyze())
	if len(want) == 0 || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("inbox toxic-flow findings:\nsemgrep only %v\nbuiltin      %v", got, want)
	}
	untrusted := func(fl *prove.Flow) bool { return fl.SourceKind == prove.SourceUntrusted }
	for _, trap := range []struct {
		dir, file string
		none      func(*prove.Flow) bool // no such flow in file
	}{
		{"unrelated-names", "tools.py", untrusted},            // the agent's own tools read nothing untrusted
		{"langgraph/neg-comment-sinks", "agent.py", isAction}, // every "sink" is in a comment or a string
		{"inbox-fixed", "tools.py", isAction},                 // interrupt() before requests.post
	} {
		snap := load(t, trap.dir)
		fls := semgrepFlows(t, sel, snap)
		for k := range keys(fls, trap.none) {
			if strings.HasPrefix(k, trap.file+" ") {
				t.Errorf("%s: semgrep finds %s", trap.dir, k)
			}
		}
		if got := toxic(snap.AnalyzeWith(fls, false)); len(got) > 0 {
			t.Errorf("%s: toxic-flow with semgrep's flows: %v", trap.dir, got)
		}
	}
}
