package lsp

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/acg-dev/acg/extract"
	"github.com/acg-dev/acg/incremental"
	"github.com/acg-dev/acg/policy"
	"github.com/acg-dev/acg/prove/provers"
)

// folder is one workspace folder: its live workspace, the analysis
// schedule (debounce, cancel the stale run, publish when current) and what
// was published.
type folder struct {
	s    *Server
	root string
	ws   *incremental.Workspace

	mu        sync.Mutex
	loaded    bool // the first disk scan finished: analysing before it would report half a workspace
	closed    bool
	timer     *time.Timer
	pending   bool // a change waits for the debounce
	cancelRun context.CancelFunc
	running   chan struct{} // closed when the current run ends
	disk      map[string]bool
	latest    *analysis     // the newest finished analysis
	failedSeq uint64        // a run that failed for this snapshot: waiters take latest
	updated   chan struct{} // closed and replaced whenever latest changes
	obs       observedCache // the traces setting's analysis (hover)
	uris      map[string]uri.URI
	unsynced  map[string]syncLost // open documents whose text the server lost track of
	watcher   *incremental.Watcher
	pub       publisher
	store     provers.Store                 // the external provers' flows
	proving   map[string]context.CancelFunc // running external provers, by prover and file
}

// analysis is a snapshot and its findings: positions in the findings are
// byte offsets into that snapshot's texts.
type analysis struct {
	snap *incremental.Snapshot
	res  *incremental.Result

	// view, when set, is a newer snapshot that differs from snap by comment
	// edits only (incremental.Snapshot.ShiftsSince): the findings are
	// view's too once their offsets in the edited files move by shifts.
	// Such an analysis is only published, never kept as latest: requests
	// get an analysis of their own snapshot.
	view   *incremental.Snapshot
	shifts []incremental.Shift
}

// texts is the snapshot whose texts the diagnostics are positioned in.
func (a *analysis) texts() *incremental.Snapshot {
	if a.view != nil {
		return a.view
	}
	return a.snap
}

// touched lists, for an analysis moved along (view), the files whose
// diagnostics may move: the shifted files and those of findings with a
// step or related location in one.
func (a *analysis) touched(st Settings) map[string]bool {
	in := map[string]bool{}
	for _, sh := range a.shifts {
		in[sh.Path] = true
	}
	shifted := maps.Clone(in)
	for _, fd := range a.findings(st) {
		if in[fd.Loc.File] {
			continue
		}
		for _, steps := range [][]policy.Step{fd.AllSteps(), fd.AllRelated()} {
			for _, s := range steps {
				if shifted[s.Loc.File] {
					in[fd.Loc.File] = true
				}
			}
		}
	}
	return in
}

// offset moves a byte offset of snap's file rel to texts'.
func (a *analysis) offset(rel string, off int) int {
	for _, sh := range a.shifts {
		if sh.Path == rel {
			off = sh.Map(off)
		}
	}
	return off
}

// findings are the analysis' findings as the settings report them: those
// in test code at info unless includeTests is set (policy.ForTests), then
// the config's threshold, as acg scan does.
func (a *analysis) findings(st Settings) []*policy.Finding {
	min := ""
	if a.res.Config != nil {
		min = a.res.Config.SeverityThreshold
	}
	return policy.ForTests(a.res.Findings, st.IncludeTests, min)
}

func newFolder(s *Server, root string) *folder {
	f := &folder{s: s, root: root, disk: map[string]bool{}, updated: make(chan struct{}), uris: map[string]uri.URI{},
		unsynced: map[string]syncLost{}, proving: map[string]context.CancelFunc{}}
	f.ws = incremental.NewWorkspace(root, func(m string) {
		// The same failure comes back with every analysis until the code
		// changes: say it once.
		first, _, _ := strings.Cut(m, "\n")
		s.logOnce(protocol.MessageTypeError, root+"\x00"+first, "%s", m)
	})
	f.pub.published = map[string]string{}
	return f
}

// rel maps an absolute path into the folder.
func (f *folder) rel(path string) (string, bool) {
	r, err := filepath.Rel(f.root, path)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) || filepath.IsAbs(r) {
		return "", false
	}
	return filepath.ToSlash(r), true
}

// uriOf is the URI for a path of the folder: the client's own URI for an
// open document, else the file URI.
func (f *folder) uriOf(rel string) uri.URI {
	f.mu.Lock()
	u, ok := f.uris[rel]
	f.mu.Unlock()
	if ok {
		return u
	}
	if strings.HasPrefix(rel, extract.UserPrefix) {
		// A user-level file (acg.userConfig): its own file, so that its
		// diagnostics show where the setting is. Messages keep the ~ name.
		if home, err := os.UserHomeDir(); err == nil {
			return uri.File(filepath.Join(home, filepath.FromSlash(strings.TrimPrefix(rel, extract.UserPrefix))))
		}
	}
	return uri.File(filepath.Join(f.root, filepath.FromSlash(rel)))
}

// loadUser reads the user-level files when acg.userConfig is on (or drops
// them when it is off), then analyses again if asked.
func (f *folder) loadUser(run bool) {
	var files []*incremental.File
	if f.s.settingsNow().UserConfig {
		home, _ := os.UserHomeDir()
		var warns []incremental.Warning
		files, warns = incremental.UserConfigFiles(f.s.ctx, home, f.root)
		for _, w := range warns {
			f.s.logOnce(protocol.MessageTypeWarning, f.root+"\x00"+w.String(), "%s", w.String())
		}
	}
	f.ws.SetUserFiles(files)
	f.mu.Lock()
	loaded := f.loaded
	f.mu.Unlock()
	if run && loaded {
		f.runNow()
	}
}

// start scans the folder from disk, then analyses it, and watches it.
func (f *folder) start() {
	go func() {
		defer f.recoverRun("the first scan of " + f.root)
		p := f.s.startProgress("acg: scanning " + filepath.Base(f.root))
		warns, err := f.ws.Load(f.s.ctx, p.report)
		if err != nil {
			p.end("failed")
			f.s.logf(protocol.MessageTypeError, "scan %s: %v", f.root, err)
			return
		}
		f.logWarnings(warns)
		f.loadUser(false)
		n := len(f.ws.Snapshot().Files())
		p.end(fmt.Sprintf("%d files", n))
		f.s.logf(protocol.MessageTypeInfo, "scanned %s: %d files", f.root, n)
		if !f.s.opts.NoWatch {
			w, err := incremental.Watch(f.root, f.diskChanged, func(m string) { f.s.logf(protocol.MessageTypeWarning, "%s", m) })
			if err != nil {
				f.s.logf(protocol.MessageTypeWarning, "not watching %s: %v", f.root, err)
			}
			f.mu.Lock()
			if f.closed && w != nil {
				_ = w.Close()
			} else {
				f.watcher = w
			}
			f.mu.Unlock()
		}
		f.mu.Lock()
		f.loaded = true
		f.mu.Unlock()
		f.runNow()
		f.proveTree()
	}()
}

func (f *folder) logWarnings(warns []incremental.Warning) {
	for _, w := range warns {
		f.s.logOnce(protocol.MessageTypeWarning, f.root+"\x00"+w.String(), "%s: %s", filepath.Join(f.root, filepath.FromSlash(w.Path)), w.Message)
	}
}

// close stops the watcher, the timer and any run.
func (f *folder) close() {
	f.mu.Lock()
	f.closed = true
	if f.timer != nil {
		f.timer.Stop()
	}
	if f.cancelRun != nil {
		f.cancelRun()
	}
	for _, cancel := range f.proving {
		cancel()
	}
	w := f.watcher
	f.watcher = nil
	f.mu.Unlock()
	if w != nil {
		_ = w.Close()
	}
}

// changed schedules an analysis after the debounce delay.
func (f *folder) changed() {
	d := f.s.settingsNow().debounce()
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed || !f.loaded {
		return // the first scan ends with an analysis anyway
	}
	if f.timer != nil {
		f.timer.Stop()
	}
	f.pending = true
	f.timer = time.AfterFunc(d, func() { f.runWith(false) })
}

// diskChanged hears files changed on disk (the watcher, or the client's
// didChangeWatchedFiles): they are read again by the next run.
func (f *folder) diskChanged(rels []string) {
	f.mu.Lock()
	for _, r := range rels {
		f.disk[r] = true
	}
	f.mu.Unlock()
	f.changed()
}

// runNow cancels a stale run and starts an analysis of the current
// snapshot.
func (f *folder) runNow() { f.runWith(true) }

// runWith is runNow; without full, a snapshot that differs from the latest
// analysis by comment edits only is not analysed: that analysis, moved
// along, is published again (early cutoff, see incremental.Shift).
func (f *folder) runWith(full bool) {
	f.mu.Lock()
	if f.closed || !f.loaded {
		f.mu.Unlock()
		return
	}
	if f.timer != nil {
		f.timer.Stop()
	}
	f.pending = false
	if f.cancelRun != nil {
		f.cancelRun()
	}
	ctx, cancel := context.WithCancel(f.s.ctx)
	prev := f.running
	done := make(chan struct{})
	f.cancelRun, f.running = cancel, done
	var disk []string
	for r := range f.disk {
		disk = append(disk, r)
	}
	f.disk = map[string]bool{}
	f.mu.Unlock()
	go func() {
		defer close(done)
		defer cancel()
		if prev != nil {
			<-prev // one run at a time: the Analyzer keeps state
		}
		f.run(ctx, disk, full)
	}()
}

func (f *folder) run(ctx context.Context, disk []string, full bool) {
	var snap *incremental.Snapshot
	defer func() {
		if v := recover(); v != nil {
			f.s.logf(protocol.MessageTypeError, "analysis of %s failed: %v\n%s", f.root, v, debug.Stack())
			if snap != nil {
				f.mu.Lock()
				f.failedSeq = snap.Seq
				close(f.updated)
				f.updated = make(chan struct{})
				f.mu.Unlock()
			}
		}
	}()
	if len(disk) > 0 {
		_, warns := f.ws.Refresh(disk)
		f.logWarnings(warns)
	}
	snap = f.ws.Snapshot()
	if !full && len(disk) == 0 && f.cutoff(snap) {
		return
	}
	f.logSkipped(snap)
	res, err := f.ws.Analyze(ctx, snap, f.store.Flows(snap))
	if err != nil && ctx.Err() == nil {
		panic(err) // not a cancellation: reported and counted as a failed run below
	}
	if err != nil {
		// Cancelled: if it was for a newer change, that change's run follows;
		// if some rescan or shutdown took the context, put the disk paths back.
		f.mu.Lock()
		for _, r := range disk {
			f.disk[r] = true
		}
		f.mu.Unlock()
		return
	}
	a := &analysis{snap: snap, res: res}
	// The latest before it is published: a sync mark set while it goes
	// out (a rejected edit, text_sync.go) republishes this analysis, so
	// it must already be the one republish finds. Published before
	// waiters are told: whoever waited for this analysis (a request,
	// acg.rescan) then also finds it published. A newer snapshot's run
	// publishes for it instead.
	f.mu.Lock()
	f.latest = a
	f.mu.Unlock()
	if f.ws.Snapshot().Seq == snap.Seq {
		f.publish(a)
	}
	f.mu.Lock()
	close(f.updated)
	f.updated = make(chan struct{})
	f.mu.Unlock()
	f.s.notifyUpdated()
}

// cutoff publishes the latest analysis again for snap when snap differs
// from its snapshot by comment edits only, and reports whether it did.
// Clients that pull are left alone: a pull awaits an analysis of its own.
// So are stored external flows, which a prover gave for the old bytes.
func (f *folder) cutoff(snap *incremental.Snapshot) bool {
	a := f.latestAnalysis()
	if a == nil || f.s.capsNow().pullDiagnostics {
		return false
	}
	shifts, ok := snap.ShiftsSince(a.snap)
	if !ok || len(shifts) == 0 || len(f.store.Flows(a.snap)) > 0 || len(f.store.Flows(snap)) > 0 {
		return false
	}
	if f.ws.Snapshot().Seq == snap.Seq {
		f.publish(&analysis{snap: a.snap, res: a.res, view: snap, shifts: shifts})
	}
	return true
}

// recoverRun keeps a panic in background work from ending the process.
func (f *folder) recoverRun(what string) {
	if v := recover(); v != nil {
		f.s.logf(protocol.MessageTypeError, "%s failed: %v\n%s", what, v, debug.Stack())
	}
}

// logSkipped says once per file and reason why a file is not analysed.
func (f *folder) logSkipped(s *incremental.Snapshot) {
	for _, file := range s.Files() {
		if file.Skipped != "" {
			f.s.logOnce(protocol.MessageTypeWarning, f.root+"\x00"+file.Path+"\x00"+file.Skipped, "%s: %s", filepath.Join(f.root, filepath.FromSlash(file.Path)), file.Skipped)
		}
	}
}

// await returns the analysis of the current state: every change made so
// far (edits, files changed on disk) analysed. A change still waiting for
// the debounce is analysed at once. When the run for the current snapshot
// failed, it returns the newest analysis there is.
func (f *folder) await(ctx context.Context) (*analysis, error) {
	for {
		f.mu.Lock()
		a, ch, failed := f.latest, f.updated, f.failedSeq
		runDone := f.running
		running := runDone != nil && !isClosed(runDone)
		dirty := f.pending || len(f.disk) > 0
		loaded := f.loaded
		f.mu.Unlock()
		target := f.ws.Snapshot().Seq
		if !dirty && !running && a != nil && (a.snap.Seq >= target || failed >= target) {
			return a, nil
		}
		if loaded && (dirty || !running) {
			f.runNow()
			f.mu.Lock()
			runDone = f.running
			f.mu.Unlock()
		}
		select {
		case <-ch:
		case <-runDone:
			// A run ended without news (cancelled for a newer one): look again.
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-f.s.ctx.Done():
			return nil, f.s.ctx.Err()
		}
	}
}

func isClosed(ch chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// latestAnalysis returns the newest finished analysis without waiting.
func (f *folder) latestAnalysis() *analysis {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.latest
}
