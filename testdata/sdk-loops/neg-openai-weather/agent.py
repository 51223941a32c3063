"""A weather assistant written by hand on the OpenAI SDK, and a one-shot
structured extraction with a tool schema that is not an agent."""
import json

import openai
import requests

WEATHER_TOOL = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Current weather for a city.",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
    },
}


def get_weather(city: str) -> str:
    resp = requests.get("https://api.open-meteo.example/v1/current", params={"city": city}, timeout=10)
    return resp.text


def chat(question: str) -> str:
    client = openai.OpenAI()
    messages = [{"role": "user", "content": question}]
    for _ in range(5):
        reply = client.chat.completions.create(model="gpt-4.1-mini", messages=messages, tools=[WEATHER_TOOL])
        msg = reply.choices[0].message
        if not msg.tool_calls:
            return msg.content or ""
        messages.append(msg)
        for call in msg.tool_calls:
            out = get_weather(**json.loads(call.function.arguments))
            messages.append({"role": "tool", "tool_call_id": call.id, "content": out})
    return ""


def extract_city(text: str) -> str:
    # One call, its tool only shapes the answer: no loop runs a tool.
    client = openai.OpenAI()
    reply = client.chat.completions.create(
        model="gpt-4.1-mini",
        messages=[{"role": "user", "content": text}],
        tools=[{"type": "function", "function": {"name": "city", "parameters": {"type": "object"}}}],
        tool_choice={"type": "function", "function": {"name": "city"}},
    )
    return reply.choices[0].message.tool_calls[0].function.arguments
