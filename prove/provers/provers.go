// Package provers picks and drives the flow provers for a run: the builtin
// engine (inside incremental's analysis) plus Opengrep and CodeQL when
// installed. It is what `acg scan --engine` and `acg doctor` call, and what
// the language server calls to run the external provers.
package provers

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/acg-dev/acg/config"
	"github.com/acg-dev/acg/incremental"
	"github.com/acg-dev/acg/prove"
	"github.com/acg-dev/acg/prove/codeql"
	"github.com/acg-dev/acg/prove/opengrep"
)

// Engines are the values of --engine. opengrep and semgrep are the same
// kind of engine (Opengrep forked Semgrep CE; one rule format): auto runs
// Opengrep when it is installed, else Semgrep.
var Engines = []string{"builtin", "opengrep", "semgrep", "codeql", "auto"}

// Settings locate the external tools and what they read. The programs
// come only from the user: Opengrep, Semgrep and CodeQL (a command-line
// flag or an editor setting), else $ACG_OPENGREP / $ACG_SEMGREP /
// $ACG_CODEQL, else the user's config
// file (User), else PATH. A scanned repository's .acg.yaml never names a
// program (FromConfig); it may switch provers off and add rule files from
// inside the root.
type Settings struct {
	Opengrep string
	Semgrep  string
	CodeQL   string
	// User is the user's config file, nil when there is none (UserConfig).
	User *config.User
	// Flag says how the user names a prover's program where acg runs: a
	// format with the prover's name, "--%s" (the default) for the command
	// line. It only words the messages.
	Flag string
	// OpengrepRules and CodeQLQueries run beside the bundled rules and
	// packs; OpengrepRules also when Semgrep is the engine (provers.opengrep
	// and provers.semgrep rules both land here: one rule format).
	OpengrepRules []string
	CodeQLQueries []string
	// Off names the provers auto leaves out.
	Off map[string]bool
	// Asked names the provers a repository's config asked for by name, so
	// that auto says when one of them is missing.
	Asked map[string]bool
}

// FromConfig takes what a repository's .acg.yaml may decide: provers
// switched off, provers asked for, and extra rule files inside root. What
// it may not decide is returned as notices (*Ignored, naming the key and
// never its value): a `path:` (acg never runs a program named
// by the repository) and rule files outside root (skipped). cfg may be nil.
func (s Settings) FromConfig(cfg *config.Config, root string) (Settings, []error) {
	if cfg == nil {
		return s, nil
	}
	var notices []error
	note := func(at config.Pos, key, format string, args ...any) {
		notices = append(notices, &Ignored{Key: key, At: &config.Error{File: cfg.Path, Pos: at, Msg: key + " " + fmt.Sprintf(format, args...)}})
	}
	for _, name := range config.Provers { // in a fixed order, for stable messages
		pr, ok := cfg.Provers[name]
		if !ok {
			continue
		}
		if !pr.Enabled {
			if s.Off == nil {
				s.Off = map[string]bool{}
			}
			s.Off[name] = true
		} else if name != "builtin" {
			if s.Asked == nil {
				s.Asked = map[string]bool{}
			}
			s.Asked[name] = true
		}
		if pr.Path != nil {
			note(*pr.Path, "provers."+name+".path", "is ignored: acg never runs a program named by the repository it scans; it runs the %s you name (%s) or the one on PATH", name, s.Hint(name))
		}
		var rules []string
		for i, r := range pr.Rules {
			p, err := confine(root, r.Path)
			if err != nil {
				note(r.Pos, fmt.Sprintf("provers.%s.rules[%d]", name, i), "is skipped: %v; rule and query files must lie inside the scanned root", err)
				continue
			}
			rules = append(rules, p)
		}
		switch name {
		case "opengrep", "semgrep":
			s.OpengrepRules = append(s.OpengrepRules, rules...)
		case "codeql":
			s.CodeQLQueries = append(s.CodeQLQueries, rules...)
		}
	}
	return s, notices
}

// Ignored is what a repository's config asked for and acg did not do. Key
// is the config key at fault (provers.opengrep.path); the message quotes
// no value of the repository's.
type Ignored struct {
	Key string
	At  *config.Error // where, and the whole message
}

func (i *Ignored) Error() string { return i.At.Error() }
func (i *Ignored) Unwrap() error { return i.At }

// Hint says how the user names a prover's program.
func (s Settings) Hint(name string) string {
	where := "~/.config/acg/config.yaml"
	if s.User != nil {
		where = s.User.Path
	} else if p, err := config.UserPath(); err == nil {
		where = p
	}
	return fmt.Sprintf(s.flagFormat()+", $%s or provers.%s.path in %s", name, envVar(name), name, where)
}

func envVar(name string) string { return "ACG_" + strings.ToUpper(name) }

// program is the program the user named for a prover and who named it;
// "" means PATH. A relative path is made absolute here, against the
// current directory: the provers start in the scan root, where a relative
// program path would resolve to a file of the scanned repository.
func (s Settings) program(name string) (prog, from string, err error) {
	explicit := map[string]string{"opengrep": s.Opengrep, "semgrep": s.Semgrep, "codeql": s.CodeQL}[name]
	switch {
	case explicit != "":
		prog, from = explicit, "set by "+fmt.Sprintf(s.flagFormat(), name)
	case os.Getenv(envVar(name)) != "":
		prog, from = os.Getenv(envVar(name)), "set by $"+envVar(name)
	case s.User.Program(name) != "":
		prog, from = s.User.Program(name), "set in "+s.User.Path
	default:
		return "", "", nil
	}
	if strings.ContainsAny(prog, `/\`) && !filepath.IsAbs(prog) {
		abs, err := filepath.Abs(prog)
		if err != nil {
			return "", "", fmt.Errorf("%s: %w (%s)", name, err, from)
		}
		prog = abs
	}
	return prog, from, nil
}

func (s Settings) flagFormat() string {
	if s.Flag == "" {
		return "--%s"
	}
	return s.Flag
}

// UserConfig reads the user's config file (config.UserPath) for a scan of
// root ("" when nothing is scanned). A file inside root belongs
// to the scanned repository, whatever pointed there: it is not read, and
// ignored says so. err is a file that is there and not valid.
func UserConfig(root string) (u *config.User, ignored, err error) {
	path, err := config.UserPath()
	if err != nil {
		return nil, nil, nil // no home directory: no user config
	}
	if _, err := os.Stat(path); err != nil {
		return nil, nil, nil
	}
	if root != "" && within(root, path) {
		return nil, fmt.Errorf("the user config %s is not read: it lies inside the scanned root, where the repository could have written it", path), nil
	}
	u, err = config.LoadUser(path)
	return u, nil, err
}

// within reports whether path is inside root, as written or with links
// resolved.
func within(root, path string) bool {
	r, err1 := filepath.Abs(root)
	p, err2 := filepath.Abs(path)
	if err1 != nil || err2 != nil {
		return true // cannot tell: do not trust it
	}
	if inside(r, p) {
		return true
	}
	rr, err1 := filepath.EvalSymlinks(r)
	pr, err2 := filepath.EvalSymlinks(p)
	return err1 != nil || err2 != nil || inside(rr, pr)
}

// Selection is what an engine choice runs.
type Selection struct {
	Builtin  bool
	External []prove.Prover
	// Strict makes an external prover's failure an error (a named engine)
	// rather than a warning (auto).
	Strict bool
	// Missing says, for auto, why a prover the repository's config asked
	// for is not used.
	Missing []error
}

// Opengrep, Semgrep and CodeQL return the external provers when they can
// be found.
func Opengrep(s Settings) (*opengrep.Runner, error) {
	prog, from, err := s.program("opengrep")
	if err != nil {
		return nil, err
	}
	r, err := opengrep.Find(prog)
	if err != nil {
		return nil, s.notFound("opengrep", from, err)
	}
	r.Extra = s.OpengrepRules
	return r, nil
}

// Semgrep is the Opengrep runner on a Semgrep CE (opengrep/semgrep.go).
func Semgrep(s Settings) (*opengrep.Runner, error) {
	prog, from, err := s.program("semgrep")
	if err != nil {
		return nil, err
	}
	r, err := opengrep.FindSemgrep(prog)
	if err != nil {
		return nil, s.notFound("semgrep", from, err)
	}
	r.Extra = s.OpengrepRules
	return r, nil
}

// Pattern returns the Opengrep-compatible engine an engine choice runs:
// for opengrep and semgrep that one (an error when it is missing); for
// auto ("") Opengrep when installed, else Semgrep, skipping what the
// settings switch off (nil, nil when neither is there: missing says why,
// for an engine the repository's config asked for). builtin and codeql
// run none.
func Pattern(engine string, s Settings) (r *opengrep.Runner, missing []error, err error) {
	switch engine {
	case "opengrep":
		r, err = Opengrep(s)
		return r, nil, err
	case "semgrep":
		r, err = Semgrep(s)
		return r, nil, err
	case "auto", "":
		var errs []error
		asked := false
		for _, name := range []string{"opengrep", "semgrep"} {
			if s.Off[name] {
				continue
			}
			asked = asked || s.Asked[name]
			find := Opengrep
			if name == "semgrep" {
				find = Semgrep
			}
			r, err := find(s)
			if err == nil {
				return r, nil, nil
			}
			errs = append(errs, err)
		}
		if asked && len(errs) > 0 {
			// One notice: either engine would have done.
			err := errs[0]
			if len(errs) == 2 {
				err = fmt.Errorf("%w; Semgrep would do as well, and %v", errs[0], errs[1])
			}
			return nil, []error{err}, nil
		}
		return nil, nil, nil
	}
	return nil, nil, nil
}

func CodeQL(s Settings) (*codeql.Runner, error) {
	prog, from, err := s.program("codeql")
	if err != nil {
		return nil, err
	}
	r, err := codeql.Find(prog)
	if err != nil {
		return nil, s.notFound("codeql", from, err)
	}
	r.Extra = s.CodeQLQueries
	return r, nil
}

// notFound says why a prover is missing and how the user names one.
func (s Settings) notFound(name, from string, err error) error {
	if from != "" {
		return fmt.Errorf("%w (%s)", err, from)
	}
	return fmt.Errorf("%s: not found on PATH; install it, or name it with %s", name, s.Hint(name))
}

// Select resolves an engine name. A named external engine that is not
// installed is an error; auto takes builtin plus whatever is installed,
// less what the settings switch off.
func Select(engine string, s Settings) (Selection, error) {
	switch engine {
	case "builtin":
		return Selection{Builtin: true}, nil
	case "opengrep", "semgrep":
		r, _, err := Pattern(engine, s)
		if err != nil {
			return Selection{}, err
		}
		return Selection{External: []prove.Prover{r}, Strict: true}, nil
	case "codeql":
		r, err := CodeQL(s)
		if err != nil {
			return Selection{}, err
		}
		return Selection{External: []prove.Prover{r}, Strict: true}, nil
	case "auto", "":
		sel := Selection{Builtin: !s.Off["builtin"]}
		r, missing, _ := Pattern("auto", s)
		if r != nil {
			sel.External = append(sel.External, r)
		}
		sel.Missing = append(sel.Missing, missing...)
		if !s.Off["codeql"] {
			if r, err := CodeQL(s); err == nil {
				sel.External = append(sel.External, r)
			} else if s.Asked["codeql"] {
				sel.Missing = append(sel.Missing, err)
			}
		}
		return sel, nil
	}
	return Selection{}, fmt.Errorf("unknown engine %q: want builtin, opengrep, semgrep, codeql or auto", engine)
}

// Run runs the external provers of a selection over a whole snapshot, one
// after the other (each is heavy), and merges their flows. A prover that
// fails is reported and skipped.
func (sel Selection) Run(ctx context.Context, snap *incremental.Snapshot, progress func(prove.Progress)) ([]prove.Flow, []error) {
	// The snapshot's own Python files, not the whole root: a scan of one
	// directory of a checkout has the checkout as its root.
	var files []string
	for _, f := range snap.Files() {
		if f.Kind == "python" && f.Skipped == "" {
			files = append(files, f.Path)
		}
	}
	if len(files) == 0 {
		return nil, nil // nothing for a Python prover; an empty list would mean the whole root
	}
	req := Request(snap, files)
	req.Progress = progress
	var sets [][]prove.Flow
	var errs []error
	for _, p := range sel.External {
		fls, err := p.Run(ctx, req)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", p.Name(), err))
			continue
		}
		sets = append(sets, fls)
	}
	return prove.Merge(sets...), errs
}

// Analyze analyses a snapshot with the selection: the snapshot's cached
// analysis when only the builtin prover runs, else one with the external
// provers' flows. Their failures are warnings, or the error when Strict.
func (sel Selection) Analyze(ctx context.Context, snap *incremental.Snapshot) (*incremental.Result, []error, error) {
	if len(sel.External) == 0 {
		return snap.Analyze(), nil, nil
	}
	flows, errs := sel.Run(ctx, snap, nil)
	if sel.Strict && len(errs) > 0 {
		return nil, nil, errs[0]
	}
	return snap.AnalyzeWith(flows, sel.Builtin), errs, nil
}

// Request builds a prover request for a snapshot: its root, the files (all
// when nil), the tree's fingerprint and its current bytes.
func Request(snap *incremental.Snapshot, files []string) prove.Request {
	return prove.Request{Root: snap.Root, Files: files, Fingerprint: Fingerprint(snap), Source: func(rel string) []byte {
		if f := snap.File(rel); f != nil {
			return f.Src
		}
		return nil
	}}
}

// Fingerprint identifies the content of a snapshot's Python files.
func Fingerprint(snap *incremental.Snapshot) string {
	h := sha256.New()
	for _, f := range snap.Files() {
		if f.Kind != "python" {
			continue
		}
		h.Write([]byte(f.Path))
		h.Write([]byte{0})
		h.Write(f.Hash[:])
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Doctor prints which provers are available and their versions. s holds
// only what the user set: doctor reads no repository's config.
func Doctor(ctx context.Context, s Settings, version string, w io.Writer) {
	where := "~/.config/acg/config.yaml"
	if p, err := config.UserPath(); err == nil {
		where = p
	}
	if s.User != nil {
		where = s.User.Path
	}
	fmt.Fprintf(w, "programs from: %s, $ACG_OPENGREP/$ACG_SEMGREP/$ACG_CODEQL, %s, then PATH; never from a repository's .acg.yaml\n",
		fmt.Sprintf(s.flagFormat(), "opengrep")+"/"+fmt.Sprintf(s.flagFormat(), "semgrep")+"/"+fmt.Sprintf(s.flagFormat(), "codeql"), where)
	fmt.Fprintf(w, "%-9s available  acg %s (embedded: intra-file, inter-procedural taint)\n", "builtin", version)
	og, err := Opengrep(s)
	if err != nil {
		fmt.Fprintf(w, "%-9s missing    %v\n", "opengrep", err)
	} else {
		report(ctx, w, og, og.Binary)
	}
	sg, err := Semgrep(s)
	if err != nil {
		fmt.Fprintf(w, "%-9s missing    %v\n", "semgrep", err)
	} else {
		report(ctx, w, sg, sg.Binary)
	}
	cq, err := CodeQL(s)
	if err != nil {
		fmt.Fprintf(w, "%-9s missing    %v\n", "codeql", err)
	} else {
		report(ctx, w, cq, cq.Binary)
	}
	// What --engine auto runs: Opengrep, else Semgrep, as the pattern engine.
	auto := []string{"builtin"}
	switch {
	case og != nil:
		auto = append(auto, "opengrep")
	case sg != nil:
		auto = append(auto, "semgrep (no opengrep; flows within one function only)")
	}
	if cq != nil {
		auto = append(auto, "codeql")
	}
	fmt.Fprintf(w, "auto runs: %s\n", strings.Join(auto, ", "))
}

func report(ctx context.Context, w io.Writer, p prove.Prover, path string) {
	v, err := p.Version(ctx)
	if err != nil {
		fmt.Fprintf(w, "%-9s broken     %s: %v\n", p.Name(), path, err)
		return
	}
	fmt.Fprintf(w, "%-9s available  %s (%s)\n", p.Name(), v, path)
}
