"""A shopping assistant: it reads product reviews on the web and the user's
saved addresses, and can mail an order to a shop, and the
order tool is not wrapped in the configured CIBA approval: the twin of
neg-auth0-async-authorization."""
import smtplib
from email.message import EmailMessage
from pathlib import Path

import httpx
from auth0_ai.authorizers.types import Auth0ClientParams
from auth0_ai_langchain.async_authorization import get_async_authorization_credentials
from auth0_ai_langchain.auth0_ai import Auth0AI
from langchain_core.tools import StructuredTool, tool
from langgraph.prebuilt import ToolNode, create_react_agent
from pydantic import BaseModel

auth0_ai = Auth0AI(Auth0ClientParams({"domain": "example.eu.auth0.com", "client_id": "client", "client_secret": "secret"}))

with_async_authorization = auth0_ai.with_async_authorization(
    audience="https://shop.example.com",
    scopes=["openid", "product:buy"],
    binding_message=lambda product, quantity: f"Do you want to buy {quantity} {product}",
    user_id=lambda *_, **__: "auth0|user",
    on_authorization_request="block",
)


class OrderSchema(BaseModel):
    shop: str
    product: str
    quantity: int


async def order(shop: str, product: str, quantity: int) -> str:
    get_async_authorization_credentials()  # the approved request's token, for the shop's API
    msg = EmailMessage()
    msg["To"], msg["Subject"] = shop, f"Order: {quantity} x {product}"
    msg.set_content(f"Please send {quantity} {product}.")
    with smtplib.SMTP("smtp.example.com", 587) as smtp:
        smtp.send_message(msg)
    return "ordered"


# The wrapper is configured but the tool is not wrapped: nothing asks.
shop_online = StructuredTool(name="shop_online", description="Order a product by email.", args_schema=OrderSchema, coroutine=order)


@tool
def saved_addresses() -> str:
    """Return the user's saved delivery addresses."""
    return Path.home().joinpath(".shop", "addresses.txt").read_text()


@tool
def read_reviews(product: str) -> str:
    """Read the web's reviews of a product."""
    return httpx.get("https://reviews.example.com/search", params={"q": product}).text


agent = create_react_agent("openai:gpt-4o-mini", tools=ToolNode([read_reviews, saved_addresses, shop_online]))
