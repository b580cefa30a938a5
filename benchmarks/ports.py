"""Waiting for a server the benchmarks started to listen."""

from __future__ import annotations

import socket
import time


def wait_for_ports(ports: list[int], seconds: float = 60) -> None:
    """Return once every port on 127.0.0.1 accepts a connection; ``RuntimeError`` after ``seconds``."""
    deadline = time.monotonic() + seconds
    for port in ports:
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"daphne did not start on port {port}") from None
                time.sleep(0.2)
