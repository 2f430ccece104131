"""Who may do what with a discussion: role × visibility × action. No permission gates reading or
posting (spec 1 §6 names none): the item's visibility decides, as for the item itself."""

import pytest

from mapping.maps import restrict
from support import API, assert_error

ROLES = {
    "nobody": [],
    "editor": ["perm_EditPdv"],
    "resources": ["perm_EditResourcesVideos"],
    "administrator": ["perm_SetPermissions", "perm_EditPdv", "perm_RemPdv", "perm_ValidNotHaute"],
}
# Whether the user's groups see the item's cartography.
VISIBILITY = {"sees": True, "hidden": False}
ITEMS = ("cartography", "function", "subject")
ACTIONS = ("read", "post", "unread")


def perform(client, headers, action, discussion):
    if action == "read":
        return client.get(f"{API}/discussion/{discussion}", headers=headers)
    if action == "post":
        return client.post(f"{API}/discussion/{discussion}", json={"content": "Bonjour"}, headers=headers)
    return client.get(f"{API}/discussion/unread", headers=headers)


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("visibility", VISIBILITY)
@pytest.mark.parametrize("item", ITEMS)
@pytest.mark.parametrize("action", ACTIONS)
def test_permission_table(client, db, test_map, make_user, login, role, visibility, item, action):
    owner = login(make_user())
    item_id = {
        "cartography": test_map.cartography("C1"),
        "function": test_map.function("F1"),
        "subject": test_map.subject("S1"),
    }[item]
    discussion = client.get(f"{API}/{item}/{item_id}", headers=owner).json()["discussionId"]
    user = make_user(permissions=ROLES[role])
    if not VISIBILITY[visibility]:
        restrict(db, user, test_map.cartography("C2"))
    headers = login(user)
    if item == "subject":
        client.post(f"{API}/subject/{item_id}/follow", headers=owner)
    response = perform(client, headers, action, discussion)
    if action == "unread":
        assert response.status_code == 200
        return
    if VISIBILITY[visibility]:
        assert response.status_code == 200, response.text
        if action == "read":
            assert response.json()["can"] == {"post": True}
    else:
        assert_error(response, 403, "Insufficient rights to view")
