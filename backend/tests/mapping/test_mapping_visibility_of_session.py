"""Whether the signed-in user sees every cartography comes with the session lookup (one statement)."""

import pytest

from mapping.maps import restrict
from spot.account.service import principal_for


@pytest.mark.parametrize("restricted", [False, True])
def test_the_session_lookup_says_whether_the_user_sees_every_cartography(
    db, test_map, make_user, login, restricted
):
    user = make_user()
    if restricted:
        restrict(db, user, test_map.cartography("C1"))
    token = login(user)["x-access-token"]
    signed_in = principal_for(db, token=token)
    assert signed_in is not None
    assert signed_in.sees_every_cartography is (not restricted)
