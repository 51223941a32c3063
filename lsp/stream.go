package lsp

import (
	"context"
	"encoding/json"
	"fmt"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// codec marshals payloads with the protocol package's union-aware JSON, as
// protocol.NewServer does; we build the connection ourselves to put our own
// stream and handler chain around it.
type codec struct{}

func (codec) Marshal(v any) ([]byte, error) {
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

func (codec) Unmarshal(data []byte, v any) error {
	if p, ok := v.(*jsonrpc2.RawMessage); ok {
		*p = append(jsonrpc2.RawMessage(nil), data...)
		return nil
	}
	return protocol.Unmarshal(data, v)
}

// frameReader is what jsonrpc2's header stream offers besides Read: the raw
// body of the next frame.
type frameReader interface {
	ReadFrame(ctx context.Context) ([]byte, int64, error)
}

// tolerantStream answers a frame that is not a JSON-RPC message with an
// error response and goes on reading. jsonrpc2 would end the connection on
// it, and a server must survive a client's bad message. Framing errors (a
// missing Content-Length) still end the connection: without a length the
// next frame cannot be found.
type tolerantStream struct {
	jsonrpc2.Stream
	frames frameReader
	log    func(string)
}

func newTolerantStream(s jsonrpc2.Stream, log func(string)) jsonrpc2.Stream {
	fr, ok := s.(frameReader)
	if !ok {
		return s
	}
	return &tolerantStream{Stream: s, frames: fr, log: log}
}

// Read returns the next well-formed message. It deliberately has no
// ReadFrame method, so the connection decodes through it.
func (s *tolerantStream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	for {
		body, n, err := s.frames.ReadFrame(ctx)
		if err != nil {
			return nil, n, err
		}
		msg, err := jsonrpc2.DecodeMessage(body)
		if err == nil {
			return msg, n, nil
		}
		id, code := badMessageID(body)
		s.log(fmt.Sprintf("malformed message (%v): answered with an error", err))
		rerr := jsonrpc2.NewError(code, "acg-lsp: malformed JSON-RPC message: "+err.Error())
		if _, werr := s.Stream.Write(ctx, jsonrpc2.NewResponse(id, nil, rerr)); werr != nil {
			return nil, 0, werr
		}
	}
}

// badMessageID recovers the id of a malformed request when its JSON is
// readable, so the error answers it; otherwise the id is null (JSON-RPC 2.0
// §5: parse errors and unidentifiable requests get a null id).
func badMessageID(body []byte) (jsonrpc2.ID, jsonrpc2.Code) {
	var probe struct {
		ID json.RawMessage `json:"id"`
	}
	if err := json.Unmarshal(body, &probe); err != nil {
		return jsonrpc2.ID{}, jsonrpc2.ParseError
	}
	var n int64
	if json.Unmarshal(probe.ID, &n) == nil {
		return jsonrpc2.NewNumberID(n), jsonrpc2.InvalidRequest
	}
	var str string
	if json.Unmarshal(probe.ID, &str) == nil {
		return jsonrpc2.NewStringID(str), jsonrpc2.InvalidRequest
	}
	return jsonrpc2.ID{}, jsonrpc2.InvalidRequest
}
