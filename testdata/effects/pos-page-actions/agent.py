"""Browser tools on Selenium: reading a page is untrusted input; clicking
and typing act on whatever site the page is."""
from langchain_core.tools import tool
from langgraph.prebuilt import create_react_agent
from selenium import webdriver
from selenium.webdriver.common.by import By


def _driver() -> webdriver.Chrome:
    return webdriver.Chrome()


@tool
def open_page(url: str) -> str:
    """Open a page and return its visible text."""
    driver = _driver()
    driver.get(url)
    return driver.find_element(By.TAG_NAME, "body").text


@tool
def click_button(label: str) -> str:
    """Click the button with the given label on the current page."""
    _driver().find_element(By.XPATH, f"//button[text()='{label}']").click()
    return "clicked"


@tool
def fill_field(field_id: str, text: str) -> str:
    """Type text into a field of the current page."""
    _driver().find_element(By.ID, field_id).send_keys(text)
    return "typed"


browser_agent = create_react_agent("openai:gpt-4.1", tools=[open_page, click_button, fill_field])
