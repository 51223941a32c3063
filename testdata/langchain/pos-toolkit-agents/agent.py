import pandas as pd
from langchain_community.agent_toolkits import SQLDatabaseToolkit, create_sql_agent
from langchain_community.utilities import SQLDatabase
from langchain_experimental.agents import create_csv_agent, create_pandas_dataframe_agent
from langchain_experimental.agents.agent_toolkits import create_python_agent
from langchain_experimental.tools import PythonREPLTool
from langchain_openai import ChatOpenAI

llm = ChatOpenAI(model="gpt-4o")

python_agent = create_python_agent(llm=llm, tool=PythonREPLTool(), verbose=True)

df = pd.read_csv("sales.csv")
frame_agent = create_pandas_dataframe_agent(llm, df, allow_dangerous_code=True)
csv_agent = create_csv_agent(llm, "sales.csv", allow_dangerous_code=True)

db = SQLDatabase.from_uri("sqlite:///shop.db")
sql_agent = create_sql_agent(llm, toolkit=SQLDatabaseToolkit(db=db, llm=llm))
