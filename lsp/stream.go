package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// Codec marshals payloads with the protocol package's union-aware JSON, as
// protocol.NewServer does; we build the connection ourselves to put our own
// stream and handler chain around it. Clients of the server (the test
// client, acg demo's) use it too.
type Codec struct{}

func (Codec) Marshal(v any) ([]byte, error) {
	switch m := v.(type) {
	case jsonrpc2.RawMessage:
		if m == nil {
			return []byte("null"), nil
		}
		return m, nil
	case *jsonrpc2.RawMessage:
		if m == nil || *m == nil {
			return []byte("null"), nil
		}
		return *m, nil
	}
	return protocol.Marshal(v)
}

func (Codec) Unmarshal(data []byte, v any) error {
	if p, ok := v.(*jsonrpc2.RawMessage); ok {
		*p = append(jsonrpc2.RawMessage(nil), data...)
		return nil
	}
	// A private copy: go.lsp.dev/protocol decodes some values (a result
	// that is a slice of unions, []CommandOrCodeAction) with strings that
	// alias the bytes it is given, and the connection reuses its read
	// buffer for the next message, which then overwrote a decoded title.
	return protocol.Unmarshal(slices.Clone(data), v)
}

// stream is the connection's message stream: our own frame reader for what
// the client sends (frames.go), go.lsp.dev's header framing for what we
// write. A frame that is not a JSON-RPC message is answered with an error
// and reading goes on; jsonrpc2 would end the connection on it, and a
// server must survive a client's bad message.
type stream struct {
	jsonrpc2.Stream // Write and Close; Read is ours
	frames          *frameReader
	log             func(string)
}

func newStream(rwc io.ReadWriteCloser, log func(string)) *stream {
	return &stream{Stream: jsonrpc2.NewHeaderStream(rwc), frames: newFrameReader(rwc, log), log: log}
}

// Read returns the next well-formed message. It deliberately has no
// ReadFrame method, so the connection decodes through it.
func (s *stream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, 0, err
		}
		f, err := s.frames.next()
		if err != nil {
			return nil, 0, err
		}
		var rerr error
		if f.dropped != "" {
			// The framing was wrong: whatever the bytes say, they are not
			// acted on. A request whose id is readable gets an error, so its
			// caller does not wait for an answer that will not come.
			s.log(f.dropped)
			id, _, ok := badMessageID(f.body)
			if !ok {
				continue
			}
			rerr = jsonrpc2.NewError(jsonrpc2.InvalidRequest, "acg-lsp: message dropped: "+f.dropped)
			if _, werr := s.Stream.Write(ctx, jsonrpc2.NewResponse(id, nil, rerr)); werr != nil {
				return nil, 0, werr
			}
			continue
		}
		// A decoded message borrows its bytes, and the frame reader reuses
		// its buffer for the next frame while a response to one of our own
		// calls may still be waiting to be unmarshalled: the message gets
		// bytes of its own.
		msg, err := jsonrpc2.DecodeMessage(bytes.Clone(f.body))
		if err == nil {
			return msg, f.size, nil
		}
		// A body that is not a message may hold the next frame's header:
		// its Content-Length claimed too much. Read on from there.
		body := s.frames.reject()
		id, code, _ := badMessageID(body)
		s.log(fmt.Sprintf("malformed message (%v): answered with an error", err))
		rerr = jsonrpc2.NewError(code, "acg-lsp: malformed JSON-RPC message: "+err.Error())
		if _, werr := s.Stream.Write(ctx, jsonrpc2.NewResponse(id, nil, rerr)); werr != nil {
			return nil, 0, werr
		}
	}
}

// badMessageID recovers the id of a malformed request when its JSON is
// readable, so the error answers it; otherwise the id is null (JSON-RPC 2.0
// §5: parse errors and unidentifiable requests get a null id). ok says
// whether an id was found.
func badMessageID(body []byte) (id jsonrpc2.ID, code jsonrpc2.Code, ok bool) {
	var probe struct {
		ID json.RawMessage `json:"id"`
	}
	if err := json.Unmarshal(body, &probe); err != nil {
		return jsonrpc2.ID{}, jsonrpc2.ParseError, false
	}
	var n int64
	if json.Unmarshal(probe.ID, &n) == nil {
		return jsonrpc2.NewNumberID(n), jsonrpc2.InvalidRequest, true
	}
	var str string
	if json.Unmarshal(probe.ID, &str) == nil {
		return jsonrpc2.NewStringID(str), jsonrpc2.InvalidRequest, true
	}
	return jsonrpc2.ID{}, jsonrpc2.InvalidRequest, false
}
