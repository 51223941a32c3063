from dataclasses import asdict, dataclass
from typing_extensions import TypedDict  # pydantic refuses typing.TypedDict before Python 3.12

import attrs
from pydantic import BaseModel
from langchain_core.tools import tool
from langgraph.prebuilt import create_react_agent


class Contact(BaseModel):
    name: str
    email: str
    tags: list[str] = []


class Row(TypedDict):
    key: str
    value: str


@dataclass
class Point:
    x: float
    y: float


@attrs.define
class Box:
    width: int
    height: int


@tool
def normalise_contact(contact: Contact, extra: dict[str, str]) -> dict:
    """Normalise a contact record."""
    data = contact.model_dump()
    data.update(extra)
    known = set(Contact.model_fields)
    seen: set[str] = set()
    for tag in contact.tags:
        seen.add(tag.lower())
    out = {k: v for k, v in data.items() if k in known}
    out["tags"] = sorted(seen)
    out["label"] = "{} <{}>".format(contact.name.title(), extra.get("email", contact.email))
    return Contact.model_validate(out).model_dump_json()


@tool
def table(rows: list[Row], sep: str = ",") -> str:
    """Render rows as a table."""
    lines: list[str] = []
    for r in rows:
        lines.append(sep.join([r["key"], r.get("value", "")]))
    lines.sort()
    return "\n".join(lines).strip()


@tool
def geometry(x: float, y: float, w: int, h: int) -> str:
    """Describe a point and a box."""
    p = Point(x=x, y=y)
    b = Box(width=w, height=h)
    d = asdict(p)
    d.setdefault("area", b.width * b.height)
    return str(d)


helper = create_react_agent("openai:gpt-4o", [normalise_contact, table, geometry])
