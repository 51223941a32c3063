// Package effects decides what each tool can do: the six effect labels
// (untrusted_input, reads_private, network_egress, writes_state,
// executes_code, irreversible), how each was decided and on what evidence.
//
// Labels come, in order of authority, from a user override (config), the
// tool's own code (rules: every call in its body and in the functions it
// calls, decided per call from rules.yaml), the catalog of prebuilt tools
// and MCP servers (catalog), MCP tool annotations (annotation), name
// aliases (alias), and otherwise the fail-closed default: a label nothing
// can settle is assumed present (default). Weak evidence never removes a
// capability; only code that was read, a catalog entry or an override does.
package effects
