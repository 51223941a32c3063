package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/acg-dev/acg/internal/gentree"
	"github.com/acg-dev/acg/report"
)

// TestGeneratedSARIFFlowsUnchanged: the SARIF log names the thread flow
// locations several flows share by index into the run's
// threadFlowLocations. Resolved, every result's code flows must be the
// thread flows the log spelled out in full before (the golden was made by
// that code), step for step and in order; every index must resolve.
func TestGeneratedSARIFFlowsUnchanged(t *testing.T) {
	dir := t.TempDir()
	if _, err := gentree.HandoffChain(dir, 200, 40); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := scan([]string{"--format", "sarif", "--fail-on", "none", "--engine", "builtin", "--root", dir, dir}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	type tfl struct {
		Index    *int            `json:"index"`
		Location json.RawMessage `json:"location"`
	}
	var log struct {
		Runs []struct {
			ThreadFlowLocations []tfl `json:"threadFlowLocations"`
			Results             []struct {
				RuleID              string         `json:"ruleId"`
				PartialFingerprints map[string]any `json:"partialFingerprints"`
				CodeFlows           []struct {
					ThreadFlows []struct {
						Locations []tfl `json:"locations"`
					} `json:"threadFlows"`
				} `json:"codeFlows"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(out.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, run := range log.Runs {
		for _, r := range run.Results {
			var flows []string
			for _, cf := range r.CodeFlows {
				for _, tf := range cf.ThreadFlows {
					var steps []string
					for _, l := range tf.Locations {
						loc := l.Location
						if l.Index != nil {
							if *l.Index < 0 || *l.Index >= len(run.ThreadFlowLocations) {
								t.Fatalf("result %v: index %d outside the run's %d threadFlowLocations", r.PartialFingerprints, *l.Index, len(run.ThreadFlowLocations))
							}
							loc = run.ThreadFlowLocations[*l.Index].Location
						}
						var c bytes.Buffer
						if err := json.Compact(&c, loc); err != nil {
							t.Fatal(err)
						}
						steps = append(steps, splitContext(c.String())...)
					}
					flows = append(flows, strings.Join(steps, "|"))
				}
			}
			lines = append(lines, fmt.Sprintf("%v %s flows=%d %s", r.PartialFingerprints[report.FingerprintKey], r.RuleID, len(flows), digest(flows)))
		}
	}
	slices.Sort(lines)
	got := strings.Join(lines, "\n") + "\n"
	g := filepath.Join("../../testdata/golden/scale", "chain-200-40.sarif.txt")
	if *update {
		if err := os.WriteFile(g, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(g)
	if err != nil {
		t.Fatalf("no golden (go test ./cmd/acg -run GeneratedSARIF -update): %v", err)
	}
	if got != string(want) {
		t.Errorf("code flows differ from %s:\n%s", g, diffLines(string(want), got))
	}
}
