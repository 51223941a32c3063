from langchain_core.tools import tool
from langgraph.prebuilt import create_react_agent


class SchemaFormatter:
    """Formats a table schema for a prompt: string work only."""

    @classmethod
    def format_schema(cls, ddl: str) -> str:
        tables = cls._tables(ddl)
        return "\n".join(cls._line(t) for t in tables)

    @classmethod
    def _tables(cls, ddl: str) -> list[str]:
        return [part.strip() for part in ddl.split(";") if part.strip()]

    @staticmethod
    def _line(table: str) -> str:
        return "- " + table.splitlines()[0]


@tool
def describe_schema(ddl: str) -> str:
    """Describe a schema given as DDL."""
    return SchemaFormatter.format_schema(ddl)


schema_agent = create_react_agent("openai:gpt-4.1", tools=[describe_schema])
