"""Tools over the company's private data: customers, orders, notes, logs, secrets."""
import os
import sqlite3
from pathlib import Path

from langchain_core.tools import tool

DB = "/var/lib/desk/desk.db"


@tool
def lookup_customer(email: str) -> str:
    """Look up a customer record by email."""
    con = sqlite3.connect(DB)
    row = con.execute("SELECT name, plan, phone FROM customers WHERE email = ?", (email,)).fetchone()
    return str(row)


@tool
def list_orders(customer_id: int) -> str:
    """List a customer's orders."""
    con = sqlite3.connect(DB)
    rows = con.execute("SELECT id, total, card_last4 FROM orders WHERE customer = ?", (customer_id,)).fetchall()
    return str(rows)


@tool
def read_note(name: str) -> str:
    """Read one of the team's private notes."""
    with open(f"/home/desk/notes/{name}") as f:
        return f.read()


@tool
def read_logs(service: str) -> str:
    """Read the last lines of a service log."""
    with open(f"/var/log/{service}.log") as f:
        return f.read()[-4000:]


@tool
def read_env(name: str) -> str:
    """Read a configuration value from the environment."""
    return os.environ.get(name, "")


@tool
def read_runbook(service: str) -> str:
    """Read the on-call runbook of a service."""
    return Path(f"/srv/runbooks/{service}.md").read_text()


@tool
def billing_summary(customer_id: int) -> str:
    """Summarise a customer's invoices."""
    con = sqlite3.connect(DB)
    return str(con.execute("SELECT SUM(total) FROM invoices WHERE customer = ?", (customer_id,)).fetchone())


@tool
def read_calendar(day: str) -> str:
    """Read the team calendar for a day."""
    with open("/home/desk/calendar.ics") as f:
        return "\n".join(line for line in f if day in line)
