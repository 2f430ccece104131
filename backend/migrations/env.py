from alembic import context
from sqlalchemy import DateTime

from spot.db import Base, UtcDateTime, load_models, make_engine
from spot.config import get_settings

load_models()
config = context.config


def render_item(type_: str, obj: object, autogen_context: object) -> str | bool:
    """Migrations stay free of application types: UtcDateTime is a timezone-aware DateTime."""
    if type_ == "type" and isinstance(obj, UtcDateTime):
        return "sa.DateTime(timezone=True)"
    return False


def run_migrations() -> None:
    url = config.attributes.get("url") or get_settings().database_url
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    engine = make_engine(url)
    with engine.connect() as conn:
        _run(conn)
    engine.dispose()


def _run(connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        render_as_batch=True,
        render_item=render_item,
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


run_migrations()
