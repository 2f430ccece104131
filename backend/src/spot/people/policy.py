"""Who may import people: those who manage users (the route requires it; the command line is the
server's operator). An import never deactivates the person running it."""

from spot.core.principal import Principal


def may_deactivate_by_import(importer: Principal | None, user_id: int) -> bool:
    return importer is None or importer.id != user_id
