from langchain_core.output_parsers import StrOutputParser
from langchain_core.prompts import ChatPromptTemplate
from langchain_openai import ChatOpenAI


class Chains:
    def __init__(self):
        llm = ChatOpenAI(model="gpt-4o-mini", temperature=0)
        prompt = ChatPromptTemplate.from_template("Summarise in three bullet points:\n{text}")
        self.summarise = prompt | llm | StrOutputParser()
