"""One cache for every client the tools use."""
import requests
from googleapiclient.discovery import build

_clients = {}


def client(kind: str):
    if kind in _clients:
        return _clients[kind]
    if kind == "gmail":
        _clients[kind] = build("gmail", "v1")
    else:
        _clients[kind] = requests.Session()
    return _clients[kind]
