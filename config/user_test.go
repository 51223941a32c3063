package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseUser(t *testing.T) {
	u, err := ParseUser("/home/me/.config/acg/config.yaml", []byte("version: 1\nprovers:\n  opengrep: {path: /opt/og/opengrep}\n  codeql:\n    path: bin/codeql\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := u.Program("opengrep"); got != "/opt/og/opengrep" {
		t.Errorf("opengrep %q", got)
	}
	// A relative path is relative to the file, not to the current directory.
	if got := u.Program("codeql"); got != filepath.FromSlash("/home/me/.config/acg/bin/codeql") {
		t.Errorf("codeql %q", got)
	}
	if u, err := ParseUser("c.yaml", []byte("provers: {opengrep: {path: opengrep}}")); err != nil || u.Program("opengrep") != "opengrep" {
		t.Errorf("a bare name is looked up on PATH: %v %v", u, err)
	}
	var nilUser *User
	if nilUser.Program("opengrep") != "" {
		t.Error("nil user config names a program")
	}
	for _, c := range []struct{ name, src, want string }{
		{"repo keys", "tools: []\n", `unknown key "tools" in the user config (known: provers, version)`},
		{"builtin", "provers: {builtin: true}\n", `unknown key "builtin" in provers (known: codeql, opengrep, semgrep)`},
		{"rules", "provers: {opengrep: {rules: [x.yaml]}}\n", `unknown key "rules" in provers.opengrep (known: path)`},
		{"empty", "provers: {opengrep: {path: ''}}\n", `provers.opengrep.path must not be empty`},
	} {
		_, err := ParseUser("c.yaml", []byte(c.src))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

func TestUserPath(t *testing.T) {
	t.Setenv("HOME", "/home/me")
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv(UserFileEnv, "")
	if p, _ := UserPath(); p != filepath.FromSlash("/home/me/.config/acg/config.yaml") {
		t.Errorf("default %q", p)
	}
	t.Setenv("XDG_CONFIG_HOME", "/x")
	if p, _ := UserPath(); p != filepath.FromSlash("/x/acg/config.yaml") {
		t.Errorf("XDG %q", p)
	}
	t.Setenv("XDG_CONFIG_HOME", "relative") // the XDG spec: ignore relative values
	if p, _ := UserPath(); p != filepath.FromSlash("/home/me/.config/acg/config.yaml") {
		t.Errorf("relative XDG %q", p)
	}
	t.Setenv(UserFileEnv, "/etc/acg.yaml")
	if p, _ := UserPath(); p != "/etc/acg.yaml" {
		t.Errorf("%s %q", UserFileEnv, p)
	}
}

func TestLoadUserMissing(t *testing.T) {
	u, err := LoadUser(filepath.Join(t.TempDir(), "none.yaml"))
	if err != nil || u != nil {
		t.Errorf("a missing user config: %v %v", u, err)
	}
	p := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(p, []byte("provers: {opengrep: {path: og}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if u, err := LoadUser(p); err != nil || u.Program("opengrep") != "og" || u.Path != p {
		t.Errorf("%+v %v", u, err)
	}
}
