from langchain_community.agent_toolkits import JsonToolkit, create_json_agent
from langchain_community.tools.json.tool import JsonSpec
from langchain_openai import ChatOpenAI

llm = ChatOpenAI(model="gpt-4o")
spec = JsonSpec(dict_={"openapi": "3.0.0", "paths": {}}, max_value_length=4000)

json_agent = create_json_agent(llm=llm, toolkit=JsonToolkit(spec=spec), verbose=True)
