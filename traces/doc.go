// Package traces reads recorded agent runs and finds the dangerous tool
// sequences the agent really walked: OpenTelemetry spans (OTLP JSON as the
// Collector's file exporter writes it, the OpenTelemetry Python SDK's
// console/file span JSON, OTLP protobuf), the OpenAI Agents SDK's trace
// export, Langfuse trace exports and Claude Code tool-call logs written by
// a hook (docs/traces.md).
//
// Every reader turns its format into Sessions: the ordered tool calls and
// approval events of one conversation. Analyze labels each call (from the
// static analysis of the same tree when one is given, else the catalog and
// aliases, else fail closed) and reports an observed chain where an
// untrusted read is followed, in any order, by a private read and an
// outward action with no approval of that action between, plus the
// dangerous-chain patterns applied to the ordered calls.
//
// Arguments and results never leave the package whole: a call keeps only a
// short preview, with secrets masked by the config-secret rules
// (internal/secret), so no output can carry what a tool read.
package traces
