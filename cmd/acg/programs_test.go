package main

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// The programs acg runs come from the user (flags, environment, the user
// config file, PATH), never from the repository it scans (docs/security.md).

func writeFile0(t *testing.T, path, body string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), mode); err != nil {
		t.Fatal(err)
	}
}

// evilScript writes a program that leaves a marker when it runs.
func evilScript(t *testing.T, path, marker string) {
	writeFile0(t, path, "#!/bin/sh\necho \"$0 $*\" >> '"+marker+"'\n", 0o755)
}

// recorder writes a fake opengrep/codeql that logs its arguments, prints a
// version and answers a scan with an empty SARIF log.
func recorder(t *testing.T, path, log string) {
	writeFile0(t, path, `#!/bin/sh
echo "$*" >> '`+log+`'
case "$1" in
--version|version) echo 9.9.9-fake; exit 0;;
esac
echo '{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"Opengrep OSS"}},"results":[]}]}'
`, 0o755)
}

// isolate clears every way the user names a program, so that only what a
// test sets counts.
func isolate(t *testing.T) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the stand-in programs are shell scripts")
	}
	home := t.TempDir()
	t.Setenv("PATH", t.TempDir())
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("ACG_CONFIG", "")
	t.Setenv("ACG_OPENGREP", "")
	t.Setenv("ACG_CODEQL", "")
	return home
}

const agentPy = "import requests\n\n\ndef fetch(url: str) -> str:\n    return requests.get(url).text\n"

// TestRepoConfigRunsNoProgram: a scanned repository's .acg.yaml names
// programs (relative to the current directory and absolute); neither
// `acg scan` with any engine nor `acg doctor` in that directory runs them,
// and the warning names the key, not the value.
func TestRepoConfigRunsNoProgram(t *testing.T) {
	isolate(t)
	repo, outside := t.TempDir(), t.TempDir()
	marker := filepath.Join(outside, "ran")
	evilScript(t, filepath.Join(repo, "evil.sh"), marker)
	evilScript(t, filepath.Join(outside, "evil2.sh"), marker)
	writeFile0(t, filepath.Join(repo, ".acg.yaml"), "provers: {opengrep: {path: ./evil.sh}, codeql: {path: "+filepath.Join(outside, "evil2.sh")+"}}\n", 0o644)
	writeFile0(t, filepath.Join(repo, "agent.py"), agentPy, 0o644)
	// A user config file inside the scanned tree is the repository's too.
	evilScript(t, filepath.Join(repo, ".config", "evil3.sh"), marker)
	writeFile0(t, filepath.Join(repo, ".config", "acg", "config.yaml"), "provers: {opengrep: {path: ../evil3.sh}}\n", 0o644)
	t.Setenv("ACG_CONFIG", filepath.Join(repo, ".config", "acg", "config.yaml"))
	t.Chdir(repo)

	var stderrs []string
	for _, args := range [][]string{{"."}, {"--engine", "opengrep", "."}, {"--engine", "codeql", "."}, {repo}} {
		var out, errb bytes.Buffer
		code := scan(args, &out, &errb)
		stderrs = append(stderrs, errb.String())
		if args[0] == "--engine" && code != exitUsage {
			t.Errorf("scan %v: exit %d, want %d (the named engine is not installed)\n%s", args, code, exitUsage, errb.String())
		}
	}
	var out, errb bytes.Buffer
	doctor(nil, &out, &errb)
	if b, err := os.ReadFile(marker); err == nil {
		t.Fatalf("a program named by the scanned repository ran:\n%s", b)
	}
	if !strings.Contains(out.String(), "opengrep  missing") || !strings.Contains(out.String(), "codeql    missing") {
		t.Errorf("doctor:\n%s", out.String())
	}
	auto := stderrs[0]
	for _, want := range []string{"provers.opengrep.path is ignored", "provers.codeql.path is ignored", "acg never runs a program named by the repository it scans", "lies inside the scanned root"} {
		if !strings.Contains(auto, want) {
			t.Errorf("scan's warnings lack %q:\n%s", want, auto)
		}
	}
	if strings.Contains(auto, "evil") {
		t.Errorf("a warning quotes the repository's value:\n%s", auto)
	}
	if !strings.Contains(stderrs[1], "--opengrep") || !strings.Contains(stderrs[2], "--codeql") {
		t.Errorf("a missing named engine does not say what acg needs:\n%s\n%s", stderrs[1], stderrs[2])
	}
}

// TestUserNamesPrograms: the flag, the environment and the user config file
// each name the program that runs, in that order of precedence; the repo's
// extra rules go to it resolved inside the root.
func TestUserNamesPrograms(t *testing.T) {
	home := isolate(t)
	repo, tools := t.TempDir(), t.TempDir()
	writeFile0(t, filepath.Join(repo, ".acg.yaml"), "provers: {opengrep: {rules: [rules/extra.yaml]}}\n", 0o644)
	writeFile0(t, filepath.Join(repo, "rules", "extra.yaml"), "rules: []\n", 0o644)
	writeFile0(t, filepath.Join(repo, "agent.py"), agentPy, 0o644)
	rules, err := filepath.EvalSymlinks(filepath.Join(repo, "rules", "extra.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"flag", "env", "xdg", "home", "ACG_CONFIG"} {
		recorder(t, filepath.Join(tools, name), filepath.Join(tools, name+".log"))
	}
	userCfg := func(dir, prog string) string {
		p := filepath.Join(dir, "acg", "config.yaml")
		writeFile0(t, p, "provers: {opengrep: {path: "+prog+"}, codeql: {path: "+prog+"}}\n", 0o644)
		return p
	}
	userCfg(filepath.Join(home, ".config"), filepath.Join(tools, "home"))
	xdg := t.TempDir()
	userCfg(xdg, filepath.Join(tools, "xdg"))
	explicit := userCfg(t.TempDir(), filepath.Join(tools, "ACG_CONFIG"))

	steps := []struct {
		name  string
		env   map[string]string
		flags []string
	}{
		{"home", nil, nil},
		{"xdg", map[string]string{"XDG_CONFIG_HOME": xdg}, nil},
		{"ACG_CONFIG", map[string]string{"ACG_CONFIG": explicit}, nil},
		{"env", map[string]string{"ACG_OPENGREP": filepath.Join(tools, "env"), "ACG_CODEQL": filepath.Join(tools, "env")}, nil},
		{"flag", nil, []string{"--opengrep", filepath.Join(tools, "flag"), "--codeql", filepath.Join(tools, "flag")}},
	}
	for _, st := range steps {
		for k, v := range st.env {
			t.Setenv(k, v) // cumulative: each step must win over the ones before
		}
		log := filepath.Join(tools, st.name+".log")
		var out, errb bytes.Buffer
		if code := scan(append(append([]string{"--engine", "opengrep"}, st.flags...), repo), &out, &errb); code != exitOK {
			t.Fatalf("%s: scan exit %d\n%s", st.name, code, errb.String())
		}
		b, _ := os.ReadFile(log)
		if !strings.Contains(string(b), "scan ") || !strings.Contains(string(b), "--config "+rules+" ") {
			t.Errorf("%s: the user's opengrep did not scan with the repo's rules; its log:\n%s\nstderr:\n%s", st.name, b, errb.String())
		}
		out.Reset()
		doctor(st.flags, &out, &errb)
		if want := "opengrep  available  9.9.9-fake (" + filepath.Join(tools, st.name) + ")"; !strings.Contains(out.String(), want) {
			t.Errorf("%s: doctor lacks %q:\n%s", st.name, want, out.String())
		}
		if want := "codeql    available  9.9.9-fake (" + filepath.Join(tools, st.name) + ")"; !strings.Contains(out.String(), want) {
			t.Errorf("%s: doctor lacks %q:\n%s", st.name, want, out.String())
		}
	}
	// The user's own file, when broken, stops the scan: it says which
	// program the user meant.
	bad := filepath.Join(t.TempDir(), "config.yaml")
	writeFile0(t, bad, "provers: {bandit: {path: /x}}\n", 0o644)
	t.Setenv("ACG_CONFIG", bad)
	var out, errb bytes.Buffer
	if code := scan([]string{repo}, &out, &errb); code != exitUsage || !strings.Contains(errb.String(), "the user config is not valid:\n"+bad+":1:") {
		t.Errorf("a broken user config: exit %d\n%s", code, errb.String())
	}
}
