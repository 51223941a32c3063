// Package pyrun runs acg's own Python harness (embedded under py/) in a
// virtual environment that has the agent frameworks installed
// (scripts/requirements/frameworks.txt): the fixture check, which imports
// acg's test fixtures under the real frameworks, and the exploit runner of
// the demo, which runs an example agent with a scripted model.
//
// Only acg's own programs run here, never scanned code. Every interpreter
// starts with a clean environment (dummy API keys, a HOME of the caller's
// choosing, no proxies) and a network guard (py/sitecustomize.py) that
// refuses every address but loopback, or every address at all.
package pyrun

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

//go:embed py/*.py
var harness embed.FS

// Net says what the network guard lets through.
type Net string

const (
	NoNetwork Net = "none"     // no connection at all
	Loopback  Net = "loopback" // 127.0.0.0/8, ::1 and localhost only
)

// Env is a Python interpreter with the frameworks installed.
type Env struct {
	Python string
}

// EnvVar names the variable scripts/test.sh sets to the frameworks'
// virtual environment.
const EnvVar = "ACG_VENV_FRAMEWORKS"

// FromVenv is the interpreter of a virtual environment directory.
func FromVenv(dir string) (Env, error) {
	py := filepath.Join(dir, "bin", "python")
	if _, err := os.Stat(py); err != nil {
		return Env{}, fmt.Errorf("virtual environment %s: %w (build it with scripts/pyenv.sh frameworks)", dir, err)
	}
	return Env{Python: py}, nil
}

// dummyEnv are the credentials the frameworks check for at construction;
// none is real, and with the network guard none could be used.
var dummyEnv = []string{
	"OPENAI_API_KEY=sk-acg-dummy", "ANTHROPIC_API_KEY=sk-ant-acg-dummy", "GOOGLE_API_KEY=acg-dummy",
	"TAVILY_API_KEY=tvly-acg-dummy", "SERPER_API_KEY=acg-dummy", "SLACK_BOT_TOKEN=xoxb-acg-dummy",
	// Telemetry of the frameworks off: it would only meet the guard.
	"OPENAI_AGENTS_DISABLE_TRACING=1", "LANGCHAIN_TRACING_V2=false", "LANGSMITH_TRACING=false",
	"CREWAI_DISABLE_TELEMETRY=true", "CREWAI_TRACING_ENABLED=false", "OTEL_SDK_DISABLED=true",
	"ANONYMIZED_TELEMETRY=False", "DO_NOT_TRACK=1", "HF_HUB_OFFLINE=1",
	"PYTHONDONTWRITEBYTECODE=1", "PYTHONUNBUFFERED=1", "PYTHONIOENCODING=utf-8",
	"NO_PROXY=*", "no_proxy=*",
}

// Run runs the harness script (a file of py/, e.g. "exploit.py") with
// stdin, and returns its standard output. home is the HOME of the run;
// extra adds variables (KEY=VALUE).
func (e Env) Run(ctx context.Context, script string, stdin []byte, net Net, home string, extra ...string) ([]byte, error) {
	dir, err := os.MkdirTemp("", "acg-pyrun-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	if err := writeHarness(dir); err != nil {
		return nil, err
	}
	// PYTHONPATH, not -I: the guard (sitecustomize) must load in every
	// interpreter, also in those a framework starts.
	cmd := exec.CommandContext(ctx, e.Python, filepath.Join(dir, script))
	cmd.Dir = home
	cmd.Env = append(append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "ACG_NET=" + string(net),
		"PYTHONPATH=" + dir, "TMPDIR=" + os.TempDir()}, dummyEnv...), extra...)
	cmd.Stdin = bytes.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			err = ctx.Err()
		}
		return out.Bytes(), &Error{Script: script, Err: err, Stderr: tail(errb.String(), 4000)}
	}
	return out.Bytes(), nil
}

// Error is a harness run that failed, with the end of its standard error.
type Error struct {
	Script string
	Err    error
	Stderr string
}

func (e *Error) Error() string {
	return fmt.Sprintf("python %s: %v\n%s", e.Script, e.Err, e.Stderr)
}

func (e *Error) Unwrap() error { return e.Err }

// ErrNoEnv is returned by FromEnvironment when the variable is unset.
var ErrNoEnv = errors.New(EnvVar + " is not set (scripts/test.sh builds the frameworks' virtual environment with scripts/pyenv.sh frameworks and sets it)")

// FromEnvironment is the frameworks' environment named by ACG_VENV_FRAMEWORKS.
func FromEnvironment() (Env, error) {
	dir := os.Getenv(EnvVar)
	if dir == "" {
		return Env{}, ErrNoEnv
	}
	return FromVenv(dir)
}

func writeHarness(dir string) error {
	files, err := fs.Glob(harness, "py/*.py")
	if err != nil {
		return err
	}
	for _, f := range files {
		b, err := harness.ReadFile(f)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

func tail(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}
