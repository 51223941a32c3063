"""Network guard for acg's Python test harness, loaded by every interpreter
the harness starts (it is first on PYTHONPATH).

acg's fixtures are imported and its demo programs run with the real agent
frameworks, but nothing may leave the machine: a connection to any address
but loopback raises, and so does a name lookup of anything but a loopback
name. ACG_NET=none refuses loopback too (the fixture check needs no server).
"""
import os
import socket

_MODE = os.environ.get("ACG_NET", "none")
_LOOPBACK = {"127.0.0.1", "::1", "localhost"}


class NetworkBlocked(OSError):
    """Raised for a connection the harness does not allow."""


def _allowed(host):
    if _MODE != "loopback":
        return False
    if isinstance(host, bytes):
        host = host.decode("ascii", "replace")
    return host in _LOOPBACK or str(host).startswith("127.")


def _check(address):
    if isinstance(address, tuple) and address:
        host = address[0]
        if not _allowed(host):
            raise NetworkBlocked(f"acg test harness: network access to {host!r} is blocked")


_sendto = socket.socket.sendto
_connect = socket.socket.connect
_connect_ex = socket.socket.connect_ex
_getaddrinfo = socket.getaddrinfo


def connect(self, address):
    if self.family in (socket.AF_INET, socket.AF_INET6):
        _check(address)
    return _connect(self, address)


def connect_ex(self, address):
    if self.family in (socket.AF_INET, socket.AF_INET6):
        _check(address)
    return _connect_ex(self, address)


def sendto(self, data, *args):
    # sendto(data, address) or sendto(data, flags, address): a resolver's
    # UDP query goes this way.
    if self.family in (socket.AF_INET, socket.AF_INET6) and args:
        _check(args[-1])
    return _sendto(self, data, *args)


def getaddrinfo(host, *args, **kwargs):
    if host is not None and not _allowed(host):
        raise NetworkBlocked(f"acg test harness: name lookup of {host!r} is blocked")
    return _getaddrinfo(host, *args, **kwargs)


socket.socket.connect = connect
socket.socket.connect_ex = connect_ex
socket.socket.sendto = sendto
socket.getaddrinfo = getaddrinfo
