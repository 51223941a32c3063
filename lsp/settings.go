package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"go.lsp.dev/protocol"

	"github.com/acg-dev/acg/policy"
)

// Settings are the user's choices, from initializationOptions, the
// workspace/configuration section "acg", or didChangeConfiguration. Every
// key is optional (docs/lsp.md):
//
//	{
//	  "enabledRules": ["rule-of-two", "missing-approval"],  // default: all
//	  "severityThreshold": "low",                           // lowest severity shown
//	  "debounceMs": 150,                                    // quiet time before analysing
//	  "includeTests": false,                                // findings in test code at their own severity
//	  "proverPaths": {"opengrep": "/usr/bin/opengrep", "semgrep": "/usr/bin/semgrep", "codeql": "/opt/codeql/codeql"},
//	  "engine": "auto",                                     // as acg scan --engine
//	  "traces": "traces/"                                   // recorded runs (acg traces): hover says what was observed
//	}
//
// proverPaths name the programs the server runs, with $ACG_OPENGREP /
// $ACG_CODEQL and the user config file (~/.config/acg/config.yaml); the
// folder's .acg.yaml never does (lsp/provers.go, docs/security.md). They
// are the user's: an editor must not take them from a file in the
// workspace (the VS Code extension declares them machine-scoped).
type Settings struct {
	EnabledRules []string          `json:"enabledRules,omitempty"`
	Severity     string            `json:"severityThreshold,omitempty"`
	DebounceMs   *int              `json:"debounceMs,omitempty"`
	ProverPaths  map[string]string `json:"proverPaths,omitempty"`
	// Engine chooses the provers as acg scan --engine does: on save,
	// opengrep or semgrep runs that engine; auto ("") Opengrep when
	// installed, else Semgrep; builtin and codeql run none on save.
	Engine string `json:"engine,omitempty"`
	// IncludeTests reports findings in test code at their own severity
	// (acg scan --include-tests); by default they are information.
	IncludeTests bool `json:"includeTests,omitempty"`
	// Traces is a file or folder of recorded runs (acg traces; relative
	// to the workspace folder): the hover of an agent says which of its
	// dangerous sequences a run walked. The server only reads them.
	Traces string `json:"traces,omitempty"`
}

const defaultDebounce = 150 * time.Millisecond

// debounce is the quiet time after a change before analysis starts.
func (s Settings) debounce() time.Duration {
	if s.DebounceMs == nil || *s.DebounceMs < 0 {
		return defaultDebounce
	}
	return time.Duration(*s.DebounceMs) * time.Millisecond
}

// shows reports whether a finding passes the rule and severity filters.
func (s Settings) shows(f *policy.Finding) bool {
	if len(s.EnabledRules) > 0 {
		on := false
		for _, r := range s.EnabledRules {
			on = on || r == f.Rule
		}
		if !on {
			return false
		}
	}
	if min, ok := policy.ParseSeverity(s.Severity); ok && f.Severity.Rank() < min.Rank() {
		return false
	}
	return true
}

// parseSettings reads settings given either as the "acg" section itself or
// as an object holding it. An empty or null value gives ok=false: for
// didChangeConfiguration that means "pull them again".
func parseSettings(raw []byte) (Settings, bool, error) {
	var s Settings
	if len(raw) == 0 || string(raw) == "null" {
		return s, false, nil
	}
	var outer map[string]json.RawMessage
	if err := json.Unmarshal(raw, &outer); err != nil {
		return s, false, fmt.Errorf("settings: %w", err)
	}
	if inner, ok := outer["acg"]; ok {
		return parseSettings(inner)
	}
	if len(outer) == 0 {
		return s, false, nil
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return s, false, fmt.Errorf("settings: %w", err)
	}
	return s, true, s.validate()
}

// validate names the first bad value; the good ones still apply.
func (s Settings) validate() error {
	known := map[string]bool{}
	var names []string
	for _, c := range policy.Checks() {
		known[c.Name] = true
		names = append(names, c.Name)
	}
	sort.Strings(names)
	for _, r := range s.EnabledRules {
		if !known[r] {
			return fmt.Errorf("settings: enabledRules: unknown rule %q (known: %s)", r, strings.Join(names, ", "))
		}
	}
	if s.Severity != "" {
		if _, ok := policy.ParseSeverity(s.Severity); !ok {
			return fmt.Errorf("settings: severityThreshold %q: want critical, high, medium or low", s.Severity)
		}
	}
	return nil
}

// pullSettings asks the client for the "acg" section.
func (s *Server) pullSettings(ctx context.Context) {
	if !s.capsNow().configuration {
		return
	}
	res, err := s.client.Configuration(ctx, &protocol.ConfigurationParams{Items: []protocol.ConfigurationItem{{Section: ptr("acg")}}})
	if err != nil {
		s.logf(protocol.MessageTypeWarning, "workspace/configuration: %v", err)
		return
	}
	if len(res) == 0 {
		return
	}
	st, ok, err := parseSettings(res[0])
	if err != nil {
		s.logf(protocol.MessageTypeWarning, "%v", err)
	}
	if ok {
		s.applySettings(st)
	}
}

func (s *Server) applySettings(st Settings) {
	s.mu.Lock()
	s.settings = st
	folders := append([]*folder(nil), s.folders...)
	s.mu.Unlock()
	s.logf(protocol.MessageTypeInfo, "settings: rules %v, threshold %q, debounce %v, provers %v", st.EnabledRules, st.Severity, st.debounce(), st.ProverPaths)
	for _, f := range folders {
		f.republish()
	}
}

// DidChangeConfiguration takes new settings, or pulls them when the
// notification carries none (the usual way with workspace/configuration).
func (s *Server) DidChangeConfiguration(ctx context.Context, p *protocol.DidChangeConfigurationParams) error {
	st, ok, err := parseSettings(p.Settings)
	if err != nil {
		s.logf(protocol.MessageTypeWarning, "%v", err)
	}
	if ok {
		s.applySettings(st)
		return nil
	}
	go s.pullSettings(s.ctx) // a request to the client: not on the read loop
	return nil
}
