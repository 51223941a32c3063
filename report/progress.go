package report

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/acg-dev/acg/internal/termsafe"
)

// Progress draws a one-line progress bar on a terminal for scans that take
// longer than a second; quick scans and non-terminals get nothing. It is
// safe for concurrent use; Stop must be called (it clears the line).
type Progress struct {
	mu      sync.Mutex
	w       io.Writer
	start   time.Time
	now     func() time.Time
	phase   string
	done    int
	total   int
	drawn   bool
	stop    chan struct{}
	stopped sync.WaitGroup
}

// ProgressDelay is how long a scan runs before the bar appears.
const ProgressDelay = time.Second

// NewProgress starts a progress display on w, or a silent one when w is
// not a terminal.
func NewProgress(w io.Writer) *Progress {
	p := &Progress{w: w, start: time.Now(), now: time.Now, phase: "reading files"}
	if !IsTerminal(w) {
		return p
	}
	p.stop = make(chan struct{})
	p.stopped.Add(1)
	go func() {
		defer p.stopped.Done()
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-p.stop:
				return
			case <-t.C:
				p.mu.Lock()
				p.draw()
				p.mu.Unlock()
			}
		}
	}()
	return p
}

// Files records how many files have been read.
func (p *Progress) Files(done, total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if done > p.done {
		p.done = done
	}
	p.total = total
}

// Phase names the current step ("analysing").
func (p *Progress) Phase(name string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.phase = name
}

// Stop ends the display and clears its line.
func (p *Progress) Stop() {
	if p.stop != nil {
		close(p.stop)
		p.stopped.Wait()
		p.stop = nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.drawn {
		fmt.Fprint(p.w, "\r\033[K")
		p.drawn = false
	}
}

// draw writes the current line once the delay has passed. Callers hold mu.
func (p *Progress) draw() {
	el := p.now().Sub(p.start)
	if el < ProgressDelay {
		return
	}
	fmt.Fprint(p.w, "\r\033[K"+p.line(el))
	p.drawn = true
}

const barWidth = 30

func (p *Progress) line(el time.Duration) string {
	secs := fmt.Sprintf("%.1fs", el.Seconds())
	phase := termsafe.String(p.phase) // the line is redrawn in place: it must not move the cursor
	if p.phase != "reading files" || p.total == 0 {
		return fmt.Sprintf("acg: %s (%d files) %s", phase, p.total, secs)
	}
	filled := barWidth * p.done / p.total
	bar := strings.Repeat("=", filled)
	if filled < barWidth {
		bar += ">" + strings.Repeat(" ", barWidth-filled-1)
	}
	return fmt.Sprintf("acg: %s [%s] %d/%d %s", phase, bar, p.done, p.total, secs)
}

// IsTerminal reports whether w is a character device (a terminal).
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// UseColor reports whether text written to w should be coloured: only on
// a terminal, and never when NO_COLOR is set or TERM is dumb.
func UseColor(w io.Writer) bool {
	return IsTerminal(w) && os.Getenv("NO_COLOR") == "" && os.Getenv("TERM") != "dumb"
}
