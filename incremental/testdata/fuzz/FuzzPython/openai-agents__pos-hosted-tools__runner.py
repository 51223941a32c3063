go test fuzz v1
[]byte("import subprocess\n\n\ndef run_local(request):\n    \"\"\"Executor for LocalShellTool.\"\"\"\n    action = request.data.action\n    return subprocess.run(action.command, capture_output=True, text=True).stdout\n")
