"""Whether the signed-in user sees every cartography comes with the session lookup (one statement),
and says the same as asking the database afresh."""

import pytest

from mapping.maps import restrict
from spot.account.service import session_for
from spot.mapping.policy import sees_every_cartography
from spot.users.models import User


@pytest.mark.parametrize("restricted", [False, True])
def test_the_session_lookup_says_whether_the_user_sees_every_cartography(
    db, test_map, make_user, login, restricted
):
    user = make_user()
    if restricted:
        restrict(db, user, test_map.cartography("C1"))
    token = login(user)["x-access-token"]
    db.expire_all()
    signed_in = session_for(db, token=token)
    assert signed_in is not None
    assert signed_in.user.sees_every_cartography is (not restricted)
    assert sees_every_cartography(db, signed_in.user) is (not restricted)
    db.expire_all()
    asked = db.get(User, user.id)  # loaded without the expression: the database is asked
    assert asked.sees_every_cartography is None
    assert sees_every_cartography(db, asked) is (not restricted)
