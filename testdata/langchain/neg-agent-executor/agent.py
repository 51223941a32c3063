from langchain_classic.agents import AgentExecutor, create_tool_calling_agent
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.tools import tool
from langchain_openai import ChatOpenAI


@tool
def multiply(a: int, b: int) -> int:
    """Multiply two integers."""
    return a * b


llm = ChatOpenAI(model="gpt-4o")
prompt = ChatPromptTemplate.from_messages([("system", "You do arithmetic."), ("human", "{input}"), ("placeholder", "{agent_scratchpad}")])
tools = [multiply]
runnable = create_tool_calling_agent(llm, tools, prompt)
executor = AgentExecutor(agent=runnable, tools=tools, verbose=True)
from_tools = AgentExecutor.from_agent_and_tools(runnable, tools)
