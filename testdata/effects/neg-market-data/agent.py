import yfinance as yf
from langchain.agents import create_agent
from langchain.tools import tool


@tool
def quote(ticker: str) -> dict:
    """Current price of a ticker."""
    info = yf.Ticker(ticker).info
    return {"ticker": ticker, "price": info.get("currentPrice")}


@tool
def prices(ticker: str, period: str = "1mo") -> str:
    """Closing prices of a ticker."""
    hist = yf.Ticker(ticker).history(period=period)
    return hist["Close"].to_string()


@tool
def compare(a: str, b: str) -> str:
    """Compare two tickers."""
    data = yf.download([a, b], period="5d")
    return str(data)


agent = create_agent("openai:gpt-4o", tools=[quote, prices, compare])
