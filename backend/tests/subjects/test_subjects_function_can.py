"""The function view's `can`: the page offers to add subjects only to those who may create them."""

import pytest

from support import API


@pytest.mark.parametrize(
    ("permissions", "create"),
    [
        ((), False),
        (("perm_RemPdv", "perm_ValidNotHaute"), False),
        (("perm_EditPdv",), True),
    ],
)
def test_function_view_says_whether_the_user_may_add_subjects(
    client, test_map, make_user, login, permissions, create
):
    headers = login(make_user(permissions=permissions))
    body = client.get(f"{API}/function/{test_map.function('F1')}", headers=headers).json()
    assert body["can"] == {"create": create}
    # What the page offers is what the server allows.
    form = {
        "name": "Nouveau sujet",
        "cartographyId": test_map.cartography("C1"),
        "functionId": test_map.function("F1"),
        "activityId": test_map.activity("A11"),
    }
    assert (client.post(f"{API}/subject", json=form, headers=headers).status_code == 200) is create
