"""A market-data analyst: quotes from one fixed API host (urllib3), and
pandas expressions the model writes over a frame built in memory."""
import json

import pandas as pd
import urllib3
from langchain_core.tools import tool
from langgraph.prebuilt import create_react_agent

SALES = pd.DataFrame({"model": ["a", "b", "c"], "units": [120, 45, 300], "price": [9.5, 20.0, 4.25]})


@tool
def df_query(expression: str) -> str:
    """Evaluate a pandas expression over the sales frame (columns: model, units, price)."""
    return str(pd.eval(expression, target=SALES, local_dict={"df": SALES}))


@tool
def fetch_quote(symbol: str) -> str:
    """Return the latest quote for a ticker symbol."""
    http = urllib3.PoolManager(retries=urllib3.Retry(3))
    resp = http.request("GET", "https://quotes.example.com/v1/quote", fields={"symbol": symbol})
    return json.dumps(json.loads(resp.data.decode()))


agent = create_react_agent("openai:gpt-4o-mini", tools=[df_query, fetch_quote])
