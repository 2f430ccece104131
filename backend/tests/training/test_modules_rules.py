"""Training modules: who may do what, the form's rules and their message keys, usage by paths, optimistic
locking (spec 2 §2, §3 Training module, §4 Training module, §5 Module, §6)."""

import pytest
from sqlalchemy import func, select

from mapping.maps import restrict
from spot.references import service as references
from spot.references.models import Reference
from spot.training.modules.models import TrainingModuleItem
from support import assert_error, field_codes
from training.catalogue import (
    MANAGE,
    MODULES,
    Course,
    form,
    lms,
    mediation,
    path,
    reference,
    spot,
    url,
)


def create(client, headers, body) -> int:
    response = client.post(MODULES, json=body, headers=headers)
    assert response.status_code == 200, response.text
    assert set(response.json()) == {"id"}
    return response.json()["id"]


def read(client, headers, module_id):
    response = client.get(f"{MODULES}/{module_id}", headers=headers)
    assert response.status_code == 200, response.text
    return response.json()


def save(client, headers, module_id, body):
    return client.post(f"{MODULES}/{module_id}", json=body, headers=headers)


# Who may do what: role × action ----------------------------------------------------------------

ROLES = {
    "nobody": [],
    "pathAdmin": ["perm_TrainingPathAdmin"],
    "referenceAdmin": ["perm_TrainingReferenceAdmin"],
    "pathView": ["perm_TrainingPathView"],
    "dashboards": ["perm_TableauBord"],
    "qualificationAdmin": ["perm_QualificationAdmin"],
    "manager": [MANAGE],
}
# The qualification form finds its modules by name: those who may create or edit one may too.
PICKERS = ("names", "search")
PICKING_ROLES = ("dashboards", "qualificationAdmin", "manager")
ACTIONS = ("create", "read", "update", "delete", "setEnabled", "usage", "names", "search", "query")


def perform(client, headers, m, action, module_id, version):
    if action == "create":
        return client.post(MODULES, json=form(m), headers=headers)
    if action == "read":
        return client.get(f"{MODULES}/{module_id}", headers=headers)
    if action == "update":
        return save(client, headers, module_id, form(m, name="Renommé", version=version))
    if action == "delete":
        return client.delete(f"{MODULES}/{module_id}", headers=headers)
    if action == "setEnabled":
        return client.post(f"{MODULES}/{module_id}/setEnabled", json={"enabled": False}, headers=headers)
    if action == "usage":
        return client.get(f"{MODULES}/{module_id}/usage", headers=headers)
    if action == "names":
        return client.post(f"{MODULES}/getTrainingModuleNames", json=[module_id], headers=headers)
    if action == "search":
        return client.get(f"{MODULES}/search", params={"name": "consi"}, headers=headers)
    return client.post(f"{MODULES}/query", json={}, headers=headers)


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("action", ACTIONS)
def test_permission_table(client, test_map, make_user, login, manager, role, action):
    module_id = create(client, manager, form(test_map))
    headers = login(make_user(permissions=ROLES[role]))
    response = perform(client, headers, test_map, action, module_id, version=1)
    if MANAGE in ROLES[role] or (action in PICKERS and role in PICKING_ROLES):
        assert response.status_code in (200, 204), response.text
    else:
        assert_error(response, 403, "Insufficient rights to access this information")


def test_can_object(client, db, test_map, manager):
    module_id = create(client, manager, form(test_map))
    assert read(client, manager, module_id)["can"] == {"edit": True, "delete": True, "setEnabled": True}
    path(db, module_id)
    assert read(client, manager, module_id)["can"] == {"edit": True, "delete": False, "setEnabled": True}
    path(db, module_id, status="accepted")
    assert read(client, manager, module_id)["can"] == {"edit": False, "delete": False, "setEnabled": True}


# Create and read back -----------------------------------------------------------------------------


def test_create_returns_the_id_and_the_module_reads_back(client, db, test_map, course, make_user, login):
    author = make_user("auteur", [MANAGE], first_name="Anne", last_name="Auteur")
    headers = login(author)
    reference(db, "CONS", label="Consignation", description="Consignation des énergies")
    module_id = create(client, headers, form(test_map, course, reference="CONS"))
    body = read(client, headers, module_id)
    assert body["id"] == module_id
    assert (body["name"], body["moduleType"], body["goals"]) == (
        "Consignation d'une machine",
        "training",
        "Savoir consigner\net déconsigner",
    )
    assert (body["estimatedDuration"], body["periodicity"], body["passThreshold"]) == (90, 12, 7)
    assert body["reference"] == {
        "code": "CONS",
        "label": "Consignation",
        "description": "Consignation des énergies",
    }
    assert body["enabled"] is True and body["version"] == 1
    assert body["creation"]["userId"] == author.id and body["creation"]["userName"] == "Anne Auteur"
    assert body["creation"]["date"].endswith("Z")
    assert body["usage"] == {"trainingPath": 0, "hasAcceptedTrainingPath": False}
    assert [item["type"] for item in body["moduleItems"]] == ["spot", "mediation", "url", "lms"]


def test_defaults_of_a_new_module(client, test_map, manager):
    body = {
        key: value
        for key, value in form(test_map).items()
        if key not in ("estimatedDuration", "periodicity", "passThreshold", "reference")
    }
    module = read(client, manager, create(client, manager, body))
    assert (module["estimatedDuration"], module["periodicity"], module["passThreshold"]) == (0, 0, 10)
    assert module["reference"] is None and module["enabled"] is True


# The form's rules ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "overrides, field, code",
    [
        ({"name": ""}, "name", "emptyFieldError"),
        ({"name": "   "}, "name", "emptyFieldError"),
        ({"name": " Consignation"}, "name", "beginEndWhitespaceError"),
        ({"name": "Consignation\n"}, "name", "beginEndWhitespaceError"),
        ({"name": None}, "name", "string_type"),
        ({"goals": ""}, "goals", "emptyFieldError"),
        ({"goals": "Savoir\n"}, "goals", "beginEndWhitespaceError"),
        ({"goals": "\tSavoir"}, "goals", "beginEndWhitespaceError"),
        ({"moduleType": "course"}, "moduleType", "enum"),
        ({"estimatedDuration": -1}, "estimatedDuration", "nonZeroNumericValueExpected"),
        ({"estimatedDuration": 60_001}, "estimatedDuration", "nonZeroNumericValueExpected"),
        ({"estimatedDuration": 2**40}, "estimatedDuration", "nonZeroNumericValueExpected"),
        ({"periodicity": -12}, "periodicity", "nonZeroNumericValueExpected"),
        ({"periodicity": 1201}, "periodicity", "nonZeroNumericValueExpected"),
        ({"passThreshold": -1}, "passThreshold", "valueMustBeBetween"),
        ({"passThreshold": 11}, "passThreshold", "valueMustBeBetween"),
        ({"moduleItems": []}, "moduleItems", "emptyFieldError"),
    ],
)
def test_module_fields_are_checked(client, test_map, manager, overrides, field, code):
    response = client.post(MODULES, json=form(test_map, **overrides), headers=manager)
    assert_error(response, 422, "atLeastOneErrorLeft")
    assert field_codes(response) == {(field, code)}


@pytest.mark.parametrize("missing", ["name", "goals", "moduleType", "moduleItems"])
def test_required_fields(client, test_map, manager, missing):
    body = form(test_map)
    del body[missing]
    response = client.post(MODULES, json=body, headers=manager)
    assert_error(response, 422, "atLeastOneErrorLeft")
    assert field_codes(response) == {(missing, "emptyFieldError")}


@pytest.mark.parametrize(
    "overrides",
    [
        {"estimatedDuration": 0, "periodicity": 0, "passThreshold": 0},
        {"estimatedDuration": 60_000, "periodicity": 1200, "passThreshold": 10},
        {"estimatedDuration": 1, "periodicity": 1, "passThreshold": 5},
        {"moduleType": "qualification"},
        {"moduleType": "other"},
        {"goals": "Une ligne\n\tpuis une autre"},
    ],
)
def test_bounds_and_values_accepted(client, test_map, manager, overrides):
    module = read(client, manager, create(client, manager, form(test_map, **overrides)))
    for key, value in overrides.items():
        assert module[key] == value


@pytest.mark.parametrize(
    "item, field, code",
    [
        (mediation(title=""), "moduleItems[1].title", "emptyFieldError"),
        (mediation(title=" Démonstration"), "moduleItems[1].title", "beginEndWhitespaceError"),
        (mediation(title="Démo\nsur deux lignes"), "moduleItems[1].title", "invalidCharacter"),
        (mediation(description=""), "moduleItems[1].description", "emptyFieldError"),
        (mediation(description="Montrer\n"), "moduleItems[1].description", "beginEndWhitespaceError"),
        ({"type": "mediation", "description": "Montrer"}, "moduleItems[1].title", "emptyFieldError"),
        (url(address=""), "moduleItems[1].url", "emptyFieldError"),
        (url(address=" https://www.inrs.fr"), "moduleItems[1].url", "beginEndWhitespaceError"),
        (url(address="ftp://www.inrs.fr/consignation.pdf"), "moduleItems[1].url", "notAValidUrl"),
        (url(address="www.inrs.fr"), "moduleItems[1].url", "notAValidUrl"),
        (url(address="https://"), "moduleItems[1].url", "notAValidUrl"),
        (url(address="javascript:alert(1)"), "moduleItems[1].url", "notAValidUrl"),
        (url(address="https://www.inrs .fr"), "moduleItems[1].url", "notAValidUrl"),
        (url(address="https://www.inrs.fr:99999/"), "moduleItems[1].url", "notAValidUrl"),
        (url(label=""), "moduleItems[1].label", "emptyFieldError"),
        (url(label="INRS "), "moduleItems[1].label", "beginEndWhitespaceError"),
        ({"type": "url", "url": "https://www.inrs.fr"}, "moduleItems[1].label", "emptyFieldError"),
        (spot("activity", 987_654), "moduleItems[1]", "invalidValue"),
        (spot("subject", 987_654), "moduleItems[1]", "invalidValue"),
        (lms(987_654), "moduleItems[1]", "invalidValue"),
    ],
)
def test_element_rules_name_the_element(client, test_map, manager, item, field, code):
    body = form(test_map, moduleItems=[mediation(), item])
    response = client.post(MODULES, json=body, headers=manager)
    assert_error(response, 400, "atLeastOneErrorLeft")
    assert field_codes(response) == {(field, code)}


def test_every_faulty_element_is_named_at_once(client, test_map, manager):
    items = [mediation(title=""), url(address="ftp://x", label=""), spot("site", 987_654), lms(987_654)]
    response = client.post(MODULES, json=form(test_map, moduleItems=items), headers=manager)
    assert field_codes(response) == {
        ("moduleItems[0].title", "emptyFieldError"),
        ("moduleItems[1].url", "notAValidUrl"),
        ("moduleItems[1].label", "emptyFieldError"),
        ("moduleItems[2]", "invalidValue"),
        ("moduleItems[3]", "invalidValue"),
    }


@pytest.mark.parametrize(
    "item",
    [
        {"type": "video", "url": "https://www.inrs.fr"},
        {"type": "spot", "spotItemType": "mindmapNode", "spotItemId": 1},
        {"type": "spot", "spotItemType": "activity"},
        {"type": "lms"},
        {"type": "lms", "lmsCourseId": "3a"},
    ],
)
def test_malformed_elements_are_bad_input(client, test_map, manager, item):
    response = client.post(MODULES, json=form(test_map, moduleItems=[item]), headers=manager)
    assert_error(response, 422, "atLeastOneErrorLeft")


@pytest.mark.parametrize(
    "address",
    ["http://www.inrs.fr", "https://www.inrs.fr/risques/consignation.html?x=1#a", "HTTPS://INRS.FR"],
)
def test_web_addresses_accepted(client, test_map, manager, address):
    module = read(
        client, manager, create(client, manager, form(test_map, moduleItems=[url(address=address)]))
    )
    assert module["moduleItems"] == [{"type": "url", "url": address, "label": "INRS"}]


def _map_item(m, kind, code):
    return {
        "site": lambda: m.site_id,
        "cartography": lambda: m.cartography(code),
        "activity": lambda: m.activity(code),
        "function": lambda: m.function(code),
        "subject": lambda: m.subject(code),
    }[kind]()


@pytest.mark.parametrize(
    "kind, code",
    [("site", None), ("cartography", "C1"), ("activity", "A121"), ("function", "F2"), ("subject", "S3")],
)
def test_a_spot_element_names_an_existing_item(client, test_map, manager, kind, code):
    item_id = _map_item(test_map, kind, code)
    module = read(client, manager, create(client, manager, form(test_map, moduleItems=[spot(kind, item_id)])))
    assert module["moduleItems"][0]["spotItemId"] == item_id


@pytest.mark.parametrize(
    "kind, other, code",
    [
        ("function", "activity", "A11"),
        ("site", "cartography", "C1"),
        ("cartography", "function", "F1"),
        ("activity", "site", None),
        ("activity", "function", "F1"),
    ],
)
def test_a_spot_element_names_an_item_of_its_type(client, test_map, manager, kind, other, code):
    """Sites, cartographies, activities and functions share one id space: an id names one of them."""
    item = spot(kind, _map_item(test_map, other, code))
    response = client.post(MODULES, json=form(test_map, moduleItems=[item]), headers=manager)
    assert field_codes(response) == {("moduleItems[0]", "invalidValue")}


def test_a_spot_element_the_author_cannot_see_is_refused(client, db, test_map, make_user, login):
    author = make_user("limité", [MANAGE])
    restrict(db, author, test_map.cartography("C1"))
    headers = login(author)
    create(client, headers, form(test_map, moduleItems=[spot("activity", test_map.activity("A11"))]))
    for kind, item_id in [
        ("cartography", test_map.cartography("C2")),
        ("activity", test_map.activity("B1")),
        ("function", test_map.function("G1")),
        ("subject", test_map.subject("T1")),
    ]:
        response = client.post(
            MODULES, json=form(test_map, moduleItems=[spot(kind, item_id)]), headers=headers
        )
        assert field_codes(response) == {("moduleItems[0]", "invalidValue")}, kind


def test_lms_elements_name_an_existing_resource_or_quiz(client, db, test_map, course, manager):
    for item_id in (course.resource, course.quiz):
        create(client, manager, form(test_map, moduleItems=[lms(item_id)]))
    other = Course(db, "Habilitation électrique")
    gone = Course(db, "Ancien cours")
    other.remove_item(other.resource)
    gone.remove()
    for item_id in (course.group, other.resource, gone.quiz, course.id + 99_999):
        response = client.post(MODULES, json=form(test_map, moduleItems=[lms(item_id)]), headers=manager)
        assert field_codes(response) == {("moduleItems[0]", "invalidValue")}, item_id


def test_reference_by_code(client, db, test_map, manager):
    reference(db, "CONS")
    reference(db, "OLD", disabled=True)
    reference(db, "PARCOURS", type="path")
    module = read(client, manager, create(client, manager, form(test_map, reference="CONS")))
    assert module["reference"]["code"] == "CONS"
    for code in ("INCONNU", "OLD", "PARCOURS"):
        response = client.post(MODULES, json=form(test_map, reference=code), headers=manager)
        assert_error(response, 400, "atLeastOneErrorLeft")
        assert field_codes(response) == {("reference", "invalidValue")}, code
    assert read(client, manager, create(client, manager, form(test_map, reference="")))["reference"] is None


def test_reference_errors_come_with_element_errors(client, test_map, manager):
    response = client.post(
        MODULES, json=form(test_map, reference="INCONNU", moduleItems=[mediation(title="")]), headers=manager
    )
    assert field_codes(response) == {
        ("reference", "invalidValue"),
        ("moduleItems[0].title", "emptyFieldError"),
    }


# Update -----------------------------------------------------------------------------------------------


def test_update_saves_everything_and_bumps_the_version(client, db, test_map, course, manager):
    reference(db, "CONS")
    module_id = create(client, manager, form(test_map))
    changed = form(
        test_map,
        course,
        name="Consignation électrique",
        moduleType="qualification",
        goals="Consigner une armoire",
        estimatedDuration=120,
        reference="CONS",
        periodicity=36,
        passThreshold=8,
        moduleItems=[
            lms(course.resource),
            mediation(title="Exercice"),
            spot("function", test_map.function("F2")),
        ],
        version=1,
    )
    response = save(client, manager, module_id, changed)
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["version"] == 2
    assert (body["name"], body["moduleType"], body["goals"]) == (
        "Consignation électrique",
        "qualification",
        "Consigner une armoire",
    )
    assert (body["estimatedDuration"], body["periodicity"], body["passThreshold"]) == (120, 36, 8)
    assert body["reference"]["code"] == "CONS"
    assert [(i["type"], i.get("name") or i.get("title")) for i in body["moduleItems"]] == [
        ("lms", "Lire la procédure"),
        ("mediation", "Exercice"),
        ("spot", "Contrôleur"),
    ]
    assert read(client, manager, module_id) == body
    count = db.scalar(
        select(func.count()).select_from(TrainingModuleItem).where(TrainingModuleItem.module_id == module_id)
    )
    assert count == 3


def test_a_save_that_changes_nothing_writes_nothing(client, test_map, course, manager):
    module_id = create(client, manager, form(test_map, course))
    same = save(client, manager, module_id, form(test_map, course, version=1))
    assert same.status_code == 200 and same.json()["version"] == 1
    moved = form(test_map, course, version=1)
    moved["moduleItems"].reverse()
    assert save(client, manager, module_id, moved).json()["version"] == 2
    assert save(client, manager, module_id, {**moved, "version": 2}).json()["version"] == 2


def test_only_the_elements_changed_is_a_new_version(client, test_map, manager):
    module_id = create(client, manager, form(test_map))
    body = save(
        client, manager, module_id, form(test_map, moduleItems=[mediation(title="Autre")], version=1)
    ).json()
    assert body["version"] == 2 and body["moduleItems"] == [
        {"type": "mediation", "title": "Autre", "description": "Le référent montre\nles gestes"}
    ]


def test_stale_version(client, test_map, manager):
    module_id = create(client, manager, form(test_map))
    assert save(client, manager, module_id, form(test_map, name="Premier", version=1)).status_code == 200
    response = save(client, manager, module_id, form(test_map, name="Second", version=1))
    assert_error(response, 409, "staleVersion")
    assert read(client, manager, module_id)["name"] == "Premier"


def test_a_save_without_version_applies(client, test_map, manager):
    """The spec's client sends the form without `version`: the save applies over whatever was read."""
    module_id = create(client, manager, form(test_map))
    assert save(client, manager, module_id, form(test_map, name="Premier", version=1)).status_code == 200
    response = save(client, manager, module_id, form(test_map, name="Second"))
    assert response.status_code == 200, response.text
    assert (response.json()["name"], response.json()["version"]) == ("Second", 3)
    unchanged = save(client, manager, module_id, form(test_map, name="Second"))
    assert unchanged.status_code == 200 and unchanged.json()["version"] == 3
    stale = save(client, manager, module_id, form(test_map, name="Troisième", version=2))
    assert_error(stale, 409, "staleVersion")


def test_a_failed_save_keeps_the_module(client, test_map, manager):
    module_id = create(client, manager, form(test_map))
    response = save(
        client, manager, module_id, form(test_map, name="Renommé", moduleItems=[url(address="x")], version=1)
    )
    assert_error(response, 400)
    module = read(client, manager, module_id)
    assert module["name"] == "Consignation d'une machine" and module["version"] == 1


@pytest.mark.parametrize("status", ["accepted", "started", "finished", "validated", "archived", "canceled"])
def test_editing_is_refused_once_an_accepted_path_uses_the_module(client, db, test_map, manager, status):
    module_id = create(client, manager, form(test_map))
    other = create(client, manager, form(test_map, name="Autre"))
    path(db, other, module_id, status=status)
    response = save(client, manager, module_id, form(test_map, name="Renommé", version=1))
    assert_error(response, 409, "trainingModuleUsedByAcceptedPath")
    module = read(client, manager, module_id)
    assert module["name"] == "Consignation d'une machine"
    assert module["usage"] == {"trainingPath": 1, "hasAcceptedTrainingPath": True}
    # Enabling and disabling stays possible: it is how a module in use is retired.
    disabled = client.post(f"{MODULES}/{module_id}/setEnabled", json={"enabled": False}, headers=manager)
    assert disabled.status_code == 200 and disabled.json()["enabled"] is False


def test_editing_is_allowed_while_paths_using_it_are_not_accepted(client, db, test_map, manager):
    module_id = create(client, manager, form(test_map))
    path(db, module_id)
    path(db, module_id)
    assert client.get(f"{MODULES}/{module_id}/usage", headers=manager).json() == {
        "trainingPath": 2,
        "hasAcceptedTrainingPath": False,
    }
    assert save(client, manager, module_id, form(test_map, name="Renommé", version=1)).status_code == 200


def test_a_path_assigning_a_module_twice_counts_once(client, db, test_map, manager):
    module_id = create(client, manager, form(test_map))
    path(db, module_id, module_id)
    assert client.get(f"{MODULES}/{module_id}/usage", headers=manager).json()["trainingPath"] == 1


def test_a_disabled_reference_stays_while_the_module_keeps_it(client, db, test_map, manager):
    reference(db, "CONS")
    reference(db, "OLD", disabled=True)
    module_id = create(client, manager, form(test_map, reference="CONS"))
    db.query(Reference).filter(Reference.code == "CONS").update({"disabled": True})
    db.commit()
    kept = save(client, manager, module_id, form(test_map, reference="CONS", name="Renommé", version=1))
    assert kept.status_code == 200 and kept.json()["reference"]["code"] == "CONS"
    switched = save(client, manager, module_id, form(test_map, reference="OLD", version=2))
    assert field_codes(switched) == {("reference", "invalidValue")}
    removed = save(client, manager, module_id, form(test_map, reference=None, version=2))
    assert removed.json()["reference"] is None


def test_an_author_keeps_elements_they_cannot_see(client, db, test_map, make_user, login, manager):
    hidden = spot("activity", test_map.activity("B1"))
    module_id = create(client, manager, form(test_map, moduleItems=[hidden]))
    author = make_user("limité", [MANAGE])
    restrict(db, author, test_map.cartography("C1"))
    headers = login(author)
    kept = save(client, headers, module_id, form(test_map, moduleItems=[mediation(), hidden], version=1))
    assert kept.status_code == 200, kept.text
    assert kept.json()["moduleItems"][1]["readable"] is False
    other_hidden = spot("function", test_map.function("G1"))
    refused = save(client, headers, module_id, form(test_map, moduleItems=[hidden, other_hidden], version=2))
    assert field_codes(refused) == {("moduleItems[1]", "invalidValue")}


# Enable, delete, usage ------------------------------------------------------------------------------


def test_set_enabled(client, test_map, manager):
    module_id = create(client, manager, form(test_map))
    url_ = f"{MODULES}/{module_id}/setEnabled"
    off = client.post(url_, json={"enabled": False}, headers=manager).json()
    assert (off["enabled"], off["version"]) == (False, 2)
    again = client.post(url_, json={"enabled": False}, headers=manager).json()
    assert (again["enabled"], again["version"]) == (False, 2)
    on = client.post(url_, json={"enabled": True}, headers=manager).json()
    assert (on["enabled"], on["version"]) == (True, 3)
    assert_error(client.post(url_, json={}, headers=manager), 422)


def test_delete(client, db, test_map, course, manager):
    module_id = create(client, manager, form(test_map, course))
    response = client.delete(f"{MODULES}/{module_id}", headers=manager)
    assert response.status_code == 204 and response.content == b""
    assert_error(client.get(f"{MODULES}/{module_id}", headers=manager), 404, "trainingModuleNotFound")
    assert db.scalar(select(func.count()).select_from(TrainingModuleItem)) == 0


@pytest.mark.parametrize("status", ["notAccepted", "accepted", "canceled"])
def test_deletion_is_refused_while_a_path_uses_the_module(client, db, test_map, manager, status):
    module_id = create(client, manager, form(test_map))
    path(db, module_id, status=status)
    assert_error(client.delete(f"{MODULES}/{module_id}", headers=manager), 409, "trainingModuleInUse")
    assert read(client, manager, module_id)["usage"]["trainingPath"] == 1


@pytest.mark.parametrize(
    "method, suffix, body",
    [
        ("get", "", None),
        ("post", "", "form"),
        ("delete", "", None),
        ("post", "/setEnabled", {"enabled": True}),
        ("get", "/usage", None),
    ],
)
def test_unknown_module(client, test_map, manager, method, suffix, body):
    json = form(test_map, version=1) if body == "form" else body
    response = client.request(method, f"{MODULES}/987654{suffix}", json=json, headers=manager)
    assert_error(response, 404, "trainingModuleNotFound")


def test_module_references_count_the_modules_using_them(client, db, test_map, manager):
    reference_id = reference(db, "CONS")
    module_id = create(client, manager, form(test_map, reference="CONS"))
    create(client, manager, form(test_map, reference="CONS", name="Autre"))
    used = db.get(Reference, reference_id)
    assert references.usage(db, reference=used) == 2
    save(client, manager, module_id, form(test_map, reference=None, version=1))
    db.expire_all()
    assert references.usage(db, reference=db.get(Reference, reference_id)) == 1


def test_path_references_count_the_paths_using_them(db):
    reference_id = reference(db, "PARCOURS-CONS", type="path")
    path_id = path(db)
    from spot.training.paths.models import TrainingPath

    db.get(TrainingPath, path_id).reference_id = reference_id
    db.commit()
    assert references.usage(db, reference=db.get(Reference, reference_id)) == 1
