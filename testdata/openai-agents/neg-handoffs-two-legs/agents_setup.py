import sqlite3

from agents import Agent, WebSearchTool, function_tool, handoff


@function_tool
def lookup_invoice(invoice_id: str) -> str:
    """Look up an invoice."""
    db = sqlite3.connect("billing.db")
    row = db.execute("SELECT total, status FROM invoices WHERE id = ?", (invoice_id,)).fetchone()
    return f"{row[0]} ({row[1]})"


faq_agent = Agent(name="FAQ", instructions="Answer questions from the web.", tools=[WebSearchTool()])
billing_agent = Agent(name="Billing", instructions="Answer billing questions.", tools=[lookup_invoice])

triage_agent = Agent(
    name="Triage",
    instructions="Route the user to the right agent.",
    handoffs=[faq_agent, handoff(billing_agent, tool_name_override="billing")],
)
