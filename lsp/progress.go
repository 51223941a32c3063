package lsp

import (
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"go.lsp.dev/protocol"
)

// progress reports a workspace scan through $/progress when it runs longer
// than Options.ProgressDelay and the client supports work-done progress:
// window/workDoneProgress/create first (answered before the first $/progress
// goes out), then begin, then exactly one end. A scan that ends before the
// delay reports nothing.
type progress struct {
	s     *Server
	title string
	timer *time.Timer

	mu    sync.Mutex
	state int // 0 waiting, 1 creating, 2 begun, 3 ended
	token protocol.ProgressToken
	done  bool
	msg   string
	pct   uint32 // last reported percentage
}

var progressSeq atomic.Int64

func (s *Server) startProgress(title string) *progress {
	p := &progress{s: s, title: title}
	if !s.capsNow().workDoneProgress {
		p.state = 3
		return p
	}
	delay := s.opts.ProgressDelay
	if delay < 0 {
		delay = 0
	}
	p.timer = time.AfterFunc(delay, p.begin)
	return p
}

func (p *progress) begin() {
	p.mu.Lock()
	if p.state != 0 {
		p.mu.Unlock()
		return
	}
	p.state = 1
	p.token = protocol.String(fmt.Sprintf("acg-%d", progressSeq.Add(1)))
	p.mu.Unlock()
	err := p.s.client.WorkDoneProgressCreate(p.s.ctx, &protocol.WorkDoneProgressCreateParams{Token: p.token})
	p.mu.Lock()
	defer p.mu.Unlock()
	if err != nil {
		p.s.logf(protocol.MessageTypeLog, "window/workDoneProgress/create: %v", err)
		p.state = 3
		return
	}
	p.send(protocol.WorkDoneProgressBegin{Kind: "begin", Title: p.title, Cancellable: ptr(false)})
	p.state = 2
	if p.done {
		p.finishLocked()
	}
}

// report says how far the scan is (files read of the total), at most once
// per 5%; only once begun (before that nobody sees it).
func (p *progress) report(done, total int) {
	if total == 0 {
		return
	}
	pct := uint32(done * 100 / total)
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.state != 2 || pct < p.pct+5 && done != total {
		return
	}
	p.pct = pct
	p.send(protocol.WorkDoneProgressReport{Kind: "report", Message: ptr(fmt.Sprintf("%d/%d files", done, total)), Percentage: &pct})
}

// message reports what an external prover is doing (percent -1: unknown).
func (p *progress) message(msg string, percent int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.state != 2 {
		return
	}
	r := protocol.WorkDoneProgressReport{Kind: "report", Message: ptr(msg)}
	if percent >= 0 {
		r.Percentage = ptr(uint32(percent))
	}
	p.send(r)
}

// end finishes the report; it is safe to call once per scan from any
// goroutine, before or after the delay.
func (p *progress) end(msg string) {
	if p.timer != nil {
		p.timer.Stop()
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done, p.msg = true, msg
	switch p.state {
	case 0:
		p.state = 3 // never begun: nothing to end
	case 2:
		p.finishLocked()
	}
	// state 1: begin sends the end once the token exists.
}

func (p *progress) finishLocked() {
	if p.state == 3 {
		return
	}
	p.send(protocol.WorkDoneProgressEnd{Kind: "end", Message: ptr(p.msg)})
	p.state = 3
}

func (p *progress) send(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		return
	}
	_ = p.s.client.Progress(p.s.ctx, &protocol.ProgressParams{Token: p.token, Value: protocol.LSPAny(b)})
}
