// Package python is the Python front end: it parses a file with
// tree-sitter, copies the tree (extract/syntax), walks every function into
// the shared flow facts and runs the Python framework adapters (LangGraph
// and LangChain, OpenAI Agents SDK, CrewAI, PydanticAI, Google ADK,
// Microsoft Agent Framework, smolagents, MCP clients and servers).
//
// Invariant: Extract is a pure function of the path and the bytes; it
// never resolves anything in another file (imports stay qualified names
// for incremental to resolve).
package python
