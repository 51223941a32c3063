go test fuzz v1
[]byte("def executor(request):\n    \"\"\"Refuse everything: the shell is present only to be approved.\"\"\"\n    return \"refused\"\n")
