"""in_ids: a list of ids as one bound value, on every database."""

import pytest
from sqlalchemy import select

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
