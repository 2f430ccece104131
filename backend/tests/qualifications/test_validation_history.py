"""The history of each validation (docs/qualifications.md): every grading of a module for a person,
successful or failed, with its date, grade, referent, path and last valid day, in the user qualification
dashboard's answer; what each counts for agrees with the rule of qualifications.validity; an expired
validation stays expired, never "never validated", on every dashboard."""

from collections.abc import Sequence
from datetime import UTC, datetime, time, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from qualifications.world import ADMIN, BOARD, TODAY, group, module, on, qualification
from spot.core import time as clock
from spot.qualifications import history, validity
from spot.training.paths.models import TrainingPath, TrainingPathGrading, TrainingPathModule
from spot.users.models import User, user_group
from support import API
from training.paths_support import Cast, act, make_module, make_path, move_to

DASHBOARD = f"{API}/dashboards/qualifications/user"

# (days before TODAY it was graded, grade, success, last valid day in days from TODAY or None).
Grading = tuple[int, float, bool, int | None]


def graded_path(
    db: Session,
    learner_id: int,
    module_id: int,
    gradings: Sequence[Grading],
    *,
    title: str = "Parcours",
    path_status: str = "validated",
    module_status: str = "validated",
    referent: User | None = None,
) -> int:
    """A path of the learner assigning the module, graded as the path service leaves it: a
    training_path_grading row per grading (oldest first), the assigned module carrying the last."""
    first = TODAY - timedelta(days=max(days for days, *_ in gradings))
    at = datetime.combine(first, time(8), tzinfo=UTC)
    path = TrainingPath(
        title=title,
        learner_id=learner_id,
        status=path_status,
        created_at=at,
        status_changed_at=at,
        start_date=first,
        stop_date=TODAY + timedelta(days=30),
    )
    db.add(path)
    db.flush()
    rows = [
        (
            datetime.combine(TODAY - timedelta(days=days), time(10), tzinfo=UTC),
            grade,
            success,
            None if until is None else TODAY + timedelta(days=until),
        )
        for days, grade, success, until in gradings
    ]
    last_at, last_grade, last_success, last_until = rows[-1]
    assigned = TrainingPathModule(
        path_id=path.id,
        position=0,
        module_id=module_id,
        start_date=first,
        stop_date=first,
        status=module_status,
        status_changed_at=last_at,
        grade=last_grade,
        is_success=last_success,
        valid_until=last_until,
        graded_at=last_at,
    )
    db.add(assigned)
    db.flush()
    for graded_at, grade, success, until in rows:
        db.add(
            TrainingPathGrading(
                path_module_id=assigned.id,
                grade=grade,
                comment="Vu",
                is_success=success,
                referent_id=None if referent is None else referent.id,
                referent_name="" if referent is None else referent.display_name,
                valid_until=until,
                graded_at=graded_at,
            )
        )
    db.commit()
    return path.id


def dashboard(client, headers, user_id: int) -> dict:
    response = client.get(f"{DASHBOARD}/{user_id}", headers=headers)
    assert response.status_code == 200, response.text
    return response.json()


def timeline(answer: dict, module_name: str) -> list[tuple]:
    """(date graded, grade, success, valid until, outcome, path title) of the module's gradings, as shown."""
    found = [h for h in answer["history"] if h["module"]["name"] == module_name]
    assert len(found) == 1, answer["history"]
    return [
        (
            g["gradedAt"][:10],
            g["grade"],
            g["isSuccess"],
            g["validUntil"],
            g["outcome"],
            g["trainingPath"]["title"],
        )
        for g in found[0]["gradings"]
    ]


def child(answer: dict, module_name: str) -> dict:
    return next(c for e in answer["elements"] for c in e["children"] if c["name"] == module_name)


def ago(days: int) -> str:
    return (TODAY - timedelta(days=days)).isoformat()


@pytest.fixture
def shop(db, client, make_user, login, manager, today):
    """Alice in team A; 'Habilitation' (team A) requires 'Consigner' (12 months) and 'Accueil'
    (permanent); 'Cariste' is a module of no qualification of hers. Renée is a referent."""
    alice = make_user("alice", first_name="Alice", last_name="Martin")
    referent = make_user("renee", first_name="Renée", last_name="Référente")
    team = group(db, "Équipe A", [alice.id])
    consigner = module(db, "Consigner")
    accueil = module(db, "Accueil", periodicity=0)
    cariste = module(db, "Cariste")
    qualification(client, manager, "Habilitation", groups=[team], modules=[consigner, accueil])
    return {
        "alice": alice,
        "headers": login(alice),
        "referent": referent,
        "team": team,
        "consigner": consigner,
        "accueil": accueil,
        "cariste": cariste,
    }


def test_every_grading_newest_first_with_what_it_counts_for(client, db, manager, shop) -> None:
    alice, consigner, accueil = shop["alice"].id, shop["consigner"], shop["accueil"]
    # 2024: failed, then regraded as passed in the same path; 2025: passed again (renewing it); today
    # it holds until TODAY + 40.
    graded_path(db, alice, consigner, [(700, 4.0, False, None), (690, 8.0, True, -325)], title="2024")
    graded_path(db, alice, consigner, [(325, 9.0, True, 40)], title="2025", referent=shop["referent"])
    graded_path(db, alice, accueil, [(30, 7.5, True, None)], title="Accueil")
    answer = dashboard(client, manager, alice)
    assert [h["module"]["name"] for h in answer["history"]] == ["Accueil", "Consigner"]
    assert timeline(answer, "Consigner") == [
        (ago(325), 9.0, True, on(40), "valid", "2025"),
        (ago(690), 8.0, True, on(-325), "renewed", "2024"),
        (ago(700), 4.0, False, None, "regraded", "2024"),
    ]
    assert timeline(answer, "Accueil") == [(ago(30), 7.5, True, None, "valid", "Accueil")]
    accueil_grading = answer["history"][0]["gradings"][0]
    assert accueil_grading["permanent"] is True and accueil_grading["referent"] is None
    latest = answer["history"][1]["gradings"][0]
    assert latest["referent"] == {"id": shop["referent"].id, "name": "Renée Référente"}
    assert latest["trainingPath"]["status"] == "validated"
    assert latest["permanent"] is False
    # The held grading is the one the dashboard's module names.
    assert child(answer, "Consigner")["validationTrainingPath"] == latest["trainingPath"]["id"]


def test_an_expired_validation_stays_expired_on_every_dashboard(client, db, manager, shop) -> None:
    """Her only validation of Consigner ran out 5 days ago; a failed requalification since changes nothing."""
    alice, consigner = shop["alice"].id, shop["consigner"]
    graded_path(db, alice, consigner, [(370, 8.0, True, -5)], title="Initiale")
    graded_path(db, alice, consigner, [(2, 3.0, False, None)], title="Requalification")
    answer = dashboard(client, manager, alice)
    assert timeline(answer, "Consigner") == [
        (ago(2), 3.0, False, None, "failed", "Requalification"),
        (ago(370), 8.0, True, on(-5), "expired", "Initiale"),
    ]
    expired = child(answer, "Consigner")
    assert (expired["remainingDays"], expired["validUntil"], expired["state"]) == (-5, on(-5), "none")
    assert expired["validationTrainingPath"] is not None
    # The qualification's other dashboards say the same of her.
    q = answer["elements"][0]["item"]["id"]
    by_user = client.get(f"{API}/qualifications/{q}/dashboard?by=user", headers=manager).json()
    assert [(c["name"], c["remainingDays"]) for c in by_user[0]["children"]] == [
        ("Consigner", -5),
        ("Accueil", validity.NONE),
    ]
    by_module = client.get(f"{API}/qualifications/{q}/dashboard?by=module", headers=manager).json()
    assert [
        c["remainingDays"] for e in by_module if e["item"]["name"] == "Consigner" for c in e["children"]
    ] == [-5]
    team = client.get(f"{API}/dashboards/qualifications/group/{shop['team']}", headers=manager).json()
    assert [(c["name"], c["remainingDays"], c["validUntil"]) for c in team["elements"][0]["children"]] == [
        ("Alice Martin", validity.NONE, None)  # her hold on the qualification: Accueil, never validated
    ]
    graded_path(db, alice, shop["accueil"], [(3, 8.0, True, None)])
    team = client.get(f"{API}/dashboards/qualifications/group/{shop['team']}", headers=manager).json()
    assert [(c["name"], c["remainingDays"], c["validUntil"]) for c in team["elements"][0]["children"]] == [
        ("Alice Martin", -5, on(-5))
    ]


def test_a_canceled_path_or_a_disabled_module_counts_for_nothing(client, db, manager, shop) -> None:
    alice, consigner, accueil = shop["alice"].id, shop["consigner"], shop["accueil"]
    graded_path(db, alice, consigner, [(20, 8.0, True, 345)], title="Annulé", path_status="canceled")
    graded_path(db, alice, accueil, [(10, 8.0, True, None)], title="Désactivé", module_status="disabled")
    answer = dashboard(client, manager, alice)
    assert timeline(answer, "Consigner") == [(ago(20), 8.0, True, on(345), "canceled", "Annulé")]
    assert timeline(answer, "Accueil") == [(ago(10), 8.0, True, None, "canceled", "Désactivé")]
    assert child(answer, "Consigner")["remainingDays"] == validity.NONE


def test_only_the_modules_of_her_qualifications_that_she_was_graded_in(client, db, manager, shop) -> None:
    alice = shop["alice"].id
    graded_path(db, alice, shop["cariste"], [(5, 8.0, True, 360)])
    assert dashboard(client, manager, alice)["history"] == []
    graded_path(db, alice, shop["consigner"], [(5, 8.0, True, 360)])
    assert [h["module"]["name"] for h in dashboard(client, manager, alice)["history"]] == ["Consigner"]
    # Someone else's gradings are not hers.
    bruno = shop["referent"].id
    graded_path(db, bruno, shop["accueil"], [(5, 8.0, True, None)])
    assert [h["module"]["name"] for h in dashboard(client, manager, alice)["history"]] == ["Consigner"]
    # Out of the team, no qualification concerns her any more: no module, no history.
    db.execute(delete(user_group).where(user_group.c.user_id == alice))
    db.commit()
    assert dashboard(client, manager, alice) == {
        "user": {"id": alice, "name": "Alice Martin"},
        "elements": [],
        "history": [],
    }


def test_a_referent_whose_account_is_gone_is_no_one(client, db, manager, make_user, shop) -> None:
    gone = make_user("gone", first_name="Ancien", last_name="Référent")
    graded_path(db, shop["alice"].id, shop["consigner"], [(5, 8.0, True, 360)], referent=gone)
    before = dashboard(client, manager, shop["alice"].id)["history"][0]["gradings"][0]
    assert before["referent"] == {"id": gone.id, "name": "Ancien Référent"}
    db.delete(gone)
    db.commit()
    after = dashboard(client, manager, shop["alice"].id)["history"][0]["gradings"][0]
    assert after["referent"] is None and after["outcome"] == "valid"


def test_who_reads_the_history(client, make_user, login, manager, db, shop) -> None:
    """The user qualification dashboard's rule: one's own, or another's with perm_TableauBord."""
    alice = shop["alice"].id
    graded_path(db, alice, shop["consigner"], [(5, 8.0, True, 360)])
    assert len(dashboard(client, shop["headers"], alice)["history"]) == 1
    assert len(dashboard(client, login(make_user("board", [BOARD])), alice)["history"]) == 1
    for permissions in ([], [ADMIN], ["perm_TrainingManagement"]):
        other = login(make_user(permissions=permissions))
        response = client.get(f"{DASHBOARD}/{alice}", headers=other)
        assert response.status_code == 403, (permissions, response.text)
    assert client.get(f"{DASHBOARD}/999999", headers=manager).status_code == 404


def test_gradings_made_through_the_paths(client, db, make_user, login, manager) -> None:
    """A path graded through its routes: a failure, the grade changed to a pass, then a second path."""
    cast = Cast.of(make_user, login)
    consigner = make_module(db, "Consigner", periodicity=12)
    team = cast.group("learner")
    qualification(client, manager, "Habilitation", groups=[team], modules=[consigner])
    # A second module keeps the first path started, so that the grade may be changed.
    first = make_path(client, cast, [consigner, make_module(db, "Autre")], title="Initiale")
    move_to(client, cast, first, "started")
    act(client, cast, "referent", first, "0/startNow")
    act(client, cast, "referent", first, "0/grade", {"grade": 5, "comment": "Pas encore"})
    act(client, cast, "referent", first, "0/grade", {"grade": 8, "comment": "Bien"})
    second = make_path(client, cast, [consigner], title="Recyclage")
    move_to(client, cast, second, "started")
    act(client, cast, "referent", second, "0/startNow")
    act(client, cast, "referent", second, "0/grade", {"grade": 9, "comment": "Très bien"})
    answer = dashboard(client, cast.headers["learner"], cast.id("learner"))
    (module_history,) = answer["history"]
    gradings = module_history["gradings"]
    until = clock.today().replace(year=clock.today().year + 1).isoformat()
    assert [
        (g["trainingPath"]["title"], g["grade"], g["isSuccess"], g["validUntil"], g["outcome"])
        for g in gradings
    ] == [
        ("Recyclage", 9.0, True, until, "valid"),
        ("Initiale", 8.0, True, until, "renewed"),
        ("Initiale", 5.0, False, None, "regraded"),
    ]
    assert {g["referent"]["name"] for g in gradings} == {"Referent Test"}
    assert [g["trainingPath"]["id"] for g in gradings] == [second, first, first]


# What each grading counts for agrees with the rule ----------------------------------------------------

paths = st.lists(
    st.tuples(
        st.integers(0, 1),  # module
        st.sampled_from(["started", "finished", "validated", "archived", "canceled"]),
        st.sampled_from(["finished", "validated", "archived", "disabled"]),
        st.lists(
            st.tuples(
                st.integers(1, 4),  # days ago (few: ties happen)
                st.booleans(),  # success
                st.sampled_from([None, -30, -1, 0, 29, 31, 200]),
            ),
            min_size=1,
            max_size=3,
        ),
    ),
    min_size=1,
    max_size=5,
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(paths=paths)
def test_what_a_grading_counts_for_agrees_with_the_rule(db, make_user, today, paths) -> None:
    learner = make_user()
    modules = [module(db, f"Module {n}") for n in range(2)]
    try:
        for m, path_status, module_status, gradings in paths:
            # A day graded is never earlier than the one before it in the same assigned module.
            ordered = sorted(gradings, key=lambda g: -g[0])
            graded_path(
                db,
                learner.id,
                modules[m],
                [(days, 8.0 if success else 3.0, success, until) for days, success, until in ordered],
                path_status=path_status,
                module_status=module_status,
            )
        found = {h.module_id: h.entries for h in history.of_person(db, user_id=learner.id, today=TODAY)}
        rule = {
            (row[1]): row
            for row in db.execute(
                validity.computed(
                    select(User.id).where(User.id == learner.id), select(TrainingPathModule.module_id)
                )
            )
        }
        for module_id in modules:
            entries = found.get(module_id, [])
            assert len(entries) == sum(len(p[3]) for p in paths if modules[p[0]] == module_id)
            assert [e.graded_at for e in entries] == sorted((e.graded_at for e in entries), reverse=True)
            held = [
                e
                for e in entries
                if e.outcome in (history.GradingOutcome.valid, history.GradingOutcome.expired)
            ]
            _user, _module, validation, until, _requalification = rule.get(
                module_id, (0, 0, None, None, None)
            )
            if validation is None:
                assert held == []
                assert not any(e.outcome == history.GradingOutcome.renewed for e in entries)
                continue
            (hold,) = held
            assert hold.path_id == validation and hold.success
            assert hold.valid_until == until
            remaining = validity.remaining_days(validated=True, valid_until=until, today=TODAY)
            assert (hold.outcome == history.GradingOutcome.valid) == validity.obtained(remaining)
            # Every other success that counts was graded no later than the one held.
            for e in entries:
                if e.outcome == history.GradingOutcome.renewed:
                    assert e.graded_at <= hold.graded_at
    finally:
        db.rollback()
        db.execute(delete(TrainingPath).where(TrainingPath.learner_id == learner.id))
        db.commit()


def test_a_person_never_graded_has_no_history(db, make_user, today) -> None:
    assert history.of_person(db, user_id=make_user().id, today=TODAY) == []
