"""A qualification names only the cartographies its reader may see (spot.mapping.policy), on its page and
in the list; a save by someone who sees fewer keeps the ones hidden from them, and they cannot add one."""

import pytest

from mapping.maps import restrict
from qualifications.world import ADMIN, BOARD, QUALIFICATIONS, body, group, module, qualification
from support import assert_error, field_codes


@pytest.fixture
def links(db, test_map):
    return {
        "groups": [group(db, "Équipe A")],
        "modules": [module(db, "Habilitation électrique")],
        "cartographies": [test_map.cartography("C1"), test_map.cartography("C2")],
    }


@pytest.fixture
def limited(db, test_map, make_user, login):
    """A qualification administrator who sees C1 only."""
    user = make_user("limite", [BOARD, ADMIN])
    restrict(db, user, test_map.cartography("C1"))
    return login(user)


def test_the_page_and_the_list_leave_out_hidden_cartographies(client, test_map, manager, limited, links):
    qualification_id = qualification(client, manager, "Conduite", **links)
    page = client.get(f"{QUALIFICATIONS}/{qualification_id}", headers=limited)
    assert page.status_code == 200, page.text
    assert [c["id"] for c in page.json()["cartographies"]] == [test_map.cartography("C1")]
    assert "Ligne de test" not in page.text
    listed = client.post(f"{QUALIFICATIONS}/query", json={}, headers=limited)
    assert listed.status_code == 200, listed.text
    assert [c["id"] for c in listed.json()["results"][0]["cartographies"]] == [test_map.cartography("C1")]
    assert "Ligne de test" not in listed.text
    # Whoever sees everything still sees both.
    full = client.get(f"{QUALIFICATIONS}/{qualification_id}", headers=manager).json()
    assert len(full["cartographies"]) == 2


def test_a_save_keeps_the_cartographies_hidden_from_the_writer(client, test_map, manager, limited, links):
    qualification_id = qualification(client, manager, "Conduite", **links)
    url = f"{QUALIFICATIONS}/{qualification_id}"
    page = client.get(url, headers=limited).json()
    data = body("Conduite de ligne", groups=links["groups"], modules=links["modules"], cartographies=[])
    response = client.post(url, json=data | {"version": page["version"]}, headers=limited)
    assert response.status_code == 200, response.text
    assert response.json()["cartographies"] == []
    full = client.get(url, headers=manager).json()
    assert [c["id"] for c in full["cartographies"]] == [test_map.cartography("C2")]


def test_a_hidden_cartography_cannot_be_added(client, limited, links, test_map):
    data = body(
        "Conduite",
        groups=links["groups"],
        modules=links["modules"],
        cartographies=[test_map.cartography("C2")],
    )
    response = client.post(QUALIFICATIONS, json=data, headers=limited)
    assert_error(response, 422)
    assert field_codes(response) == {("cartographies", "invalidValue")}
