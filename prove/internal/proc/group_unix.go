//go:build unix

package proc

import (
	"os/exec"
	"syscall"
)

// setGroup starts the tool in its own process group and kills the whole
// group on cancel: Opengrep and CodeQL run helper processes of their own.
func setGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		if cmd.Process == nil {
			return nil
		}
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
