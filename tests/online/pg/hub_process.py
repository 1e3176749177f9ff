"""One server's hub as a process of its own, for the tests that ``kill -9`` it: what ``cellwars
serve --store URL --name NAME`` runs, without the SSH front (the hub's Unix socket is the point).

``python -m tests.online.pg.hub_process URL NAME ident=token ...`` admits each token for its
identity, prints one JSON line (``{"socket": ...}``) once it serves, and runs until it is killed.
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
from pathlib import Path

from cellwars_tui.online.hub_cluster import ClusterHub
from cellwars_tui.online.pg.shared import SharedStore

from ... import toy_game  # noqa: F401  (registers toy-race)


async def main(url: str, name: str, tokens: list[str]) -> None:
    shared = await SharedStore.open(url, name)
    hub = ClusterHub(Path(tempfile.mkdtemp()) / "tables", shared=shared, sweep_interval=3600)
    await hub.start()
    for pair in tokens:
        identity, token = pair.rsplit("=", 1)
        hub.admit(token, identity, identity.split(":")[-1])
    print(json.dumps({"socket": str(hub.socket_path)}), flush=True)
    await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3:]))
