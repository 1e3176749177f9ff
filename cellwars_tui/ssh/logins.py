"""Who may wait in the login queue, and how client addresses are grouped for the caps.

The SSH server admits at most ``Limits.max_unauthenticated`` connections still logging in (the
handshake and authentication). A queue that drops its *oldest* member when one more arrives
lets anyone who can open connections faster than a handshake takes evict every honest player
(a reconnect loop from 9 addresses once locked everybody out). This queue is fair instead:

* addresses are grouped by network, :func:`network_of` (a /24 for IPv4, a /64 for IPv6: what
  one attacker usually holds), and one network may hold at most ``Limits.logins_per_network``
  places in the queue: one more from it is refused;
* when the queue is full, a newcomer evicts the oldest connection of the network holding the
  most places, if that network holds more than the newcomer's would (so a crowd from a few
  networks makes room for everybody else); otherwise the newcomer is refused. An honest
  handshake is never pushed out by a newcomer from a network with as many places as its own;
* what the queue refused or evicted is said in the server's log, at most once every
  ``WARN_EVERY`` seconds, with the counts.

:func:`client_of` is what the per-address cap counts by: the address itself for IPv4, its /64
for IPv6 (one IPv6 host holds a whole /64 and could otherwise come from endless addresses).
Nothing here knows about SSH: the browser front counts its tabs with :func:`client_of` too.
"""

from __future__ import annotations

import ipaddress
import logging
import time
from collections import Counter, OrderedDict
from collections.abc import Callable, Hashable, Iterator
from typing import Generic, TypeVar

log = logging.getLogger(__name__)

IPV4_NETWORK = 24
IPV6_NETWORK = 64
WARN_EVERY = 10.0  # seconds between two warnings about the login queue

T = TypeVar("T", bound=Hashable)


def _ip(address: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])  # fe80::1%eth0: the zone is no part
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped  # ::ffff:192.0.2.1 (a dual-stack socket) is that IPv4 client
    return ip


def network_of(address: str) -> str:
    """The network ``address`` belongs to, as the login queue counts: ``192.0.2.0/24``,
    ``2001:db8:1:2::/64``; anything that is not an IP address stands for itself."""
    ip = _ip(address)
    if ip is None:
        return address
    bits = IPV4_NETWORK if ip.version == 4 else IPV6_NETWORK
    return str(ipaddress.ip_network(f"{ip}/{bits}", strict=False))


def client_of(address: str) -> str:
    """What the per-address cap counts by: an IPv4 address itself, an IPv6 address's /64."""
    ip = _ip(address)
    if ip is None:
        return address
    if ip.version == 4:
        return str(ip)
    return network_of(str(ip))


class LoginQueue(Generic[T]):
    """Connections logging in, oldest first, each with its network (see the module's docstring).

    ``admit(item, address)`` answers whether ``item`` may wait and which member (if any) it
    pushed out; ``remove(item)`` when it logs in or goes away."""

    def __init__(self, size: int, per_network: int, *,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.size = max(1, size)
        self.per_network = max(1, per_network)
        self.clock = clock
        self._members: OrderedDict[T, str] = OrderedDict()
        self._held: Counter[str] = Counter()  # places held by each network
        self._refused = 0  # since the last warning
        self._evicted = 0
        self._last_warning = float("-inf")

    def __len__(self) -> int:
        return len(self._members)

    def __contains__(self, item: object) -> bool:
        return item in self._members

    def __iter__(self) -> Iterator[T]:
        return iter(self._members)

    def held_by(self, address: str) -> int:
        """Places held by ``address``'s network."""
        return self._held.get(network_of(address), 0)

    def admit(self, item: T, address: str) -> tuple[bool, T | None]:
        """Whether ``item`` (from ``address``) joins the queue, and the member it evicted."""
        network = network_of(address)
        mine = self._held[network]
        if mine >= self.per_network:
            self._refuse(network, "its network's share is taken")
            return False, None
        evicted = None
        if len(self._members) >= self.size:
            top, most = self._held.most_common(1)[0]
            if most <= mine + 1:
                self._refuse(network, "the queue is full")
                return False, None
            evicted = next(member for member, net in self._members.items() if net == top)
            self.remove(evicted)
        self._members[item] = network
        self._held[network] += 1
        if evicted is not None:
            self._evicted += 1
            self._warn(f"the queue was full; a newcomer from {network} evicted the oldest from "
                       f"{top}, the network holding the most places ({most})")
        return True, evicted

    def remove(self, item: T) -> None:
        network = self._members.pop(item, None)
        if network is not None:
            self._held[network] -= 1
            if self._held[network] <= 0:
                del self._held[network]

    def _refuse(self, network: str, why: str) -> None:
        self._refused += 1
        self._warn(f"refused a connection from {network}: {why}")

    def _warn(self, what: str) -> None:
        now = self.clock()
        if now - self._last_warning < WARN_EVERY:
            return
        self._last_warning = now
        top = ", ".join(f"{net} {n}" for net, n in self._held.most_common(3))
        log.warning("login queue: %s; %d of %d places taken (most by network: %s); since the "
                    "last warning %d refused, %d evicted (at most %d places per network)",
                    what, len(self._members), self.size, top or "none", self._refused,
                    self._evicted, self.per_network)
        self._refused = self._evicted = 0
