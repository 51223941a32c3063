// Package standin is the process-level stand-in for Opengrep and CodeQL in
// tests (neither can be installed where acg is built). A test binary calls
// Main from TestMain; when the environment names a tool, the process
// checks the argument list the runner gave it exactly as the real CLI's
// documentation requires, logs it, and replays a real SARIF file.
//
// Environment: ACG_STANDIN (opengrep or codeql), ACG_STANDIN_SARIF (the
// file to replay), ACG_STANDIN_LOG (append each argv, one per line),
// ACG_STANDIN_SLEEP (a duration to hang, for cancellation tests),
// ACG_STANDIN_VERSION.
package standin

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Main takes over the process when ACG_STANDIN is set, and never returns
// then.
func Main() {
	tool := os.Getenv("ACG_STANDIN")
	if tool == "" {
		return
	}
	args := os.Args[1:]
	if p := os.Getenv("ACG_STANDIN_LOG"); p != "" {
		f, err := os.OpenFile(p, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err == nil {
			fmt.Fprintln(f, strings.Join(args, " "))
			f.Close()
		}
	}
	var err error
	switch tool {
	case "opengrep":
		err = opengrep(args)
	case "codeql":
		err = codeql(args)
	default:
		err = fmt.Errorf("unknown stand-in %q", tool)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s stand-in: %v\n", tool, err)
		os.Exit(2)
	}
	os.Exit(0)
}

func version(def string) {
	v := os.Getenv("ACG_STANDIN_VERSION")
	if v == "" {
		v = def
	}
	fmt.Println(v)
}

func hang() {
	if d, err := time.ParseDuration(os.Getenv("ACG_STANDIN_SLEEP")); err == nil {
		time.Sleep(d)
	}
}

func replay() ([]byte, error) {
	p := os.Getenv("ACG_STANDIN_SARIF")
	if p == "" {
		return nil, fmt.Errorf("ACG_STANDIN_SARIF not set")
	}
	return os.ReadFile(p)
}

// opengrep: `opengrep --version` or `opengrep scan --config RULES
// [--config MORE]... --sarif --dataflow-traces --taint-intrafile TARGET...`.
func opengrep(args []string) error {
	if len(args) == 1 && args[0] == "--version" {
		version("1.27.1")
		return nil
	}
	if len(args) < 3 || args[0] != "scan" || args[1] != "--config" {
		return fmt.Errorf("want scan --config RULES..., got %q", args)
	}
	// The first --config is acg's bundled rules; more may follow.
	if err := rulesAt(args[2]); err != nil {
		return err
	}
	i := 3
	for i+1 < len(args) && args[i] == "--config" {
		if _, err := os.Stat(args[i+1]); err != nil {
			return fmt.Errorf("--config: %w", err)
		}
		i += 2
	}
	want := []string{"--sarif", "--dataflow-traces", "--taint-intrafile"}
	if len(args) <= i+len(want) {
		return fmt.Errorf("want ... %s TARGET..., got %q", strings.Join(want, " "), args)
	}
	for j, w := range want {
		if args[i+j] != w {
			return fmt.Errorf("argument %d is %q, want %q (argv %q)", i+j, args[i+j], w, args)
		}
	}
	for _, t := range args[i+len(want):] {
		if strings.HasPrefix(t, "-") || filepath.IsAbs(t) {
			return fmt.Errorf("target %q: want a path relative to the workspace", t)
		}
		if _, err := os.Stat(t); err != nil {
			return fmt.Errorf("target: %w", err)
		}
	}
	hang()
	data, err := replay()
	if err != nil {
		return err
	}
	_, err = os.Stdout.Write(data)
	return err
}

// rulesAt checks that --config names acg's bundled taint rules.
func rulesAt(p string) error {
	var data []byte
	err := filepath.WalkDir(p, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml")) {
			b, _ := os.ReadFile(path)
			data = append(data, b...)
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("--config: %w", err)
	}
	if !strings.Contains(string(data), "mode: taint") || !strings.Contains(string(data), "acg-untrusted-to-return") {
		return fmt.Errorf("--config %s holds no acg taint rules", p)
	}
	return nil
}

// codeql: `codeql version --format=terse`, `codeql database create DB
// --language=python --source-root=SRC --build-mode=none --overwrite`, and
// `codeql database analyze DB QUERIES... --format=sarif-latest --output=OUT
// --model-packs=acg/python-agent-models --additional-packs=DIR --threads=0`.
func codeql(args []string) error {
	switch {
	case len(args) == 2 && args[0] == "version" && args[1] == "--format=terse":
		version("2.25.6")
		return nil
	case len(args) == 7 && args[0] == "database" && args[1] == "create":
		db := args[2]
		want := []string{"--language=python", "", "--build-mode=none", "--overwrite"}
		for i, w := range want {
			if w != "" && args[3+i] != w {
				return fmt.Errorf("argument %d is %q, want %q", 3+i, args[3+i], w)
			}
		}
		src, ok := strings.CutPrefix(args[4], "--source-root=")
		if !ok || !filepath.IsAbs(src) {
			return fmt.Errorf("want --source-root=ABSOLUTE, got %q", args[4])
		}
		if _, err := os.Stat(src); err != nil {
			return err
		}
		hang()
		if err := os.MkdirAll(db, 0o755); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(db, "codeql-database.yml"), []byte("primaryLanguage: python\nsourceLocationPrefix: "+src+"\n"), 0o644)
	case len(args) >= 8 && args[0] == "database" && args[1] == "analyze":
		db := args[2]
		if _, err := os.Stat(filepath.Join(db, "codeql-database.yml")); err != nil {
			return fmt.Errorf("no database at %s: %w", db, err)
		}
		var out, packs string
		var queries, flags []string
		for _, a := range args[3:] {
			if strings.HasPrefix(a, "--") {
				flags = append(flags, a)
			} else {
				queries = append(queries, a)
			}
		}
		for _, f := range flags {
			switch {
			case f == "--format=sarif-latest", f == "--threads=0", f == "--model-packs=acg/python-agent-models":
			case strings.HasPrefix(f, "--output="):
				out = strings.TrimPrefix(f, "--output=")
			case strings.HasPrefix(f, "--additional-packs="):
				packs = strings.TrimPrefix(f, "--additional-packs=")
			default:
				return fmt.Errorf("unexpected flag %q", f)
			}
		}
		if out == "" || packs == "" || len(flags) != 5 {
			return fmt.Errorf("want --format, --output, --model-packs, --additional-packs and --threads, got %q", flags)
		}
		if _, err := os.Stat(filepath.Join(packs, "agent-models", "qlpack.yml")); err != nil {
			return fmt.Errorf("model pack: %w", err)
		}
		if len(queries) < 2 || !strings.HasSuffix(queries[1], "PromptInjection.ql") {
			return fmt.Errorf("want acg's query pack and py/prompt-injection, got %q", queries)
		}
		if _, err := os.Stat(filepath.Join(queries[0], "qlpack.yml")); err != nil {
			return fmt.Errorf("query pack: %w", err)
		}
		hang()
		data, err := replay()
		if err != nil {
			return err
		}
		return os.WriteFile(out, data, 0o644)
	}
	return fmt.Errorf("unexpected arguments %q", args)
}
