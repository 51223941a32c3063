package incremental

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Watcher reports files of a root that change on disk (an edit in another
// tool, a save, a git checkout), as paths relative to the root. It watches
// every directory that Discover would descend into; fsnotify is not
// recursive, so directories created later are added as they appear.
type Watcher struct {
	root    string
	fw      *fsnotify.Watcher
	onFiles func(rels []string)
	log     func(string)
	settle  time.Duration

	mu      sync.Mutex
	pending map[string]bool
	timer   *time.Timer
	done    chan struct{}
}

// Watch starts watching root. onFiles receives batches of changed paths
// (created, written, removed or renamed) once events have been quiet for a
// short while, since one save often makes several events.
func Watch(root string, onFiles func(rels []string), log func(string)) (*Watcher, error) {
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	w := &Watcher{root: root, fw: fw, onFiles: onFiles, log: log, settle: 50 * time.Millisecond,
		pending: map[string]bool{}, done: make(chan struct{})}
	w.addTree(root)
	go w.loop()
	return w, nil
}

// Close stops watching.
func (w *Watcher) Close() error {
	err := w.fw.Close()
	<-w.done
	w.mu.Lock()
	if w.timer != nil {
		w.timer.Stop()
	}
	w.mu.Unlock()
	return err
}

// addTree watches dir and the directories below it, and returns the files
// found there (a directory that appears with files in it gives no event for
// them).
func (w *Watcher) addTree(dir string) []string {
	var files []string
	walk := dir
	if dir == w.root {
		// The root may be a link (the user's choice): WalkDir does not
		// follow a link it starts at, but does follow "link/".
		walk = strings.TrimSuffix(dir, string(filepath.Separator)) + string(filepath.Separator)
	}
	_ = filepath.WalkDir(walk, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if !d.IsDir() {
			if rel, ok := w.rel(p); ok && Kind(rel) != "" {
				files = append(files, rel)
			}
			return nil
		}
		if p != walk && skipDirs[d.Name()] {
			return fs.SkipDir
		}
		if err := w.fw.Add(p); err != nil {
			w.logf("not watching %s: %v", p, err)
		}
		return nil
	})
	return files
}

func (w *Watcher) rel(p string) (string, bool) {
	rel, err := filepath.Rel(w.root, p)
	if err != nil || rel == "." || rel == ".." || len(rel) > 2 && rel[:3] == ".."+string(filepath.Separator) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

func (w *Watcher) loop() {
	defer close(w.done)
	for {
		select {
		case ev, ok := <-w.fw.Events:
			if !ok {
				return
			}
			w.event(ev)
		case err, ok := <-w.fw.Errors:
			if !ok {
				return
			}
			// An overflow loses events: callers should treat it as "anything
			// may have changed", which a rescan covers.
			w.logf("file watcher: %v", err)
		}
	}
}

func (w *Watcher) event(ev fsnotify.Event) {
	if ev.Op == fsnotify.Chmod {
		return
	}
	var rels []string
	if ev.Has(fsnotify.Create) {
		// Lstat: a link to a directory is not descended into (ReadInRoot
		// would refuse every file below it anyway).
		if info, err := os.Lstat(ev.Name); err == nil && info.IsDir() {
			if !skipDirs[filepath.Base(ev.Name)] {
				rels = w.addTree(ev.Name)
			}
		}
	}
	if rel, ok := w.rel(ev.Name); ok && (Kind(rel) != "" || ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename)) {
		// A removed or renamed directory gives no events for its files:
		// Workspace.Refresh expands a directory path to the files under it.
		rels = append(rels, rel)
	}
	if len(rels) == 0 {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, r := range rels {
		w.pending[r] = true
	}
	if w.timer == nil {
		w.timer = time.AfterFunc(w.settle, w.flush)
	} else {
		w.timer.Reset(w.settle)
	}
}

func (w *Watcher) flush() {
	w.mu.Lock()
	rels := make([]string, 0, len(w.pending))
	for r := range w.pending {
		rels = append(rels, r)
	}
	w.pending = map[string]bool{}
	w.mu.Unlock()
	if len(rels) == 0 {
		return
	}
	sort.Strings(rels)
	w.onFiles(rels)
}

func (w *Watcher) logf(format string, args ...any) {
	if w.log != nil {
		w.log(fmt.Sprintf(format, args...))
	}
}
