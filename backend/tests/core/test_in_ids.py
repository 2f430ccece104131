"""in_ids: a list of ids as one bound value, on every database."""

import pytest
from sqlalchemy import select, text

from spot.db import in_ids
from spot.users.models import User


@pytest.mark.parametrize("how_many", [0, 1, 3, 2500])
def test_in_ids_matches_exactly_the_listed_ids(db, make_user, how_many):
    users = [make_user().id for _ in range(3)]
    wanted = (users + list(range(10**6, 10**6 + how_many)))[:how_many]
    statement = select(User.id).where(in_ids(User.id, "ids")).order_by(User.id)
    assert db.scalars(statement, {"ids": wanted}).all() == sorted(set(wanted) & set(users))
    # The same statement (cached, and prepared by PostgreSQL's driver) with other ids.
    assert db.scalars(statement, {"ids": {users[-1]}}).all() == [users[-1]]


def test_postgresql_plans_an_in_ids_statement_once(db, make_user):
    """Prepared (after five runs), the statement keeps a generic plan instead of being planned anew
    on every run for the number of ids it is given."""
    if db.get_bind().dialect.name != "postgresql":
        pytest.skip("PostgreSQL's plan cache")
    users = [make_user().id for _ in range(3)]
    # Enough users that assuming 10 ids costs more than looking up the 1 to 3 it is given.
    db.execute(
        text(
            'INSERT INTO "user" (login, first_name, last_name, password_hash, created_at)'
            " SELECT 'in-ids-' || n, '', '', '', now() FROM generate_series(1, 20000) AS n"
        )
    )
    db.execute(text('ANALYZE "user"'))
    statement = select(User.id.label("in_ids_plan_probe")).where(in_ids(User.id, "ids")).order_by(User.id)
    for run in range(20):
        assert db.scalars(statement, {"ids": users[: run % 3 + 1]}).all() == sorted(users[: run % 3 + 1])
    plans = db.execute(
        text(
            "SELECT generic_plans, custom_plans FROM pg_prepared_statements"
            " WHERE statement LIKE '%in_ids_plan_probe%'"
        )
    ).one()
    assert plans.generic_plans > plans.custom_plans
