package secret

import (
	"strings"
	"testing"
)

func TestMaskHidesSecrets(t *testing.T) {
	cases := []struct{ in, want, secret string }{
		{`Bash(curl -H 'Authorization: Bearer abcDEF123456ghiJKL' *)`, `Bash(curl -H 'Authorization: Bearer ****' *)`, "abcDEF123456ghiJKL"},
		{`Bash(curl -u admin:hunter2pass https://x)`, "", "hunter2pass"},
		{`Authorization: Basic dXNlcjpwYXNz`, `Authorization: Basic ****`, "dXNlcjpwYXNz"},
		{`--api-key sk-proj-0123456789abcdefABCDEF`, `--api-key ****`, "sk-proj-0123456789abcdefABCDEF"},
		{`--api-key=shortish`, `--api-key=****`, "shortish"},
		{`https://user:p4ssw0rd@example.com/x`, `https://****@example.com/x`, "p4ssw0rd"},
		{`https://api.example.com/v1?token=tok_0123abcd&mode=1`, `https://api.example.com/v1?token=****&mode=1`, "tok_0123abcd"},
		{`Bash(export GITHUB_TOKEN=ghp_0123456789abcdefghijABCDEFGHIJ:*)`, `Bash(export GITHUB_TOKEN=****:*)`, "ghp_0123456789"},
		{`run ghp_0123456789abcdefghijABCDEFGHIJ now`, `run **** now`, "ghp_0123456789"},
		{`AKIAIOSFODNN7EXAMPLE`, `****`, "AKIAIOSFODNN7EXAMPLE"},
		{`key AIzaSyA-0123456789abcdefghijklmnopqrs`, `key ****`, "AIzaSyA"},
		{`xoxb-123456789012-abcdefABCDEF`, `****`, "xoxb-123456789012"},
		{`glpat-abcdefghij0123456789`, `****`, "glpat-abcdefghij"},
		{`Bash(curl -H "Authorization: token abc123" *)`, `Bash(curl -H "Authorization: token ****" *)`, "abc123"},
		{`password: hunter2`, `password: ****`, "hunter2"},
		{`echo 9f8A7b6C5d4E3f2A1b0C9d8E7f6A5b4C`, `echo ****`, "9f8A7b6C5d4E3f2A1b0C"},
		{`aws wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY1`, `aws ****`, "wJalrXUtnFEMI"},
		{`curl -H "X-Api-Key: 0123456789abcdef"`, `curl -H "X-Api-Key: ****"`, "0123456789abcdef"},
	}
	for _, c := range cases {
		got := Mask(c.in)
		if strings.Contains(got, c.secret) {
			t.Errorf("Mask(%q) = %q: still holds %q", c.in, got, c.secret)
		}
		if c.want != "" && got != c.want {
			t.Errorf("Mask(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestMaskKeepsOrdinaryText(t *testing.T) {
	for _, s := range []string{
		"Bash(git status)", "Read(./src/**)", "Bash(git push:*)", "Bash(npm run test:*)",
		"WebFetch(domain:docs.auth0.com)", "mcp__github__create_pull_request_review",
		"mcp__server2__list_issues_for_repo", "Bash(tmux new-session:*)", "Read(~/.aws/credentials)",
		"Bash(gh auth status)", "Edit(src/components/widgets/DatePicker.tsx)", "Bash(session:*)",
		"https://api.example.com/v1/items", "--token ${GITHUB_TOKEN}", "API_KEY=$API_KEY",
		"Authorization: Bearer ${TOKEN}", "@modelcontextprotocol/server-filesystem", "sk-learn",
		"Bash(python -m pytest tests/test_auth.py)", "send_http", "READ_PRIVATE", "e2e-tests",
		"Bash(token)", "password", "the session is over",
	} {
		if got := Mask(s); got != s {
			t.Errorf("Mask(%q) = %q, want it unchanged", s, got)
		}
	}
}

// TestMaskLongHidden: a string too long to inspect is hidden whole, at
// once.
func TestMaskLongHidden(t *testing.T) {
	long := strings.Repeat("token=x ", MaxInspect)
	if got := Mask(long); got != Masked {
		t.Errorf("Mask of %d bytes = %.40q…", len(long), got)
	}
}

func TestQuoteKey(t *testing.T) {
	if got := QuoteKey("AWS_SECRET_ACCESS_KEY"); got != `"AWS_SECRET_ACCESS_KEY"` {
		t.Errorf("an ordinary key name: %s", got)
	}
	for _, k := range []string{"AKIAIOSFODNN7EXAMPLE", "9f8A7b6C5d4E3f2A1b0C9d8E7f6A5b4C", "Bearer abcDEF123456ghiJKL"} {
		if got := QuoteKey(k); strings.Contains(got, k[4:12]) {
			t.Errorf("QuoteKey(%q) = %s", k, got)
		}
	}
	long := strings.Repeat("verylongkeyname", 10)
	if got := QuoteKey(long); len(got) > 60 {
		t.Errorf("QuoteKey of a long key is %d bytes: %s", len(got), got)
	}
}

func TestDropQuoted(t *testing.T) {
	for in, want := range map[string]string{
		"unknown anchor 'AKIAEXAMPLE' referenced":        "unknown anchor … referenced",
		"did not find expected ',' or ']'":               "did not find expected ',' or ']'",
		"cannot unmarshal !!str `hunter2` into bool":     "cannot unmarshal !!str … into bool",
		`line 3: found "hunter2" where a key was wanted`: "line 3: found … where a key was wanted",
	} {
		if got := DropQuoted(in); got != want {
			t.Errorf("DropQuoted(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzMask: masking never panics, is idempotent, and keeps a string
// without secrets unchanged byte for byte (checked by idempotence on the
// output). Long run: go test ./internal/secret -fuzz FuzzMask -fuzztime 10m
func FuzzMask(f *testing.F) {
	for _, s := range []string{
		"Bash(curl -H 'Authorization: Bearer abcDEF123456ghiJKL' *)", "https://u:p@h/x?token=1",
		"--api-key sk-proj-0123456789abcdef", "Read(./src/**)", "password: hunter2", "AKIAIOSFODNN7EXAMPLE",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m := Mask(s)
		if again := Mask(m); again != m {
			t.Errorf("Mask is not idempotent: %q -> %q -> %q", s, m, again)
		}
		_ = QuoteKey(s)
		_ = DropQuoted(s)
	})
}
