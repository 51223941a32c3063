package lsptest

import "github.com/acg-dev/acg/internal/gentree"

// GenWorkspace is gentree.WorkspaceLines: nFiles Python files, one of them
// an agent module of about agentLines lines, whose path relative to dir it
// returns.
func GenWorkspace(dir string, nFiles, agentLines int) (string, error) {
	return gentree.WorkspaceLines(dir, nFiles, agentLines)
}
