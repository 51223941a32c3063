import subprocess
from pathlib import Path


class WorkspaceEditor:
    """Applies patches under the workspace."""

    def update_file(self, operation):
        Path(operation.path).write_text(operation.diff)


def run_command(request):
    """Executor for ShellTool."""
    return subprocess.run(request.data.action.commands[0], shell=True, capture_output=True, text=True).stdout
