//go:build !unix

package proc

import "os/exec"

func setGroup(cmd *exec.Cmd) {}
