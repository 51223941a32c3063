import smtplib
import sqlite3

from agents import Agent, function_tool


@function_tool
def lookup_invoice(invoice_id: str) -> str:
    """Find an invoice."""
    db = sqlite3.connect("billing.db")
    return str(db.execute("SELECT * FROM invoices WHERE id = ?", (invoice_id,)).fetchone())


@function_tool
def send_update(to: str, body: str) -> str:
    """E-mail the customer."""
    with smtplib.SMTP("smtp.example.com") as smtp:
        smtp.sendmail("support@example.com", to, body)
    return "sent"


billing = Agent(name="billing", instructions="Answer billing questions.", tools=[lookup_invoice])
triage = Agent(name="triage", instructions="Route the customer.", tools=[send_update], handoffs=[billing])
billing.handoffs.append(triage)
