"""A tiny stand-in for the app behind textual-serve, for the browser front end's tests.

It speaks textual-serve's pipe protocol (the ``__GANGLION__`` line, then packets: a type byte, a
4-byte big-endian length, the payload) and shows its pid and size. Keys: ``q`` quits; ``!``
fails (says goodbye as a failing Textual app does, and exits with status 1); anything else is
echoed back as ``got: ...``. A ``quit`` meta packet ends it, as it ends the real app.
"""

import json
import os
import sys

out = sys.stdout.buffer
inp = sys.stdin.buffer


def send(kind: bytes, payload: bytes) -> None:
    out.write(kind + len(payload).to_bytes(4, "big") + payload)
    out.flush()


def read_exact(n: int) -> bytes:
    data = b""
    while len(data) < n:
        chunk = inp.read(n - len(data))
        if not chunk:
            sys.exit(0)
        data += chunk
    return data


def main() -> None:
    out.write(b"__GANGLION__\n")
    out.flush()
    size = f"{os.environ.get('COLUMNS')}x{os.environ.get('ROWS')}"
    send(b"D", f"FAKE WEB APP PID={os.getpid()} SIZE {size}\r\n".encode())
    while True:
        kind = read_exact(1)
        payload = read_exact(int.from_bytes(read_exact(4), "big"))
        if kind == b"D":
            if b"q" in payload:
                break
            if b"!" in payload:
                send(b"M", json.dumps({"type": "exit"}).encode())
                sys.exit(1)
            send(b"D", b"got: " + repr(payload).encode() + b"\r\n")
        elif kind == b"M":
            meta = json.loads(payload)
            if meta.get("type") == "quit":
                break
            if meta.get("type") == "resize":
                send(b"D", f"SIZE {meta['width']}x{meta['height']}\r\n".encode())
    send(b"M", json.dumps({"type": "exit"}).encode())


if __name__ == "__main__":
    main()
