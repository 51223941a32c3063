// Package incremental owns the workspace: the files of a scan root, their
// parse trees and extracted facts keyed by content, cross-file resolution,
// and immutable snapshots that the CLI and the language server analyse with
// the same pipeline (extract → resolve → effects → capgraph → policy).
package incremental
