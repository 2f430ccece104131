"""A person's validity on a module and on a qualification (spec 2 §4 Qualification validity state, §9),
as the status records and dashboards show it, around a fixed today."""

from datetime import date

import pytest
from sqlalchemy import delete

from qualifications.world import QUALIFICATIONS, graded, group, in_progress, module, on, qualification
from spot.core.time import today as real_today
from spot.qualifications.models import QualificationModule
from support import API
from training.paths_support import Cast, make_module, make_path, move_to


def status(client, headers, user_id, qualification_id):
    response = client.post(
        f"{QUALIFICATIONS}/queryUserQualifications",
        json={"filter": f"user oneOf {user_id} & qualification oneOf {qualification_id}"},
        headers=headers,
    )
    assert response.status_code == 200, response.text
    (record,) = response.json()["results"]
    return record


@pytest.mark.parametrize(
    "days, remaining, state, valid_until, obtained",
    [
        (31, 31, "good", on(31), 1),
        (30, 30, "warn", on(30), 1),
        (1, 1, "warn", on(1), 1),
        (0, 0, "warn", on(0), 1),
        (-1, -1, "none", on(-1), 0),
        (-400, -400, "none", on(-400), 0),
        ("permanent", 10000, "good", None, 1),
        ("never", -10000, "none", None, 0),
        ("failed", -10000, "none", None, 0),
    ],
)
def test_validity_at_each_boundary(
    client, db, make_user, manager, today, days, remaining, state, valid_until, obtained
):
    person = make_user("personne")
    team = group(db, "Équipe", [person.id])
    module_id = module(db, "Habilitation")
    qualification_id = qualification(client, manager, "Conduite", groups=[team], modules=[module_id])
    path_id = None
    if days == "permanent":
        path_id = graded(db, person.id, module_id, days=None)
    elif days == "failed":
        graded(db, person.id, module_id, days=100, success=False)
    elif days != "never":
        path_id = graded(db, person.id, module_id, days=days)

    record = status(client, manager, person.id, qualification_id)
    expected = {"remainingDays": remaining, "state": state, "validUntil": valid_until}
    assert {k: record[k] for k in expected} == expected
    assert {k: record["modules"][0][k] for k in expected} == expected
    assert record["modules"][0]["validationTrainingPath"] == path_id
    # The same figures on every dashboard that shows them.
    mine = client.get(f"{API}/dashboards/qualifications/user/{person.id}", headers=manager).json()
    (element,) = mine["elements"]
    assert (
        element["item"] | {"link": None}
        == {
            "id": qualification_id,
            "name": "Conduite",
            "total": 1,
            "obtained": obtained,
            "counts": {"good": 0, "warn": 0, "none": 0} | {state: 1},
            "link": None,
        }
        | expected
    )
    assert element["children"][0]["validationTrainingPath"] == path_id
    board = client.get(f"{API}/dashboards/qualifications/group/{team}", headers=manager).json()
    assert {k: board["elements"][0]["children"][0][k] for k in expected} == expected
    assert board["elements"][0]["item"]["obtained"] == obtained


def test_a_qualification_takes_its_earliest_module_expiry(client, db, make_user, manager, today):
    ann, bob, cid = make_user("ann"), make_user("bob"), make_user("cid")
    team = group(db, "Équipe", [ann.id, bob.id, cid.id])
    m1, m2, m3 = module(db, "Habilitation"), module(db, "CACES"), module(db, "Secourisme", periodicity=0)
    q = qualification(client, manager, "Conduite", groups=[team], modules=[m1, m2, m3])
    # ann: 100, 5 and permanent: the qualification until on(5), its paths those of m2.
    graded(db, ann.id, m1, days=100)
    limiting = graded(db, ann.id, m2, days=5)
    graded(db, ann.id, m3, days=None)
    requalifying = in_progress(db, ann.id, m2)
    record = status(client, manager, ann.id, q)
    assert (record["remainingDays"], record["state"], record["validUntil"]) == (5, "warn", on(5))
    assert [m["remainingDays"] for m in record["modules"]] == [100, 5, 10000]
    # bob: everything permanent or far, one module never validated: never validated as a whole.
    graded(db, bob.id, m1, days=400)
    graded(db, bob.id, m3, days=None)
    assert status(client, manager, bob.id, q)["remainingDays"] == -10000
    # cid: permanent everywhere: permanent.
    for m in (m1, m2, m3):
        graded(db, cid.id, m, days=None)
    assert (
        status(client, manager, cid.id, q)["remainingDays"],
        status(client, manager, cid.id, q)["validUntil"],
    ) == (
        10000,
        None,
    )
    # On the group's dashboard each person's hold carries its limiting module's paths.
    board = client.get(f"{API}/dashboards/qualifications/group/{team}", headers=manager).json()
    (element,) = board["elements"]
    children = {c["id"]: c for c in element["children"]}
    assert children[ann.id]["validationTrainingPath"] == limiting
    assert children[ann.id]["requalificationTrainingPath"] == requalifying
    assert [c["id"] for c in element["children"]] == [cid.id, ann.id, bob.id]
    assert element["item"] | {"link": None} == {
        "id": q,
        "name": "Conduite",
        "total": 3,
        "obtained": 2,
        "counts": {"good": 1, "warn": 1, "none": 1},
        "remainingDays": -10000,
        "state": "none",
        "validUntil": None,
        "link": None,
    }


def test_a_requalification_path_is_linked(client, db, make_user, manager, today):
    person = make_user("personne")
    team = group(db, "Équipe", [person.id])
    module_id = module(db, "Habilitation")
    q = qualification(client, manager, "Conduite", groups=[team], modules=[module_id])
    old = graded(db, person.id, module_id, days=-3, graded_days_ago=400)
    new = in_progress(db, person.id, module_id, path_status="accepted")
    record = status(client, manager, person.id, q)["modules"][0]
    assert record["validationTrainingPath"] == old and record["requalificationTrainingPath"] == new
    assert (record["remainingDays"], record["state"]) == (-3, "none")
    child = client.get(f"{QUALIFICATIONS}/{q}/dashboard?by=module", headers=manager).json()[0]["children"][0]
    assert (child["validationTrainingPath"], child["requalificationTrainingPath"]) == (old, new)


def test_the_latest_success_counts_and_canceled_paths_do_not(client, db, make_user, manager, today):
    person = make_user("personne")
    team = group(db, "Équipe", [person.id])
    module_id = module(db, "Habilitation")
    q = qualification(client, manager, "Conduite", groups=[team], modules=[module_id])
    graded(db, person.id, module_id, days=300, graded_days_ago=200)
    latest = graded(db, person.id, module_id, days=40, graded_days_ago=20)
    graded(db, person.id, module_id, days=90, success=False, graded_days_ago=5)
    graded(db, person.id, module_id, days=500, path_status="canceled", graded_days_ago=1)
    record = status(client, manager, person.id, q)
    assert (record["remainingDays"], record["modules"][0]["validationTrainingPath"]) == (40, latest)


def test_without_module_a_qualification_is_never_held(client, db, make_user, manager, today):
    person = make_user("personne")
    team = group(db, "Équipe", [person.id])
    module_id = module(db, "Habilitation")
    q = qualification(client, manager, "Conduite", groups=[team], modules=[module_id])
    graded(db, person.id, module_id, days=None)
    db.execute(delete(QualificationModule).where(QualificationModule.qualification_id == q))
    db.commit()
    record = status(client, manager, person.id, q)
    assert (record["remainingDays"], record["state"], record["modules"]) == (-10000, "none", [])
    (element,) = client.get(f"{API}/dashboards/qualifications/user/{person.id}", headers=manager).json()[
        "elements"
    ]
    assert (element["item"]["total"], element["item"]["remainingDays"], element["children"]) == (
        0,
        -10000,
        [],
    )


def test_a_path_graded_through_the_api_validates(client, db, make_user, login, manager):
    """The real path service: a periodic module graded in a finished path holds for its periodicity."""
    cast = Cast.of(make_user, login)
    module_id = make_module(db, "Habilitation", periodicity=12)
    path_id = make_path(client, cast, [module_id])
    graded_path = move_to(client, cast, path_id, "finished")
    valid_until = graded_path["assignedModules"][0]["grading"]["validUntil"]
    assert valid_until is not None
    q = qualification(client, manager, "Conduite", groups=[cast.group("learner")], modules=[module_id])
    record = status(client, manager, cast.id("learner"), q)
    remaining = (date.fromisoformat(valid_until) - real_today()).days
    assert remaining > 300
    assert (record["remainingDays"], record["state"], record["validUntil"]) == (
        remaining,
        "good",
        valid_until,
    )
    assert record["modules"][0]["validationTrainingPath"] == path_id
    assert record["modules"][0]["requalificationTrainingPath"] is None
    # The learner sees their own record and dashboard without any permission.
    learner = cast.headers["learner"]
    assert status(client, learner, cast.id("learner"), q)["remainingDays"] == remaining
    own = client.get(f"{API}/dashboards/qualifications/user/{cast.id('learner')}", headers=learner)
    assert own.status_code == 200 and own.json()["elements"][0]["item"]["obtained"] == 1
