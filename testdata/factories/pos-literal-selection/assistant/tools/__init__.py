from assistant.tools.base import get_tools

__all__ = ["get_tools"]
