def executor(request):
    """Refuse everything: the shell is present only to be approved."""
    return "refused"
