import ast
import operator
from dataclasses import dataclass, field

from pydantic import BaseModel

from langchain_core.tools import tool
from langgraph.prebuilt import create_react_agent


@dataclass
class Draft:
    to: str
    body: str


class Outbox:
    items: list[Draft]

    def __init__(self) -> None:
        self.items = []

    def add(self, draft: Draft) -> int:
        self.items.append(draft)
        return self._count()

    def _count(self) -> int:
        return len(self.items)


OUTBOX = Outbox()


class Settings:
    def __init__(self, tone: str = "plain", limit: int = 3) -> None:
        self.tone = tone
        self.limit = limit

    @classmethod
    def from_config(cls, cfg: dict) -> "Settings":
        values = {k: v for k, v in cfg.items() if k in ("tone", "limit")}
        return cls(**values)

    def describe(self) -> str:
        return "{} ({})".format(self.tone, self.limit)


# kept for compatibility: the alias names the same class
LegacySettings = Settings


class Prefs(BaseModel):
    tone: str = "plain"
    length: int = 3

    @classmethod
    def from_runnable_config(cls, config: dict) -> "Prefs":
        values = {k: config.get(k) for k in cls.model_fields.keys()}
        return cls(**{k: v for k, v in values.items() if v})


_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv}


@tool
def calculate(expression: str) -> str:
    """Evaluate an arithmetic expression."""

    def _eval(node):
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.BinOp):
            return _OPS[type(node.op)](_eval(node.left), _eval(node.right))
        raise ValueError("unsupported expression")

    return str(_eval(ast.parse(expression, mode="eval").body))


@tool
def draft_reply(to: str, body: str) -> str:
    """Save a reply as a draft for the user to review."""
    draft = Draft(to=to, body=body)
    OUTBOX.items.append(draft)
    n = OUTBOX.add(Draft(to=to, body=body.strip()))
    return f"{n} drafts waiting"


@tool
def describe_settings(tone: str) -> str:
    """Describe the reply settings for a tone."""
    settings = Settings.from_config({"tone": tone})
    return settings.describe()


@tool
def evaluate(operation: str) -> str:
    """Evaluate an arithmetic expression, reporting errors as text."""
    try:
        tree = ast.parse(operation, mode="eval")

        def _eval_node(node):
            if isinstance(node, ast.Expression):
                return _eval_node(node.body)
            if isinstance(node, ast.Constant):
                return node.value
            if isinstance(node, ast.BinOp):
                return _OPS[type(node.op)](_eval_node(node.left), _eval_node(node.right))
            raise ValueError("unsupported")

        return str(_eval_node(tree))
    except Exception as e:
        return f"Error: {e}"


@tool
def preferences(config: dict) -> str:
    """Describe the preferences in a config."""
    p = Prefs.from_runnable_config(config)
    legacy = LegacySettings.from_config({"tone": p.tone})
    return p.model_dump_json() + legacy.describe()


class MathTools:
    @tool("Make a calculation")
    def calculate_in_class(operation: str) -> str:
        """Evaluate an expression (a tool defined in a class body)."""
        try:

            def _eval_node(node):
                if isinstance(node, ast.Expression):
                    return _eval_node(node.body)
                if isinstance(node, ast.BinOp):
                    return _OPS[type(node.op)](_eval_node(node.left), _eval_node(node.right))
                return node.value

            return str(_eval_node(ast.parse(operation, mode="eval")))
        except ValueError as e:
            return f"Error: {e}"


assistant = create_react_agent("openai:gpt-4o", [calculate, draft_reply, describe_settings, evaluate, preferences,
                                           MathTools.calculate_in_class])
