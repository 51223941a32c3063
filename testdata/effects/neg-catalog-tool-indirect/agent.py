from langchain_classic.agents import AgentType, Tool, initialize_agent, load_tools
from langchain_community.tools import DuckDuckGoSearchRun, YouTubeSearchTool
from langchain_openai import ChatOpenAI

llm = ChatOpenAI(model="gpt-4o")
yt = YouTubeSearchTool()

tools = [
    Tool(name="Search", func=yt.run, description="search YouTube videos"),
    Tool.from_function(DuckDuckGoSearchRun().run, name="ddg", description="search the web"),
]
tools += load_tools(["human", "llm-math"], llm=llm)

agent = initialize_agent(tools, llm, agent=AgentType.ZERO_SHOT_REACT_DESCRIPTION)
