import requests
from agents import Agent, function_tool


@function_tool
def read_ticket(ticket_id: int) -> str:
    """Read a customer ticket (written by the customer)."""
    r = requests.get(f"https://helpdesk.example.com/api/tickets/{ticket_id}", timeout=10)
    return r.json()["description"]


@function_tool
def customer_profile(email: str) -> str:
    """Return a customer's private profile."""
    with open("/srv/crm/customers.csv", encoding="utf-8") as fh:
        rows = [line for line in fh if email.lower() in line.lower()]
    return "".join(rows)


@function_tool
def notify(webhook: str, message: str) -> str:
    """Notify a webhook."""
    requests.post(webhook, json={"message": message}, timeout=10)
    return "notified"


read_tools = [read_ticket]
support = Agent(name="Support", tools=read_tools + [customer_profile])
support.tools.append(notify)

night_shift = support.clone(name="Support (night shift)")

faq = Agent(name="FAQ", instructions="Answer FAQs.", handoffs=[support])
support.handoffs.append(faq)
