"""Training references (spec 2 §2 'Module and path references', §5 Reference, §6, §7): every rule,
message key and permission."""

import pytest

from spot.references import service
from support import API, assert_error, field_codes

ADMIN, MANAGER, PATH_ADMIN = (
    "perm_TrainingReferenceAdmin",
    "perm_TrainingManagement",
    "perm_TrainingPathAdmin",
)
TYPES = ["module", "path", "function", "subject", "qualification"]


def url(type_="module", *rest):
    return "/".join([f"{API}/training/references/{type_}", *rest])


def form(**overrides):
    return {"code": "SEC-01", "label": "Sécurité générale", "description": "Les bases.", **overrides}


@pytest.fixture
def admin(make_user, login):
    return login(make_user(permissions=[ADMIN]))


def create(client, headers, type_="module", **overrides):
    response = client.post(url(type_), json=form(**overrides), headers=headers)
    assert response.status_code == 200, response.text
    return response.json()


@pytest.fixture
def used(monkeypatch):
    """Module and path references used by as many things as set here (as modules and paths would)."""
    counts: dict[int, int] = {}
    for type_ in ("module", "path"):
        monkeypatch.setitem(service._USAGE, type_, lambda _db, reference_id: counts.get(reference_id, 0))
    return counts


def reference_id(db, type_, code):
    from spot.references.models import ReferenceType

    return service.get(db, type=ReferenceType(type_), code=code).id


# Who may do what: role × action ---------------------------------------------------------------

ROLES = {
    "nobody": [],
    "admin": [ADMIN],
    "manager": [MANAGER],
    "pathAdmin": [PATH_ADMIN],
    "all": [ADMIN, MANAGER, PATH_ADMIN],
}
READERS = {ADMIN, MANAGER, PATH_ADMIN}
ACTIONS = {
    # action: the permissions any of which allows it
    "list": {ADMIN},
    "read": READERS,
    "search": READERS,
    "create": {ADMIN},
    "save": {ADMIN},
    "usage": {ADMIN},
    "delete": {ADMIN},
}


def perform(client, headers, action, code):
    if action == "list":
        return client.post(f"{API}/training/references/query/module", json={}, headers=headers)
    if action == "read":
        return client.get(url("module", code), headers=headers)
    if action == "search":
        return client.get(url("module", "search"), params={"text": "sec"}, headers=headers)
    if action == "create":
        return client.post(url("module"), json=form(code="NEW-01"), headers=headers)
    if action == "save":
        return client.post(url("module"), json=form(code=code, label="Renommé", version=1), headers=headers)
    if action == "usage":
        return client.get(url("module", code, "usage"), headers=headers)
    return client.delete(url("module", code), headers=headers)


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("action", ACTIONS)
def test_permission_table(client, admin, make_user, login, role, action):
    create(client, admin)
    headers = login(make_user(permissions=ROLES[role]))
    allowed = bool(ACTIONS[action] & set(ROLES[role]))
    response = perform(client, headers, action, "SEC-01")
    if allowed:
        assert response.status_code in (200, 204), response.text
    else:
        assert_error(response, 403)


@pytest.mark.parametrize("role", ROLES)
def test_can_follows_the_permission(client, admin, make_user, login, role):
    create(client, admin)
    headers = login(make_user(permissions=ROLES[role]))
    response = client.get(url("module", "SEC-01"), headers=headers)
    if not set(ROLES[role]) & READERS:
        assert_error(response, 403)
        return
    manage = ADMIN in ROLES[role]
    assert response.json()["can"] == {"edit": manage, "delete": manage}


def test_a_signed_out_caller_is_refused(client):
    assert_error(client.get(url("module", "search")), 401)
    assert_error(client.post(url("module"), json=form()), 401)


# Types -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("type_", TYPES)
def test_every_type_of_the_typed_model_has_its_list(client, admin, type_):
    create(client, admin, type_, code=f"{type_.upper()}-1")
    listed = client.post(f"{API}/training/references/query/{type_}", json={}, headers=admin).json()
    assert [r["code"] for r in listed["results"]] == [f"{type_.upper()}-1"]
    assert listed["totalItems"] == 1


def test_an_unknown_type_is_not_found(client, admin):
    create(client, admin)
    for response in (
        client.post(f"{API}/training/references/query/course", json={}, headers=admin),
        client.get(url("course", "search"), headers=admin),
        client.get(url("course", "SEC-01"), headers=admin),
        client.get(url("course", "SEC-01", "usage"), headers=admin),
        client.post(url("course"), json=form(), headers=admin),
        client.delete(url("course", "SEC-01"), headers=admin),
    ):
        assert_error(response, 404)


def test_codes_are_unique_per_type_only(client, admin):
    create(client, admin, "module")
    create(client, admin, "path")
    # Version 0 only creates (Spot's dialog): a taken code is refused, not overwritten.
    response = client.post(url("module"), json=form(label="Autre", version=0), headers=admin)
    assert_error(response, 409, "alreadyExists")
    assert field_codes(response) == {("code", "alreadyExists")}
    assert client.get(url("module", "SEC-01"), headers=admin).json()["label"] == "Sécurité générale"
    assert client.get(url("path", "SEC-01"), headers=admin).json()["code"] == "SEC-01"


# Create, read, save ----------------------------------------------------------------------------


def test_create_then_read(client, admin):
    created = create(client, admin, description="Ligne 1\nLigne 2")
    assert created == {
        "code": "SEC-01",
        "label": "Sécurité générale",
        "description": "Ligne 1\nLigne 2",
        "disabled": False,
        "version": 1,
        "usage": 0,
        "can": {"edit": True, "delete": True},
    }
    assert client.get(url("module", "SEC-01"), headers=admin).json() == created


def test_the_description_may_stay_empty_and_a_reference_may_start_disabled(client, admin):
    created = create(client, admin, description="", disabled=True)
    assert created["description"] == "" and created["disabled"] is True


def test_an_unknown_code_is_not_found(client, admin):
    assert_error(client.get(url("module", "NOPE"), headers=admin), 404, "referenceNotFound")
    assert_error(client.get(url("module", "NOPE", "usage"), headers=admin), 404)
    assert_error(client.delete(url("module", "NOPE"), headers=admin), 404)
    response = client.post(url("module"), json=form(code="NOPE", version=1), headers=admin)
    assert_error(response, 404, "referenceNotFound")


@pytest.mark.parametrize("field", ["code", "label"])
@pytest.mark.parametrize(
    ("value", "key"),
    [
        ("", "emptyFieldError"),
        ("   ", "emptyFieldError"),
        (" X", "beginEndWhitespaceError"),
        ("X ", "beginEndWhitespaceError"),
    ],
)
def test_code_and_label_follow_the_general_text_rule(client, admin, field, value, key):
    response = client.post(url("module"), json=form(**{field: value}), headers=admin)
    assert response.status_code in (400, 422)
    assert (field, key) in field_codes(response)
    assert_error(client.get(url("module", "SEC-01"), headers=admin), 404)


@pytest.mark.parametrize("code", ["A/B", "search"])
def test_a_code_is_a_segment_of_the_address(client, admin, code):
    """No slash, and not the autocomplete's segment: GET /training/references/{type}/{code} reads it."""
    response = client.post(url("module"), json=form(code=code), headers=admin)
    assert_error(response, 400, "invalidValue")
    assert field_codes(response) == {("code", "invalidValue")}


def test_a_code_with_other_signs_is_read_at_its_address(client, admin):
    create(client, admin, code="É 1?#%")
    assert client.get(url("module", "%C3%89%201%3F%23%25"), headers=admin).json()["code"] == "É 1?#%"


def test_the_description_keeps_its_lines_but_no_outer_whitespace(client, admin):
    response = client.post(url("module"), json=form(description=" texte"), headers=admin)
    assert ("description", "beginEndWhitespaceError") in field_codes(response)
    response = client.post(url("module"), json=form(description="a\x00b"), headers=admin)
    assert ("description", "invalidCharacter") in field_codes(response)


def test_save_changes_label_description_and_disabled_and_bumps_the_version(client, admin):
    create(client, admin)
    saved = client.post(
        url("module"),
        json={"code": "SEC-01", "label": "Sécurité", "description": "", "disabled": True, "version": 1},
        headers=admin,
    )
    assert saved.status_code == 200, saved.text
    body = saved.json()
    assert (body["label"], body["description"], body["disabled"], body["version"]) == (
        "Sécurité",
        "",
        True,
        2,
    )
    assert client.get(url("module", "SEC-01"), headers=admin).json() == body


def test_the_specs_payload_creates_or_saves(client, admin):
    """Spec 2 §7: POST /training/references/{type} "create or save", with no version in its payload."""
    response = client.post(url("module"), json=form(), headers=admin)
    assert response.status_code == 200, response.text
    assert response.json()["version"] == 1
    response = client.post(url("module"), json=form(label="Sécurité", disabled=True), headers=admin)
    assert response.status_code == 200, response.text
    body = response.json()
    assert (body["code"], body["label"], body["disabled"], body["version"]) == ("SEC-01", "Sécurité", True, 2)
    assert client.get(url("module", "SEC-01"), headers=admin).json() == body


def test_version_0_creates_only(client, admin):
    response = client.post(url("module"), json=form(version=0), headers=admin)
    assert response.status_code == 200, response.text
    assert response.json()["version"] == 1


def test_a_stale_version_is_refused(client, admin):
    create(client, admin)
    assert client.post(url("module"), json=form(label="Premier", version=1), headers=admin).status_code == 200
    response = client.post(url("module"), json=form(label="Second", version=1), headers=admin)
    assert_error(response, 409, "staleVersion")
    assert client.get(url("module", "SEC-01"), headers=admin).json()["label"] == "Premier"


def test_the_code_never_changes(client, admin):
    """A save names the reference by its code: another code is another reference."""
    create(client, admin)
    response = client.post(url("module"), json=form(code="SEC-02", version=1), headers=admin)
    assert_error(response, 404)
    assert client.get(url("module", "SEC-01"), headers=admin).json()["version"] == 1


# Usage and deletion ----------------------------------------------------------------------------


def test_usage_counts_what_uses_the_reference(client, admin, db, used):
    create(client, admin, "module")
    create(client, admin, "function", code="F-1")
    assert client.get(url("module", "SEC-01", "usage"), headers=admin).json() == {"usage": 0}
    used[reference_id(db, "module", "SEC-01")] = 3
    assert client.get(url("module", "SEC-01", "usage"), headers=admin).json() == {"usage": 3}
    read = client.get(url("module", "SEC-01"), headers=admin).json()
    assert read["usage"] == 3 and read["can"] == {"edit": True, "delete": False}
    assert client.get(url("function", "F-1", "usage"), headers=admin).json() == {"usage": 0}


@pytest.mark.parametrize("type_", ["module", "path"])
def test_delete_is_refused_while_the_reference_is_used(client, admin, db, used, type_):
    create(client, admin, type_)
    used[reference_id(db, type_, "SEC-01")] = 1
    assert_error(client.delete(url(type_, "SEC-01"), headers=admin), 409, "referenceInUse")
    assert client.get(url(type_, "SEC-01"), headers=admin).status_code == 200
    used.clear()
    assert client.delete(url(type_, "SEC-01"), headers=admin).status_code == 204
    assert_error(client.get(url(type_, "SEC-01"), headers=admin), 404)


def test_a_registered_counter_replaces_the_types_own(client, admin, db, monkeypatch):
    monkeypatch.setitem(service._USAGE, "subject", service._USAGE.get("subject"))
    service.register_usage("subject", lambda _db, _id: 2)
    create(client, admin, "subject", code="S-1")
    assert client.get(url("subject", "S-1", "usage"), headers=admin).json() == {"usage": 2}
    assert_error(client.delete(url("subject", "S-1"), headers=admin), 409, "referenceInUse")


# Search ----------------------------------------------------------------------------------------


def test_search_matches_code_label_or_description_ignoring_case_and_accents(client, admin):
    create(client, admin, code="SEC-01", label="Sécurité générale", description="")
    create(client, admin, code="CONS-02", label="Consignation", description="Mise en sécurité des machines")
    create(client, admin, code="QUAL-01", label="Qualité", description="")
    create(client, admin, code="ZZ-SECU", label="Autre", description="")

    def codes(text):
        response = client.get(url("module", "search"), params={"text": text}, headers=admin)
        assert response.status_code == 200, response.text
        return [r["code"] for r in response.json()]

    assert codes("SECU") == ["CONS-02", "SEC-01", "ZZ-SECU"]  # description, label, code; code order
    assert codes("qual") == ["QUAL-01"]
    assert codes("cons-0") == ["CONS-02"]
    assert codes("%") == [] and codes("_") == []
    assert codes("") == ["CONS-02", "QUAL-01", "SEC-01", "ZZ-SECU"]
    assert client.get(url("module", "search"), params={"text": "qual"}, headers=admin).json() == [
        {"code": "QUAL-01", "label": "Qualité", "description": "", "disabled": False}
    ]


def test_search_leaves_out_disabled_references_and_other_types(client, admin):
    create(client, admin, code="SEC-01")
    create(client, admin, code="SEC-02", disabled=True)
    create(client, admin, "path", code="SEC-03")
    found = client.get(url("module", "search"), params={"text": "sec"}, headers=admin).json()
    assert [r["code"] for r in found] == ["SEC-01"]


def test_search_answers_30_at_most(client, admin):
    for n in range(35):
        create(client, admin, code=f"REF-{n:02d}", label=f"Référence {n}")
    found = client.get(url("module", "search"), params={"text": "ref"}, headers=admin).json()
    assert [r["code"] for r in found] == [f"REF-{n:02d}" for n in range(30)]


# For other areas: resolve and summaries ----------------------------------------------------------


def test_resolve(client, admin, db):
    from spot.core.errors import ApiError

    create(client, admin, code="ON")
    create(client, admin, code="OFF", disabled=True)
    create(client, admin, "path", code="P")
    on, off = reference_id(db, "module", "ON"), reference_id(db, "module", "OFF")
    assert service.resolve(db, type="module", code=None) is None
    assert service.resolve(db, type="module", code="") is None
    assert service.resolve(db, type="module", code="ON") == on
    assert service.resolve(db, type="path", code="P") == reference_id(db, "path", "P")
    assert service.resolve(db, type="module", code="OFF", current_id=off) == off
    for code, current in (("NOPE", None), ("OFF", None), ("OFF", on), ("P", None)):
        with pytest.raises(ApiError) as refused:
            service.resolve(db, type="module", code=code, current_id=current)
        assert refused.value.status == 400
        assert [(e.field, e.code) for e in refused.value.errors] == [("reference", "invalidValue")]


def test_summaries(client, admin, db):
    create(client, admin, code="ON", label="Allumé", description="d")
    on = reference_id(db, "module", "ON")
    summaries = service.summaries(db, [on, None, 999_999])
    assert list(summaries) == [on]
    assert summaries[on].model_dump(by_alias=True) == {"code": "ON", "label": "Allumé", "description": "d"}
    assert service.summaries(db, []) == {}


# Usage by the modules and paths themselves ---------------------------------------------------------


def test_modules_and_paths_using_a_reference_count_and_keep_it(client, admin, db):
    """Module references count the training modules classified by them, path references the training
    paths (rows made directly: the paths' screens come later)."""
    from datetime import UTC, datetime

    from spot.training.modules.models import TrainingModule
    from spot.training.paths.models import TrainingPath

    create(client, admin, "module")
    create(client, admin, "path")
    now = datetime.now(UTC)
    db.add_all(
        [
            TrainingModule(
                name=f"Module {n}", reference_id=reference_id(db, "module", "SEC-01"), created_at=now
            )
            for n in range(2)
        ]
    )
    db.add(
        TrainingPath(
            title="Parcours",
            reference_id=reference_id(db, "path", "SEC-01"),
            created_at=now,
            status_changed_at=now,
            start_date=now.date(),
            stop_date=now.date(),
        )
    )
    db.commit()
    assert client.get(url("module", "SEC-01", "usage"), headers=admin).json() == {"usage": 2}
    assert client.get(url("path", "SEC-01", "usage"), headers=admin).json() == {"usage": 1}
    for type_ in ("module", "path"):
        assert client.get(url(type_, "SEC-01"), headers=admin).json()["can"]["delete"] is False
        assert_error(client.delete(url(type_, "SEC-01"), headers=admin), 409, "referenceInUse")
        assert client.get(url(type_, "SEC-01"), headers=admin).status_code == 200
