import base64
import collections
import copy
import datetime
import decimal
import difflib
import functools
import hashlib
import html
import itertools
import json
import logging
import math
import pprint
import random
import re
import statistics
import string
import textwrap
import uuid

from langchain_core.tools import tool
from langgraph.prebuilt import create_react_agent

log = logging.getLogger(__name__)


@tool
def summarise_numbers(values: list[float]) -> str:
    """Summarise a list of numbers."""
    mean = statistics.mean(values)
    total = decimal.Decimal(str(math.fsum(values))).quantize(decimal.Decimal("0.01"))
    pairs = list(itertools.combinations(values, 2))
    prod = functools.reduce(lambda a, b: a * b, values, 1)
    counts = collections.Counter(values).most_common(3)
    pick = random.choice(values)
    log.info("summarised %d values", len(values))
    return json.dumps({"mean": mean, "total": str(total), "pairs": len(pairs), "prod": prod,
                       "top": counts, "pick": pick, "when": datetime.datetime.now().isoformat()})


@tool
def compare_text(a: str, b: str) -> str:
    """Show how two texts differ."""
    diff = "\n".join(difflib.unified_diff(a.splitlines(), b.splitlines()))
    words = re.findall(r"\w+", a)
    digest = hashlib.sha256(a.encode()).hexdigest()
    token = base64.b64encode(digest.encode()).decode()
    tmpl = string.Template("$n words, id $id").substitute(n=len(words), id=uuid.uuid4())
    return textwrap.shorten(html.escape(diff), 500) + pprint.pformat(copy.deepcopy(words)) + tmpl + token


helper = create_react_agent("openai:gpt-4o", [summarise_numbers, compare_text])
