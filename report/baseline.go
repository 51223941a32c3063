package report

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/acg-dev/acg/policy"
)

// Baseline is the set of finding ids of an earlier run.
type Baseline map[string]bool

// LoadBaseline reads the finding ids of an earlier `acg scan --format
// json` (reported and suppressed findings) or `--format sarif` output.
func LoadBaseline(path string) (Baseline, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("baseline: %w", err)
	}
	var probe struct {
		Version    string            `json:"version"`
		Findings   []json.RawMessage `json:"findings"`
		Suppressed []json.RawMessage `json:"suppressed"`
		Runs       []struct {
			Results []struct {
				PartialFingerprints map[string]any `json:"partialFingerprints"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &probe); err != nil {
		return nil, fmt.Errorf("baseline %s: not JSON: %w", path, err)
	}
	b := Baseline{}
	switch {
	case probe.Runs != nil:
		for _, r := range probe.Runs {
			for _, res := range r.Results {
				if id, ok := res.PartialFingerprints[FingerprintKey].(string); ok {
					b[id] = true
				}
			}
		}
	case probe.Findings != nil:
		for _, raw := range append(probe.Findings, probe.Suppressed...) {
			var f struct {
				ID string `json:"id"`
			}
			if err := json.Unmarshal(raw, &f); err != nil || f.ID == "" {
				return nil, fmt.Errorf("baseline %s: a finding without an id", path)
			}
			b[f.ID] = true
		}
	default:
		return nil, fmt.Errorf("baseline %s: neither acg JSON output (findings) nor a SARIF log (runs)", path)
	}
	return b, nil
}

// New keeps the findings whose ids the baseline does not hold.
func (b Baseline) New(fs []*policy.Finding) []*policy.Finding {
	out := []*policy.Finding{}
	for _, f := range fs {
		if !b[f.ID] {
			out = append(out, f)
		}
	}
	return out
}
