"""One server's hub for the cluster benchmark (:mod:`.cluster`), as a process of its own: what
``cellwars serve --store URL --name NAME`` runs, without its SSH front (the hub's socket is what
the simulated players use: the SSH layer is not what this measures).

``python -m cellwars_tui.bench.cluster_server STORE NAME`` reads one JSON line on stdin (a list
of ``[identity, token]``), admits each token, prints ``{"socket": PATH}`` once it serves, and runs
until it is killed or its stdin closes. STORE is a ``postgresql://`` URL, or ``sqlite:PATH`` for
the single-server baseline (the SQLite store, as one ``cellwars serve`` keeps it).
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
from pathlib import Path


async def serve(store_url: str, name: str) -> None:
    from ..online.hub import Hub

    home = Path(tempfile.mkdtemp(prefix="cellwars-bench-"))
    hub: Hub
    if store_url.startswith("sqlite:"):
        from ..online.store import SqliteTableStore

        hub = Hub(home / "tables", store=SqliteTableStore(Path(store_url[7:])))
    else:
        from ..online.hub_cluster import ClusterHub
        from ..online.pg.shared import SharedStore

        shared = await SharedStore.open(store_url, name)
        hub = ClusterHub(home / "tables", shared=shared)
    await hub.start()
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    for identity, token in json.loads(await reader.readline()):
        hub.admit(token, identity, identity.split(":")[-1])
    print(json.dumps({"socket": str(hub.socket_path)}), flush=True)
    try:
        await reader.read()  # until stdin closes (the benchmark is done) or a kill
    finally:
        await hub.close()


if __name__ == "__main__":
    asyncio.run(serve(sys.argv[1], sys.argv[2]))
