"""Who may read the metrics: the addresses of SPOT_METRICS_ALLOW (loopback by default), whoever they
are; Spot's sign-in plays no part (a Prometheus server has no account)."""

from ipaddress import ip_address

from spot.config import get_settings


def may_read_metrics(client_host: str | None) -> bool:
    """The connection's own peer address decides; a header the client writes (X-Forwarded-For) never
    does."""
    if not client_host:
        return False
    try:
        address = ip_address(client_host)
    except ValueError:
        return False
    if address.version == 6 and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return any(address in network for network in get_settings().metrics_networks)
