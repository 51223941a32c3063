package effects

import (
	"strings"

	"github.com/acg-dev/acg/extract"
)

// Scratch files. A tool that downloads into a temporary file, converts it
// and deletes it (handle, path = tempfile.mkstemp(); ...; os.unlink(path))
// changes no state anyone keeps: the file is its own, made in the
// system's temporary directory, and gone when the tool returns. A write or
// deletion whose target comes only from the tempfile module (directly, or
// through os.fdopen / open / os.path.join of such a path) is scratch work,
// not writes_state, and its deletion is not irreversible, when the file
// does not outlive the call: a TemporaryFile, TemporaryDirectory or
// NamedTemporaryFile that deletes itself, or a mkstemp / mkdtemp path the
// same function deletes. A temporary file left behind (a note written to
// mkstemp and its name returned) is state like any other file.

// scratchTarget reports whether the file c writes or deletes is a
// temporary file: its receiver (a handle) for a method, else its first
// argument (a path).
func scratchTarget(c *extract.Call) bool {
	if c.Func == nil {
		return false
	}
	if c.Expr != nil && c.Expr.Recv == nil && strings.Contains(c.Expr.Name, ".") && len(c.Recv) > 0 {
		return scratchFlow(c.Func, c.Recv, 0)
	}
	for _, a := range c.Args {
		if a.Pos == 0 || a.Kw == "path" || a.Kw == "file" {
			return scratchFlow(c.Func, a.Flow, 0)
		}
	}
	return false
}

// scratchWraps are calls whose result names the file their first argument
// names (a handle opened on it, a path under it).
var scratchWraps = map[string]bool{"os.fdopen": true, "builtins.open": true, "io.open": true, "os.path.join": true,
	"pathlib.Path": true, "os.path.abspath": true, "os.path.realpath": true}

// scratchFlow reports whether every origin of fl is a temporary file
// that does not outlive fn's call (see above), directly or through a
// wrapper of one.
func scratchFlow(fn *extract.Func, fl extract.Flow, depth int) bool {
	if len(fl) == 0 || depth > 4 {
		return false
	}
	for _, o := range fl {
		if o.Param >= 0 || o.Call < 0 || o.Call >= len(fn.Calls) {
			return false
		}
		src := fn.Calls[o.Call]
		switch {
		case strings.HasPrefix(src.Qual, "tempfile."):
			if !selfDeleting(src) && !deletedIn(fn, o.Call) {
				return false
			}
		case scratchWraps[src.Qual] && len(src.Args) > 0 && src.Args[0].Pos == 0:
			if !scratchFlow(fn, src.Args[0].Flow, depth+1) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// selfDeleting reports a tempfile object that removes its file when closed
// or collected.
func selfDeleting(c *extract.Call) bool {
	switch extract.LastDot(c.Qual) {
	case "TemporaryFile", "SpooledTemporaryFile", "TemporaryDirectory":
		return true
	case "NamedTemporaryFile":
		for _, a := range c.Args {
			if a.Kw == "delete" || a.Kw == "delete_on_close" {
				return false // whatever it says, do not guess
			}
		}
		return true
	}
	return false
}

// fileDeletes are the calls that remove a path.
var fileDeletes = map[string]bool{"os.unlink": true, "os.remove": true, "os.rmdir": true, "shutil.rmtree": true}

// deletedIn reports whether fn deletes the path the call at index made
// (its result, or a path under it).
func deletedIn(fn *extract.Func, index int) bool {
	for _, c := range fn.Calls {
		if !fileDeletes[c.Qual] {
			continue
		}
		for _, a := range c.Args {
			if a.Pos == 0 && madeBy(fn, a.Flow, index, 0) {
				return true
			}
		}
	}
	return false
}

// madeBy reports whether some origin of fl is the call at index, directly
// or through a wrapper.
func madeBy(fn *extract.Func, fl extract.Flow, index, depth int) bool {
	if depth > 4 {
		return false
	}
	for _, o := range fl {
		if o.Call == index {
			return true
		}
		if o.Call >= 0 && o.Call < len(fn.Calls) {
			if src := fn.Calls[o.Call]; scratchWraps[src.Qual] && len(src.Args) > 0 && madeBy(fn, src.Args[0].Flow, index, depth+1) {
				return true
			}
		}
	}
	return false
}

// Credential caches. Google's OAuth quickstart, copied into most Gmail and
// Calendar tools, saves the user's refreshed credentials for the next run
// (with open("token.json", "w") as f: f.write(creds.to_json())) and makes
// the directory for it. What is written is the tool's own login, not
// anything the model chose, and the path is fixed: no state the model can
// direct or read back. A write counts as such a cache when everything it
// writes is a credentials object's serialization and no model-chosen data
// reaches it; an open for writing when every call on its handle is one; a
// directory made at a path no model-chosen data reaches changes nothing
// the model chooses either.

// credentialWrite reports a write whose content is only the serialization
// of a credentials object (creds.to_json(), pickle.dump(creds, f)).
func credentialWrite(fn *extract.Func, c *extract.Call, mask uint64) bool {
	if fn == nil || len(c.Args) == 0 {
		return false
	}
	for _, a := range c.Args {
		if carries(a.Flow, mask) {
			return false
		}
	}
	content := c.Args[0].Flow
	cred := false
	for _, o := range content {
		switch {
		case o.Param >= 0:
			// a path or value the caller passed, not model-chosen (mask)
		case o.Call < 0 || o.Call >= len(fn.Calls):
			return false
		case credentialValue(fn.Calls[o.Call]):
			cred = true
		case strings.HasPrefix(fn.Calls[o.Call].Qual, "os.path.") || strings.HasPrefix(fn.Calls[o.Call].Qual, "pathlib."):
			// the file's path, which the walker's flow of the handle carries
		default:
			return false
		}
	}
	return cred
}

// credentialValue reports a call that makes or serialises an OAuth
// credentials object of Google's auth libraries (Credentials.from_*,
// flow.run_local_server(), creds.to_json()).
func credentialValue(src *extract.Call) bool {
	for _, p := range []string{"google.oauth2.", "google.auth.", "google_auth_oauthlib."} {
		if strings.HasPrefix(src.Qual, p) {
			return true
		}
	}
	return false
}

// credentialCacheOpen reports an open for writing at idx in fn whose every
// write is a credential write.
func credentialCacheOpen(fn *extract.Func, idx int, mask uint64) bool {
	if fn == nil || idx < 0 {
		return false
	}
	used := false
	for _, c := range fn.Calls {
		onHandle := false
		for _, o := range c.Recv {
			if o.Param < 0 && o.Call == idx {
				onHandle = true
			}
		}
		if !onHandle {
			continue
		}
		if !credentialWrite(fn, c, mask) {
			return false
		}
		used = true
	}
	return used
}

// fixedDirectory reports a directory creation (os.makedirs, os.mkdir,
// Path.mkdir) whose path no model-chosen data reaches.
func fixedDirectory(c *extract.Call, mask uint64) bool {
	switch c.Qual {
	case "os.makedirs", "os.mkdir":
	default:
		if !strings.HasSuffix(c.Qual, "pathlib.Path.mkdir") && !strings.HasSuffix(c.Qual, "Path().mkdir") {
			return false
		}
	}
	for _, a := range c.Args {
		if carries(a.Flow, mask) {
			return false
		}
	}
	return !carries(c.Recv, mask)
}

// callIndex is the index of c among its function's calls (by where it is
// written: the analyzer may hand decisions a rewritten copy), or -1.
func callIndex(c *extract.Call) int {
	if c.Func == nil {
		return -1
	}
	for i, x := range c.Func.Calls {
		if x == c || x.Loc == c.Loc {
			return i
		}
	}
	return -1
}
