go test fuzz v1
[]byte("\"\"\"Tool package: re-exports the notes reader.\"\"\"\nfrom .notes import read_notes\n\n__all__ = [\"read_notes\"]\n")
