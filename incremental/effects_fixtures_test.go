package incremental

import (
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/acg-dev/acg/effects"
)

// TestEffectsFixtures checks the labels of every tool of the effects
// fixtures (testdata/effects, see each CASE.md): which labels are present,
// and that a label rests on the fail-closed default only where nothing in
// the tree, the standard library or the library knowledge can settle it.
// Each want maps "file:tool" to its present labels; a trailing "!default"
// says every present label must be decided by the default.
func TestEffectsFixtures(t *testing.T) {
	const all = "executes_code irreversible network_egress reads_private untrusted_input writes_state"
	cases := map[string]map[string]string{
		"neg-env-settings": {
			"fetch_page": "network_egress untrusted_input", "summarize": "",
		},
		"pos-env-settings-field": {
			"fetch_page": "network_egress untrusted_input", "signature": "reads_private", "draft_reply": "reads_private",
		},
		"pos-env-outward": {
			"read_page": "network_egress untrusted_input", "post_to": "irreversible network_egress reads_private",
			"post_via_helper": "irreversible network_egress reads_private",
			"read_with_key":   "network_egress reads_private untrusted_input", "get_item": "network_egress untrusted_input",
			"notify": "network_egress", "sync_note": "executes_code irreversible network_egress reads_private writes_state !default",
		},
		"neg-in-tree-code": {
			"calculate": "", "draft_reply": "", "describe_settings": "", "evaluate": "", "preferences": "", "Make a calculation": "",
		},
		"neg-builtin-types": {
			"normalise_contact": "", "table": "", "geometry": "",
		},
		"pos-typed-params": {
			"post_update": "network_egress untrusted_input", "count_rows": "reads_private", "keep_draft": "",
		},
		"neg-stdlib-pure": {
			"summarise_numbers": "", "compare_text": "",
		},
		"pos-stdlib-effects": {
			"clear_cache":     "irreversible writes_state",
			"save_note":       "writes_state",
			"lookup_customer": "reads_private",
			"list_reports":    "reads_private",
			"fetch_page":      "network_egress untrusted_input",
			"send_mail":       "irreversible network_egress",
			"disk_usage":      "reads_private",
		},
		"pos-sdk-read-send": {
			"list_inbox":    "reads_private untrusted_input",
			"send_email":    "irreversible network_egress",
			"archive_email": "network_egress writes_state",
			"post_slack":    "irreversible network_egress",
			"read_slack":    "reads_private untrusted_input",
			"open_issues":   "untrusted_input",
			"file_issue":    "network_egress writes_state",
			"refund":        "irreversible network_egress writes_state",
			"customer":      "reads_private",
			"add_page":      "network_egress writes_state",
			"query_pages":   "reads_private untrusted_input",
			"get_report":    "reads_private",
			"put_report":    "network_egress writes_state",
			"google_token":  "reads_private",
		},
		"neg-catalog-in-body": {
			"web_search": "untrusted_input", "render": "",
		},
		"neg-http-post-not-irreversible": {
			"search": "network_egress untrusted_input", "trending": "untrusted_input",
		},
		// TypeScript: npm SDKs called in Vercel AI SDK tools' bodies
		// (testdata/ts/sdk); S3Client.send fails closed (the command is
		// not part of the call).
		"../ts/sdk/pos-sdk-tools": {
			"scrapePage": "network_egress untrusted_input", "searchWeb": "untrusted_input",
			"findPages": "network_egress untrusted_input", "readChannel": "reads_private untrusted_input",
			"listNotes": "reads_private", "deleteNote": "irreversible writes_state",
			"mailSummary":   "irreversible network_egress",
			"archiveReport": "executes_code irreversible network_egress writes_state !default",
		},
		"../ts/sdk/neg-sdk-tools": {
			"findNotes": "reads_private writes_state", "addNote": "writes_state", "setPreference": "reads_private writes_state",
			"readReport": "reads_private", "summarise": "", "extractLinks": "",
			"filePage": "network_egress reads_private writes_state",
			"textMe":   "irreversible network_egress reads_private", "mailMe": "irreversible network_egress reads_private",
		},
		"neg-untyped-data": {
			"tidy": "", "find_code": "",
		},
		"neg-types-followed": {
			"search_web": "untrusted_input", "headlines": "untrusted_input",
			"remember": "writes_state", "calc": "", "grade": "", "lookup": "untrusted_input", "remember_via_helper": "writes_state",
		},
		"neg-catalog-tool-indirect": {
			"Search": "untrusted_input", "ddg": "untrusted_input", "Calculator": "", "human": "",
		},
		"pos-state-returned":       {"open_page": "network_egress untrusted_input"},
		"pos-ctor-typed-attr":      {"visit_page": "network_egress untrusted_input", "lookup": all + " !default"},
		"neg-ctor-typed-attr":      {"page_down": "", "quote": ""},
		"neg-classmethod-helpers":  {"describe_schema": ""},
		"pos-state-through-setter": {"open_page": "network_egress untrusted_input"},
		"pos-keyword-retriever":    {"search_docs": "reads_private untrusted_input"},
		"pos-page-actions":         {"open_page": "network_egress untrusted_input", "click_button": "irreversible writes_state", "fill_field": "irreversible network_egress writes_state"},
		"pos-batch-delete":         {"remove_tab": "irreversible network_egress writes_state", "bold_header": "network_egress writes_state"},
		"neg-scratch-tempfile":     {"read_document": "network_egress untrusted_input", "keep_document": "network_egress writes_state"},
		"neg-state-unreturned":     {"ping": "network_egress"},
		"neg-retriever-jira": {
			"search_contracts": "reads_private untrusted_input", "search_issues": "reads_private untrusted_input",
		},
		"neg-market-data": {
			"quote": "network_egress untrusted_input", "prices": "network_egress untrusted_input", "compare": "network_egress untrusted_input",
		},
		"pos-lost-type-fails-closed": {
			"ask_research": all + " !default", "purge": "executes_code irreversible network_egress writes_state !default",
			"read_note": "reads_private", "save_note": "writes_state", "summarise": all + " !default",
		},
		"pos-unknown-fails-closed": {
			"sync_contact": all + " !default", "push_contact": all + " !default",
		},
		"pos-config-narrows": {
			"crew.py:4": "untrusted_input", "crew.py:5": "untrusted_input writes_state",
			"crew.py:6":  "network_egress untrusted_input",
			"shell.py:7": "executes_code", "shell.py:11": all, "shell.py:15": all + " !default",
			"hosted.py:5": "untrusted_input", "hosted.py:9": all,
		},
		"pos-hosted-config": {
			"hosted.py:13": "executes_code reads_private", "hosted.py:19": all, "hosted.py:29": all + " !default",
			"hosted.py:33": all, "hosted.py:39": "executes_code reads_private", "hosted.py:44": all,
			"hosted.py:48": all + " !default", "hosted.py:55": all + " !default",
		},
		"neg-hosted-config": {
			"hosted.py:15": "executes_code", "hosted.py:19": "executes_code", "hosted.py:23": "executes_code",
			"stock_level": "", "price_of": "", "tool_search": "", "programmatic_tool_calling": "",
			"hosted.py:49": "executes_code", "hosted.py:65": "executes_code", "hosted.py:71": "executes_code",
		},
		// A declared base's method runs its subclasses' overrides.
		"neg-declared-base-dispatch": {"summarise_text": "", "web_search": "untrusted_input"},
		"pos-declared-base-dispatch": {"summarise_text": "network_egress reads_private untrusted_input", "web_search": "untrusted_input"},
		"neg-google-people":          {"find_contact_email": "reads_private", "add_event": "network_egress writes_state"},
		"neg-service-factory-result": {"GmailDraftTool": "network_egress writes_state"},
		"neg-pandas-eval-urllib3":    {"df_query": "", "fetch_quote": "untrusted_input"},
		"neg-credential-cache":       {"read_mail": "reads_private untrusted_input", "search_web": "untrusted_input"},
		// Factories returning None, a cached library value or an in-tree
		// singleton; a generator as a call's only argument.
		"neg-cached-factories":   {"upcoming_events": "reads_private untrusted_input", "normalise_reference": ""},
		"pos-cache-mixed-values": {"archive": "executes_code irreversible network_egress writes_state !default"},
		// A runner (asyncio.to_thread, run_in_executor, submit) runs the
		// callable it is handed.
		"pos-callable-runners": {
			"post_update": "irreversible network_egress", "notify": "irreversible network_egress",
			"notify_later": "irreversible network_egress", "pretty": "",
		},
		"pos-http-method-url": {"fetch": "network_egress untrusted_input", "read_notes": "reads_private"},
		"neg-schema-tools": {
			"ConductResearch": "", "ResearchComplete": "", "Outline": "", "Section": "", "think_tool": "",
		},
		"pos-schema-with-code": {
			"Ticket": all + " !default", "Dispatch": all + " !default",
		},
		"neg-search-sdk": {
			"tavily_search": "untrusted_input", "exa_search": "untrusted_input", "ddg_search": "untrusted_input",
			"deep_research": "untrusted_input", "firecrawl_search": "untrusted_input", "linkup_search": "untrusted_input",
			"google_search": "untrusted_input",
		},
		"pos-sdk-data-services": {
			"delete_note": "irreversible writes_state", "remove_upload": "irreversible writes_state",
			"store_upload": "network_egress writes_state", "knowledge_search": "reads_private untrusted_input",
			"forget_vectors": "irreversible writes_state", "similar_points": "reads_private untrusted_input",
			"drop_points": "irreversible writes_state", "sheet_rows": "reads_private untrusted_input",
			"sheet_append": "network_egress writes_state", "sheet_prune": "irreversible writes_state",
			"reddit_hot": "untrusted_input", "reddit_reply": "irreversible network_egress",
			"reddit_inbox": "reads_private untrusted_input", "gitlab_issues": "reads_private untrusted_input",
			"gitlab_comment": "irreversible network_egress", "gitlab_open_issue": "network_egress writes_state",
			"resend_mail": "irreversible network_egress", "sendgrid_mail": "irreversible network_egress",
			"cancel_order": "irreversible writes_state",
		},
		"neg-sdk-data-services": {
			"list_notes": "reads_private", "add_note": "writes_state", "save_profile": "writes_state",
			"receipt_text": "reads_private", "order_total": "reads_private", "record_payment": "writes_state",
			"invoice_text": "reads_private", "budget_rows": "reads_private", "export_budget": "writes_state",
			"remember": "writes_state", "index_passage": "writes_state", "reddit_search": "untrusted_input",
			"reddit_comments": "untrusted_input", "sheet_values": "reads_private untrusted_input",
			"merge_requests": "reads_private untrusted_input",
		},
		"neg-untyped-params": {
			"recall": "reads_private", "remember": "writes_state", "answer": "",
			"lookup": "untrusted_input", "news": "untrusted_input",
		},
		"pos-untyped-param-unknown": {
			"research": all + " !default", "recall": "reads_private untrusted_input !default",
		},
		"neg-email-message":       {"encode_reply": ""},
		"neg-google-auth-refresh": {"count_labels": ""}, // the token saved back is a credential cache
		"pos-google-delete": {
			"trash_email": "network_egress writes_state", "delete_email": "irreversible writes_state",
			"delete_file": "irreversible writes_state",
		},
		"neg-attr-pipes":            {"summarise": ""},
		"neg-attr-returned-client":  {"unread_mail": "reads_private untrusted_input"},
		"pos-attr-returned-unknown": {"purge_mail": all + " !default"},
		"neg-search-sdk-readers": {
			"crawl_site": "network_egress untrusted_input", "site_map": "network_egress untrusted_input",
			"scrape_page": "network_egress untrusted_input", "exa_answer": "untrusted_input",
			"bing": "untrusted_input", "brave": "untrusted_input",
		},
		"pos-search-private-egress": {
			"search_my_file": "network_egress untrusted_input", "search_notes": "network_egress reads_private untrusted_input",
			"scrape": "network_egress untrusted_input",
		},
		"neg-toolkit-in-body": {
			"Create Draft": "writes_state", "draft_reply": "writes_state",
		},
		"pos-toolkit-member-sends": {
			"send_reply": "irreversible network_egress",
			"use_gmail":  "irreversible network_egress reads_private untrusted_input writes_state",
		},
		"neg-config-alternatives": {
			"web_search": "untrusted_input", "web_search_preview": "untrusted_input", "tavily_search": "untrusted_input",
			"ResearchComplete": "", "researcher": "",
		},
		"pos-config-alternatives": {
			"send_report": "irreversible network_egress", "graph.py:21": all + " !default",
		},
		"neg-conditional-tool": {
			"fast_lookup": "", "careful_lookup": "", "build_config": "", "search_corpus": "reads_private untrusted_input",
		},
		"neg-optional-client": {
			"product_details": "reads_private", "count_orders": "reads_private", "draft_sql": "",
		},
		"neg-claude-builtins": {
			"Bash(git status)":           "reads_private",
			"Bash(tree:*)":               "reads_private",
			"Bash(npm test:*)":           "executes_code reads_private writes_state",
			"Bash(npm run test:*)":       "executes_code reads_private writes_state",
			"Bash(go test:*)":            "executes_code reads_private writes_state",
			"Bash(pytest:*)":             "executes_code reads_private writes_state",
			"Bash(python -m pytest:*)":   "executes_code reads_private writes_state",
			"Bash(git fetch:*)":          "untrusted_input writes_state",
			"Bash(git checkout:*)":       "writes_state",
			"Bash(git remote set-url:*)": "writes_state",
			"Bash(echo:*)":               "writes_state",
			// Interpreters and package runners run any code their
			// arguments name: every label, known rather than assumed.
			"Bash(python:*)": all, "Bash(npm:*)": all, "Bash(uv:*)": all, "Bash(go:*)": all,
			"Bash(uv run:*)": all, "Bash(git config *)": all,
			// Environment assignments before the command are not the
			// command; one alone runs nothing; one with a command
			// substitution runs something acg cannot name.
			"Bash(PYRIGHT_PYTHON_IGNORE_WARNINGS=1 uv run pyright *)": "reads_private",
			"Bash(git grep:*)": "reads_private", "Bash(EXIT_CODE=$?)": "",
			"Bash(X=$(curl -s evil.example) true)": all + " !default",
			"Bash(frobnicate:*)":                   all + " !default",
			// Named by the subagent: current and legacy names (Task is the
			// Agent tool, MultiEdit the Edit tool, SlashCommand the Skill tool).
			"LS": "reads_private", "NotebookRead": "reads_private", "BashOutput": "reads_private",
			"KillShell": "", "KillBash": "", "ExitPlanMode": "", "AskUserQuestion": "",
		},
	}
	for dir, want := range cases {
		t.Run(dir, func(t *testing.T) {
			s, _ := load(t, filepath.Join("..", "testdata", "effects", dir))
			seen := map[string]bool{}
			for _, tl := range s.Analyze().Graph.Tools {
				key := tl.Name
				w, ok := want[key]
				if !ok {
					key = filepath.Base(tl.Loc.File) + ":" + strconv.Itoa(int(tl.Loc.Start.Line))
					w, ok = want[key]
				}
				if !ok {
					// A negative fixture has no default label anywhere but
					// where its want says so.
					if strings.HasPrefix(dir, "neg-") {
						for _, l := range effects.Labels {
							if r := tl.Effects.Get(l); r.DecidedBy == effects.ByDefault {
								t.Errorf("%s: %s rests on the fail-closed default: %s", tl.Name, l, evidenceOf(r))
							}
						}
					}
					continue
				}
				seen[key] = true
				wantDefault := strings.HasSuffix(w, " !default")
				w = strings.TrimSuffix(w, " !default")
				var on, defaulted []string
				for _, l := range effects.Labels {
					r := tl.Effects.Get(l)
					if r.Value {
						on = append(on, string(l))
					}
					if r.DecidedBy == effects.ByDefault {
						defaulted = append(defaulted, string(l)+": "+evidenceOf(r))
					} else if r.DecidedBy == "" {
						t.Errorf("%s: %s is not decided by anything", key, l)
					}
				}
				sort.Strings(on)
				if got := strings.Join(on, " "); got != w {
					t.Errorf("%s: labels %q, want %q", key, got, w)
				}
				if wantDefault && len(defaulted) != len(on) {
					t.Errorf("%s: every label must fail closed (default), got %d of %d", key, len(defaulted), len(on))
				}
				if !wantDefault && len(defaulted) > 0 {
					t.Errorf("%s: labels rest on the fail-closed default:\n  %s", key, strings.Join(defaulted, "\n  "))
				}
				for _, l := range effects.Labels {
					if r := tl.Effects.Get(l); r.Value && len(r.Evidence) == 0 {
						t.Errorf("%s: %s has no evidence", key, l)
					}
				}
			}
			for k := range want {
				if !seen[k] {
					t.Errorf("no tool %s", k)
				}
			}
			if dir == "neg-claude-builtins" {
				// Task and MultiEdit are the Agent and Edit tools.
				uses := usesOf(s, "reviewer")
				for _, want := range []string{"#Agent", "#Edit", "#Skill"} {
					found := false
					for _, u := range uses {
						found = found || strings.HasSuffix(u, want)
					}
					if !found {
						t.Errorf("reviewer does not use %s: %v", want, uses)
					}
				}
			}
		})
	}
}

func evidenceOf(r *effects.Result) string {
	var out []string
	for _, e := range r.Evidence {
		out = append(out, e.Detail)
	}
	return strings.Join(out, "; ")
}

// TestInstancesAcrossFiles: a module-level instance of an in-tree class
// imported from another file is that class's instance: its methods and its
// typed attributes are read, not failed closed.
func TestInstancesAcrossFiles(t *testing.T) {
	root := writeTree(t, map[string]string{
		"app/__init__.py": "",
		"app/store.py": `
class Outbox:
    items: list[str]

    def __init__(self) -> None:
        self.items = []

    def add(self, text: str) -> int:
        self.items.append(text)
        return len(self.items)


OUTBOX = Outbox()
`,
		"app/agent.py": `
from langchain_core.tools import tool
from langgraph.prebuilt import create_react_agent
from app.store import OUTBOX


@tool
def keep(text: str) -> str:
    """Keep a draft."""
    OUTBOX.items.append(text.strip())
    return str(OUTBOX.add(text))


bot = create_react_agent("m", [keep])
`,
	})
	s, _ := load(t, root)
	found := false
	for _, tl := range s.Analyze().Graph.Tools {
		if tl.Name != "keep" {
			continue
		}
		found = true
		for _, l := range effects.Labels {
			if r := tl.Effects.Get(l); r.Value {
				t.Errorf("keep: %s (%s): %s", l, r.DecidedBy, evidenceOf(r))
			}
		}
	}
	if !found {
		t.Fatal("no tool keep")
	}
}

// TestToolkitPickByName: an agent given the members of a catalogued
// toolkit that a comprehension's name test picks gets exactly those; a
// test that excludes, or that acg cannot read, keeps the others.
func TestToolkitPickByName(t *testing.T) {
	cases := map[string]map[string][]string{
		"neg-toolkit-pick-by-name": {
			"drafter": {"#GmailCreateDraft", "#GmailSearch"},
			"reader":  {"#GmailGetThread"},
		},
		"pos-toolkit-pick-by-name": {
			"mailer":  {"#GmailGetMessage", "#GmailGetThread", "#GmailSearch", "#GmailSendMessage"},
			"any_kit": {"#GmailCreateDraft", "#GmailGetMessage", "#GmailGetThread", "#GmailSearch", "#GmailSendMessage"},
		},
	}
	for dir, agents := range cases {
		s, _ := load(t, filepath.Join("..", "testdata", "effects", dir))
		for agent, want := range agents {
			var got []string
			for _, u := range usesOf(s, agent) {
				got = append(got, u[strings.LastIndexByte(u, '#'):])
			}
			sort.Strings(got)
			if strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("%s: %s uses %v, want %v", dir, agent, got, want)
			}
		}
		missing := 0
		for _, f := range s.Analyze().Findings {
			if f.Rule == "missing-approval" {
				missing++
			}
		}
		if dir == "neg-toolkit-pick-by-name" && missing > 0 {
			t.Errorf("%s: %d missing-approval findings, want none", dir, missing)
		}
		if dir == "pos-toolkit-pick-by-name" && missing == 0 {
			t.Errorf("%s: no missing-approval finding for send_gmail_message", dir)
		}
	}
}

// TestConditionalToolElements: a list element `a if c else b` gives the
// agent both tools.
func TestConditionalToolElements(t *testing.T) {
	s, _ := load(t, filepath.Join("..", "testdata", "effects", "neg-conditional-tool"))
	g := s.Analyze().Graph
	want := map[string]string{
		"glossary": "build_config careful_lookup fast_lookup search_corpus",
	}
	for _, a := range g.Agents {
		w, ok := want[a.Name]
		if !ok {
			continue
		}
		delete(want, a.Name)
		var names []string
		for _, r := range g.Reach(a.ID) {
			names = append(names, r.Tool.Name)
		}
		sort.Strings(names)
		if got := strings.Join(names, " "); got != w {
			t.Errorf("%s: tools %q, want %q", a.Name, got, w)
		}
	}
	for n := range want {
		t.Errorf("agent %s not found", n)
	}
}
