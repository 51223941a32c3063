import subprocess


def run_local(request):
    """Executor for LocalShellTool."""
    action = request.data.action
    return subprocess.run(action.command, capture_output=True, text=True).stdout
