"""Servers started together each migrate at start (`spot serve` runs the migrations): on PostgreSQL
they take turns (an advisory lock in migrations/env.py), and every one of them ends with the schema
current, never with a migration applied twice."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

pytestmark = pytest.mark.skipif(
    not os.environ.get("SPOT_TEST_DATABASE_URL"), reason="PostgreSQL's advisory lock"
)

SPOT = str(Path(sys.executable).parent / "spot")


def test_three_migrations_started_together_end_with_one_current_schema():
    base = make_url(os.environ["SPOT_DATABASE_URL"])
    name = f"{base.database}_migrate"
    admin = create_engine(base.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    url = base.set(database=name).render_as_string(hide_password=False)
    try:
        env = {**os.environ, "SPOT_DATABASE_URL": url}
        runs = [
            subprocess.Popen([SPOT, "migrate"], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            for _ in range(3)
        ]
        outputs = [run.communicate(timeout=600)[0].decode() for run in runs]
        assert [run.returncode for run in runs] == [0, 0, 0], outputs
        engine = create_engine(url)
        with engine.connect() as conn:
            versions = conn.execute(text("SELECT version_num FROM alembic_version")).scalars().all()
        engine.dispose()
        from spot.operations.service import _code_heads

        assert sorted(versions) == sorted(_code_heads())
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()
