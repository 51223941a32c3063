package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acg-dev/acg/internal/linkfixture"
)

// configSecrets are the fake credentials in testdata/secrets/config-credentials.
var configSecrets = []string{
	"tokRULEsecret0123456789", "ghp_RULEghp0123456789abcdefghijkl", "sk-ARGSsecret0123456789abcdef",
	"p4ssURLsecret", "QTOKsecret123", "tokAGENTsecret0123456789", "CMDsecret0123456789xyzAB",
}

// TestSecretsNeverEchoed: a credential inside a config reaches no output
// format, and the masked rule keeps its shape.
func TestSecretsNeverEchoed(t *testing.T) {
	dir, secrets := "../../testdata/secrets/config-credentials", configSecrets
	for _, format := range []string{"text", "json", "sarif", "jsonl"} {
		out, errs, code := run(t, "--engine", "builtin", "--format", format, "--fail-on", "none", dir)
		if code != exitOK {
			t.Fatalf("%s: exit %d\n%s", format, code, errs)
		}
		for _, s := range secrets {
			if strings.Contains(out+errs, s) {
				t.Errorf("%s output holds the secret %q", format, s)
			}
		}
		if format == "json" && !strings.Contains(out, `Bash(curl -H 'Authorization: Bearer ****' *)`) {
			t.Errorf("json output lost the masked rule's shape:\n%s", out)
		}
	}
}

// TestSymlinksOutOfRootNotFollowed: a scan reads no file through a link
// out of the root, in any format, whole-tree or single-file; each link is
// named in a warning that does not say where it points.
func TestSymlinksOutOfRootNotFollowed(t *testing.T) {
	repo := linkfixture.Build(t, "../../testdata/inbox")
	root, links, markers := repo.Root, append(repo.Links, repo.Inside), repo.Markers
	for _, args := range [][]string{
		{"--format", "text", root}, {"--format", "json", root}, {"--format", "sarif", root},
		{"--format", "json", filepath.Join(root, "agent.py")},
	} {
		out, errs, code := run(t, append([]string{"--engine", "builtin", "--fail-on", "none"}, args...)...)
		if code != exitOK {
			t.Errorf("%v: exit %d\n%s", args, code, errs)
		}
		for _, m := range markers {
			if strings.Contains(out+errs, m) {
				t.Errorf("%v: the output holds %q from outside the root:\nstdout: %.2000s\nstderr: %s", args, m, out, errs)
			}
		}
		if args[len(args)-1] != root {
			continue // a single-file scan reads only the file and the root's config
		}
		for _, l := range links {
			if !strings.Contains(errs, "warning: "+l+": ") {
				t.Errorf("%v: no warning names the link %s:\n%s", args, l, errs)
			}
		}
	}
}

// TestDoctorReadsNoLinkedConfig: acg doctor reads nothing of the current
// directory's tree (no program comes from a repository), so a linked
// .acg.yaml cannot bring outside content into its output.
func TestDoctorReadsNoLinkedConfig(t *testing.T) {
	repo := linkfixture.Build(t, "../../testdata/inbox")
	t.Chdir(repo.Root)
	t.Setenv("PATH", t.TempDir())
	var out, errb bytes.Buffer
	if code := doctor(nil, &out, &errb); code != exitOK {
		t.Errorf("exit %d: %s", code, errb.String())
	}
	for _, m := range repo.Markers {
		if strings.Contains(out.String()+errb.String(), m) {
			t.Errorf("doctor's output holds %q from outside the root:\n%s%s", m, out.String(), errb.String())
		}
	}
}
