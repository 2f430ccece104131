"""Path report parameters (spec 2 §3 Report configuration, §5 Report, §9): every validation key, the
saved parameter sets (overwrite by name keeping the default flag, one default, delete), the defaults,
and who may call the report routes."""

import base64
import io
from datetime import date
from typing import Any

import pytest
from PIL import Image

from reports.reports_support import CONFIGURATIONS, DASHBOARD, MANAGE, PATH_ADMIN, REPORTS, request_body
from spot.reports import service
from support import API, assert_error, field_codes


@pytest.fixture
def reporter(make_user, login) -> dict[str, str]:
    return login(make_user("rapporteur", [MANAGE]))


def image_url(kind: str = "PNG", size: tuple[int, int] = (4, 3), mode: str = "RGB") -> str:
    out = io.BytesIO()
    Image.new(mode, size, "blue" if mode == "RGB" else 1).save(out, format=kind)
    mime = "png" if kind == "PNG" else "jpeg"
    return f"data:image/{mime};base64,{base64.b64encode(out.getvalue()).decode()}"


def saved(name: str, learners: list[int], **extra: Any) -> dict[str, Any]:
    return request_body(learners=learners) | {"name": name} | extra


def listed(client, headers) -> list[dict[str, Any]]:
    response = client.get(CONFIGURATIONS, headers=headers)
    assert response.status_code == 200, response.text
    return response.json()


# Validation -----------------------------------------------------------------------------------------------


def with_selectors(learner: int, **selectors: Any) -> dict[str, Any]:
    return request_body(learners=[learner], **selectors)


def with_document(learner: int, **options: Any) -> dict[str, Any]:
    body = request_body(learners=[learner])
    body["documentOptions"] |= options
    return body


CASES = {
    "no learner nor group": (
        lambda me: request_body(),
        {("selectors.learnerIdList", "defineAtLeastOneLearnerOrGroup")},
    ),
    "unknown learner": (
        lambda me: request_body(learners=[me, 999_999]),
        {("selectors.learnerIdList", "userNotFound")},
    ),
    "unknown group": (
        lambda me: request_body(learners=[me], groups=[999_999]),
        {("selectors.groupIdList", "groupNotFound")},
    ),
    "no path status": (
        lambda me: with_selectors(me, pathStatutes=[]),
        {("selectors.pathStatutes", "selectAtLeastOneStatus")},
    ),
    "no module status": (
        lambda me: with_selectors(me, moduleStatutes=[]),
        {("selectors.moduleStatutes", "selectAtLeastOneStatus")},
    ),
    "no module type": (
        lambda me: with_selectors(me, moduleTypes=[]),
        {("selectors.moduleTypes", "selectAtLeastOneType")},
    ),
    "stop before start": (
        lambda me: with_selectors(me, start="2025-06-02", stop="2025-06-01"),
        {("selectors.stop", "dateRangeReversed")},
    ),
    "empty title": (
        lambda me: with_document(me, documentTitle=""),
        {("documentOptions.documentTitle", "emptyFieldError")},
    ),
    "blank title": (
        lambda me: with_document(me, documentTitle="   "),
        {("documentOptions.documentTitle", "beginEndWhitespaceError")},
    ),
    "title with outer whitespace": (
        lambda me: with_document(me, documentTitle=" Rapport"),
        {("documentOptions.documentTitle", "beginEndWhitespaceError")},
    ),
    "empty manager label": (
        lambda me: with_document(me, managerSignatureLabel=""),
        {("documentOptions.managerSignatureLabel", "emptyFieldError")},
    ),
    "manager label with outer whitespace": (
        lambda me: with_document(me, managerSignatureLabel="Responsable "),
        {("documentOptions.managerSignatureLabel", "beginEndWhitespaceError")},
    ),
    "image neither png nor jpeg": (
        lambda me: with_document(me, signatureImage=image_url("GIF").replace("image/jpeg", "image/png")),
        {("documentOptions.signatureImage", "badFileFormat")},
    ),
    "not an image data url": (
        lambda me: with_document(me, signatureImage="data:text/plain;base64,aGVsbG8="),
        {("documentOptions.signatureImage", "badFileFormat")},
    ),
    "unreadable png": (
        lambda me: with_document(
            me,
            signatureImage="data:image/png;base64,"
            + base64.b64encode(b"\x89PNG\r\n\x1a\n" + b"0" * 40).decode(),
        ),
        {("documentOptions.signatureImage", "fileUploadError")},
    ),
    "image wider than the bound": (
        lambda me: with_document(me, signatureImage=image_url(size=(service.MAX_IMAGE_SIDE + 1, 1))),
        {("documentOptions.signatureImage", "imageTooLarge")},
    ),
    "image taller than the bound": (
        lambda me: with_document(
            me, signatureImage=image_url("JPEG", size=(1, service.MAX_IMAGE_SIDE + 1), mode="L")
        ),
        {("documentOptions.signatureImage", "imageTooLarge")},
    ),
    "image too big": (
        lambda me: with_document(
            me,
            signatureImage="data:image/png;base64,"
            + base64.b64encode(b"\x89PNG\r\n\x1a\n" + b"0" * 1_000_000).decode(),
        ),
        {("documentOptions.signatureImage", "fileTooBig")},
    ),
}


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("call", ["save", "paths", "excel"])
def test_each_rule_refuses_with_its_key_on_its_field(client, make_user, login, case, call) -> None:
    me = make_user("rapporteur", [MANAGE])
    headers = login(me)
    build, expected = CASES[case]
    body = build(me.id)
    if call == "save":
        response = client.post(CONFIGURATIONS, json=body | {"name": "Jeu"}, headers=headers)
    else:
        response = client.post(f"{REPORTS}/{call}", json=body, headers=headers)
    assert_error(response, 422, "atLeastOneErrorLeft")
    assert field_codes(response) == expected
    assert listed(client, headers) == []


def test_every_error_is_named_at_once(client, make_user, login) -> None:
    headers = login(make_user("rapporteur", [DASHBOARD]))
    body = request_body(
        pathStatutes=[], moduleStatutes=[], moduleTypes=[], start="2025-02-01", stop="2025-01-01"
    )
    body["documentOptions"] |= {"documentTitle": "", "managerSignatureLabel": ""}
    response = client.post(f"{REPORTS}/paths", json=body, headers=headers)
    assert_error(response, 422, "atLeastOneErrorLeft")
    assert field_codes(response) == {
        ("selectors.learnerIdList", "defineAtLeastOneLearnerOrGroup"),
        ("selectors.pathStatutes", "selectAtLeastOneStatus"),
        ("selectors.moduleStatutes", "selectAtLeastOneStatus"),
        ("selectors.moduleTypes", "selectAtLeastOneType"),
        ("selectors.stop", "dateRangeReversed"),
        ("documentOptions.documentTitle", "emptyFieldError"),
        ("documentOptions.managerSignatureLabel", "emptyFieldError"),
    }


@pytest.mark.parametrize("kind", ["PNG", "JPEG"])
def test_a_png_or_jpeg_signature_image_is_kept(client, make_user, login, kind) -> None:
    me = make_user("rapporteur", [MANAGE])
    headers = login(me)
    body = saved("Avec image", [me.id])
    body["documentOptions"]["signatureImage"] = image_url(kind)
    assert client.post(CONFIGURATIONS, json=body, headers=headers).status_code == 204
    assert listed(client, headers)[0]["documentOptions"]["signatureImage"] == image_url(kind)


def test_a_signature_image_of_twelve_thousand_pixels_a_side_is_refused(client, make_user, login) -> None:
    me = make_user("rapporteur", [MANAGE])
    headers = login(me)
    huge = image_url(size=(12_000, 12_000), mode="1")
    assert len(huge) < 200_000
    body = with_document(me.id, signatureImage=huge)
    for url in (CONFIGURATIONS, f"{REPORTS}/paths", f"{API}/reports/trainingPaths/pdf"):
        response = client.post(url, json=body | {"name": "Jeu"}, headers=headers)
        assert_error(response, 422, "atLeastOneErrorLeft")
        assert field_codes(response) == {("documentOptions.signatureImage", "imageTooLarge")}


def test_a_signature_image_at_the_bound_is_kept(client, make_user, login) -> None:
    me = make_user("rapporteur", [MANAGE])
    headers = login(me)
    body = saved("Large", [me.id])
    body["documentOptions"]["signatureImage"] = image_url(size=(service.MAX_IMAGE_SIDE, 2))
    assert client.post(CONFIGURATIONS, json=body, headers=headers).status_code == 204


def test_the_manager_label_may_stay_empty_without_the_manager_box(client, make_user, login) -> None:
    me = make_user("rapporteur", [MANAGE])
    headers = login(me)
    body = request_body(learners=[me.id])
    body["documentOptions"] |= {"managerSignature": False, "managerSignatureLabel": ""}
    response = client.post(f"{REPORTS}/paths", json=body, headers=headers)
    assert response.status_code == 200, response.text


def test_a_group_alone_is_enough(client, make_user, login) -> None:
    me = make_user("rapporteur", [MANAGE])
    headers = login(me)
    response = client.post(f"{REPORTS}/paths", json=request_body(groups=[me.groups[0].id]), headers=headers)
    assert response.status_code == 200, response.text
    assert response.json() == {"results": [], "totalItems": 0}


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("", "emptyFieldError"),
        ("  ", "emptyFieldError"),
        (" Jeu", "beginEndWhitespaceError"),
        ("x" * 201, "string_too_long"),
    ],
)
def test_the_name_follows_the_text_rule(client, reporter, make_user, name, code) -> None:
    response = client.post(CONFIGURATIONS, json=saved(name, []), headers=reporter)
    assert_error(response, 422, "atLeastOneErrorLeft")
    assert ("name", code) in field_codes(response)


def test_a_name_of_200_characters_is_kept(client, make_user, login) -> None:
    me = make_user("rapporteur", [MANAGE])
    headers = login(me)
    assert client.post(CONFIGURATIONS, json=saved("n" * 200, [me.id]), headers=headers).status_code == 204
    assert [c["name"] for c in listed(client, headers)] == ["n" * 200]


# Saved parameter sets ------------------------------------------------------------------------------------


def test_sets_are_listed_by_name_with_what_was_saved(client, make_user, login) -> None:
    me = make_user("rapporteur", [MANAGE])
    headers = login(me)
    for name in ("Zèbre", "Atelier", "Maintenance"):
        body = saved(
            name, [me.id], pathOptions=request_body()["pathOptions"] | {"duration": name == "Atelier"}
        )
        assert client.post(CONFIGURATIONS, json=body, headers=headers).status_code == 204
    sets = listed(client, headers)
    assert [c["name"] for c in sets] == ["Atelier", "Maintenance", "Zèbre"]
    assert sets[0] == saved("Atelier", [me.id], isDefault=False)
    assert sets[1]["pathOptions"]["duration"] is False


def test_saving_a_name_again_overwrites_it_and_keeps_its_default_flag(client, make_user, login) -> None:
    me = make_user("rapporteur", [MANAGE])
    headers = login(me)
    client.post(CONFIGURATIONS, json=saved("Jeu", [me.id], isDefault=True), headers=headers)
    changed = saved(
        "Jeu", [me.id], selectors=request_body(learners=[me.id])["selectors"] | {"moduleTypes": ["other"]}
    )
    assert client.post(CONFIGURATIONS, json=changed, headers=headers).status_code == 204
    (only,) = listed(client, headers)
    assert only["isDefault"] is True
    assert only["selectors"]["moduleTypes"] == ["other"]
    # isDefault given: it wins.
    assert (
        client.post(CONFIGURATIONS, json=changed | {"isDefault": False}, headers=headers).status_code == 204
    )
    assert listed(client, headers)[0]["isDefault"] is False
    # A new set is not the default unless asked.
    client.post(CONFIGURATIONS, json=saved("Autre", [me.id]), headers=headers)
    assert [c["isDefault"] for c in listed(client, headers)] == [False, False]


def test_only_one_set_is_the_default(client, make_user, login) -> None:
    me = make_user("rapporteur", [MANAGE])
    headers = login(me)
    for name in ("Un", "Deux", "Trois"):
        client.post(CONFIGURATIONS, json=saved(name, [me.id], isDefault=True), headers=headers)
    assert {c["name"]: c["isDefault"] for c in listed(client, headers)} == {
        "Deux": False,
        "Trois": True,
        "Un": False,
    }
    # Overwriting the default keeps it the only one; making another the default moves the flag.
    client.post(CONFIGURATIONS, json=saved("Trois", [me.id]), headers=headers)
    client.post(CONFIGURATIONS, json=saved("Un", [me.id], isDefault=True), headers=headers)
    assert [c["name"] for c in listed(client, headers) if c["isDefault"]] == ["Un"]


def test_sets_are_each_users_own(client, make_user, login) -> None:
    me, other = make_user("rapporteur", [MANAGE]), make_user("autre", [DASHBOARD])
    mine, theirs = login(me), login(other)
    client.post(CONFIGURATIONS, json=saved("Jeu", [me.id], isDefault=True), headers=mine)
    client.post(CONFIGURATIONS, json=saved("Jeu", [other.id], isDefault=True), headers=theirs)
    assert listed(client, mine)[0]["selectors"]["learnerIdList"] == [me.id]
    assert listed(client, theirs)[0]["selectors"]["learnerIdList"] == [other.id]
    assert listed(client, mine)[0]["isDefault"] is True
    assert client.delete(f"{CONFIGURATIONS}/Jeu", headers=theirs).status_code == 204
    assert_error(client.delete(f"{CONFIGURATIONS}/Jeu", headers=theirs), 404)
    assert [c["name"] for c in listed(client, mine)] == ["Jeu"]


def test_delete_removes_the_named_set(client, make_user, login) -> None:
    me = make_user("rapporteur", [MANAGE])
    headers = login(me)
    for name in ("Un / deux", "Trois"):
        client.post(CONFIGURATIONS, json=saved(name, [me.id]), headers=headers)
    response = client.delete(f"{CONFIGURATIONS}/Un%20%2F%20deux", headers=headers)
    assert response.status_code == 204, response.text
    assert [c["name"] for c in listed(client, headers)] == ["Trois"]
    assert_error(
        client.delete(f"{CONFIGURATIONS}/Un%20%2F%20deux", headers=headers),
        404,
        "reportConfigurationNotFound",
    )


# Defaults -------------------------------------------------------------------------------------------------


def test_defaults_follow_the_spec(client, reporter) -> None:
    response = client.get(f"{REPORTS}/defaults", headers=reporter)
    assert response.status_code == 200, response.text
    body = response.json()
    year = service.today().year
    assert body["selectors"] == {
        "start": f"{year}-01-01",
        "stop": f"{year}-12-31",
        "learnerIdList": [],
        "groupIdList": [],
        "pathStatutes": [
            "notAccepted",
            "accepted",
            "started",
            "finished",
            "validated",
            "archived",
            "canceled",
        ],
        "moduleStatutes": ["notStarted", "started", "finished", "validated", "archived"],
        "moduleTypes": ["training"],
    }
    assert all(body["pathOptions"].values())
    assert {k for k, v in body["moduleOptions"].items() if not v} == {"mediators"}
    options = body["documentOptions"]
    assert options["learnerSignature"] is True and options["managerSignature"] is True
    assert options["documentTitle"] == "" and options["signatureImage"] is None


@pytest.mark.parametrize("left_out", ["pathOptions", "moduleOptions", "both"])
def test_options_left_out_take_the_defaults(client, make_user, login, left_out) -> None:
    me = make_user("rapporteur", [MANAGE])
    headers = login(me)
    body = saved("Sans options", [me.id])
    defaults = client.get(f"{REPORTS}/defaults", headers=headers).json()
    expected = {"pathOptions": body["pathOptions"], "moduleOptions": body["moduleOptions"]}
    if left_out in ("pathOptions", "both"):
        body["pathOptions"] = {"duration": False}
        expected["pathOptions"] = defaults["pathOptions"] | {"duration": False}
    if left_out in ("moduleOptions", "both"):
        body["moduleOptions"] = {"goals": False}
        expected["moduleOptions"] = defaults["moduleOptions"] | {"goals": False}
    assert client.post(CONFIGURATIONS, json=body, headers=headers).status_code == 204, left_out
    (kept,) = listed(client, headers)
    assert {"pathOptions": kept["pathOptions"], "moduleOptions": kept["moduleOptions"]} == expected


def test_a_request_without_options_takes_the_defaults(client, make_user, login) -> None:
    me = make_user("rapporteur", [MANAGE])
    headers = login(me)
    body = saved("Sans options", [me.id])
    del body["pathOptions"], body["moduleOptions"]
    assert client.post(CONFIGURATIONS, json=body, headers=headers).status_code == 204
    defaults = client.get(f"{REPORTS}/defaults", headers=headers).json()
    (kept,) = listed(client, headers)
    assert kept["pathOptions"] == defaults["pathOptions"]
    assert kept["moduleOptions"] == defaults["moduleOptions"]
    response = client.post(f"{REPORTS}/paths", json=body, headers=headers)
    assert response.status_code == 200, response.text


def test_the_default_year_is_the_calendar_year_of_the_day() -> None:
    defaults = service.defaults(on=date(2031, 12, 31))
    assert (defaults.selectors.start, defaults.selectors.stop) == (date(2031, 1, 1), date(2031, 12, 31))


# Who may call the report routes ------------------------------------------------------------------------

ROLES: dict[str, list[str] | None] = {
    "dashboard": [DASHBOARD],
    "training manager": [MANAGE],
    "path administrator": [PATH_ADMIN],
    "nobody": [],
    "anonymous": None,
}
ALLOWED = {"dashboard", "training manager"}
CALLS = ("list", "save", "delete", "defaults", "paths", "excel")


def call(client, headers, action: str, me: int) -> Any:
    if action == "list":
        return client.get(CONFIGURATIONS, headers=headers)
    if action == "save":
        return client.post(CONFIGURATIONS, json=saved("Jeu", [me]), headers=headers)
    if action == "delete":
        return client.delete(f"{CONFIGURATIONS}/Jeu", headers=headers)
    if action == "defaults":
        return client.get(f"{REPORTS}/defaults", headers=headers)
    return client.post(f"{REPORTS}/{action}", json=request_body(learners=[me]), headers=headers)


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("action", CALLS)
def test_permissions(client, make_user, login, role, action) -> None:
    permissions = ROLES[role]
    me = make_user("appelant", permissions or [])
    headers = {} if permissions is None else login(me)
    if action == "delete" and role in ALLOWED:
        client.post(CONFIGURATIONS, json=saved("Jeu", [me.id]), headers=headers)
    response = call(client, headers, action, me.id)
    if permissions is None:
        assert_error(response, 401)
    elif role in ALLOWED:
        # Nothing selected: the Excel export has nothing to export; everything else succeeds.
        if action == "excel":
            assert_error(response, 422, "nothingToExport")
        else:
            assert response.status_code in (200, 204), response.text
    else:
        assert_error(response, 403)


def test_the_route_descriptions_name_the_permissions(client) -> None:
    document = client.get(f"{API}/openapi.json").json()
    for path in (
        CONFIGURATIONS,
        f"{CONFIGURATIONS}/{{name}}",
        f"{REPORTS}/defaults",
        f"{REPORTS}/paths",
        f"{REPORTS}/excel",
    ):
        for operation in document["paths"][path].values():
            assert "Needs a report permission (whoAmI's can.reportOnPaths)" in operation["description"]


@pytest.mark.parametrize("role", [role for role, permissions in ROLES.items() if permissions is not None])
def test_the_session_tells_who_may_report_as_the_routes_decide(client, make_user, login, role) -> None:
    """The client shows the report page's entry from whoAmI: the same answer as the routes' table."""
    who = client.get(f"{API}/account/whoAmI", headers=login(make_user("appelant", ROLES[role]))).json()
    assert who["can"]["reportOnPaths"] == (role in ALLOWED)
