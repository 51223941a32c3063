import sqlite3

import requests
from langchain_core.tools import tool


def make_db_tool(path: str):
    @tool("run_sql")
    def run_sql(query: str):
        """Run a SQL query on the employee database."""
        conn = sqlite3.connect(path)
        return conn.execute(query).fetchall()

    return run_sql


def make_search_tool(host: str):
    @tool("search")
    def search(query: str) -> str:
        """Search the web."""
        return requests.get(host + "/search", params={"q": query}, timeout=10).text

    return search


db_tool = make_db_tool("employees.db")
search_tool = make_search_tool("https://search.example.com")
tools = [search_tool, db_tool]
