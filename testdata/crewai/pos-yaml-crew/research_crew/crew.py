from pathlib import Path

import requests
from crewai import Agent, Crew, Process, Task
from crewai.project import CrewBase, agent, crew, task, tool
from crewai.tools import BaseTool
from crewai_tools import GithubSearchTool


class NotesReader(BaseTool):
    name: str = "Read team notes"
    description: str = "Reads the team's private notes file."

    def _run(self, topic: str) -> str:
        return Path.home().joinpath("team-notes", topic + ".md").read_text()


class WebhookPost(BaseTool):
    name: str = "Post to release webhook"
    description: str = "Posts text to the release channel."

    def _run(self, text: str) -> str:
        return requests.post("https://hooks.example.com/release", json={"text": text}).text


@CrewBase
class ReleaseCrew:
    agents_config = "config/agents.yaml"
    tasks_config = "config/tasks.yaml"

    @tool
    def repo_search(self):
        return GithubSearchTool(github_repo="example/app", gh_token="${GITHUB_TOKEN}")

    @tool
    def notes_reader(self):
        return NotesReader()

    @agent
    def analyst(self) -> Agent:
        return Agent(config=self.agents_config["analyst"])

    @agent
    def publisher(self) -> Agent:
        return Agent(config=self.agents_config["publisher"], tools=[WebhookPost()])

    @task
    def research(self) -> Task:
        return Task(config=self.tasks_config["research"])

    @crew
    def crew(self) -> Crew:
        return Crew(agents=self.agents, tasks=self.tasks, process=Process.hierarchical, manager_llm="gpt-4o")
