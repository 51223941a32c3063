"""Tool package: re-exports the notes reader."""
from .notes import read_notes

__all__ = ["read_notes"]
