"""The demo's qualifications (demo.qualifications): holders in every validity state, computed by
qualifications.validity; a function of the assembly line covered by one person and one by nobody; the
past gradings as the path service makes them (validity from the grading day, signatures that still
vouch for the content); the managers' permissions; seeded twice, the same data."""

from collections import defaultdict

from sqlalchemy import func, select

from mapping.test_mapping_demo import demo_login
from spot import demo
from spot.account.service import principal_of
from spot.core.time import today
from spot.demo import qualifications as demo_qualifications
from spot.discussions.models import DiscussionMessage
from spot.mapping.models import Cartography, Function, Subject
from spot.permissions.names import Permission
from spot.qualifications import validity
from spot.qualifications.models import (
    Qualification,
    QualificationCartography,
    QualificationGroup,
    QualificationModule,
)
from spot.training.modules.models import TrainingModule, TrainingModuleItem
from spot.training.paths.models import TrainingPath, TrainingPathGrading, TrainingPathModule
from spot.training.paths.service import add_months
from spot.users.models import User, user_group
from support import API


def _logins(db) -> dict[int, str]:
    return {user_id: login for user_id, login in db.execute(select(User.id, User.login))}


def _holds(db) -> dict[tuple[str, str], tuple[int, validity.ModuleValidity]]:
    """(qualification, login) -> the person's remaining days on it and its limiting module's validity,
    for every person concerned (a member of one of its groups), by the rule of docs/qualifications.md."""
    concerned = (
        select(QualificationGroup.qualification_id, user_group.c.user_id)
        .join(user_group, user_group.c.group_id == QualificationGroup.group_id)
        .join(User, User.id == user_group.c.user_id)
        .where(User.active)
        .distinct()
    )
    people: dict[int, set[int]] = defaultdict(set)
    for qualification_id, user_id in db.execute(concerned):
        people[qualification_id].add(user_id)
    modules: dict[int, list[int]] = defaultdict(list)
    for qualification_id, module_id in db.execute(
        select(QualificationModule.qualification_id, QualificationModule.module_id).order_by(
            QualificationModule.position
        )
    ):
        modules[qualification_id].append(module_id)
    validities = validity.module_validities(
        db,
        learners=select(user_group.c.user_id),
        modules=select(QualificationModule.module_id),
        today=today(),
    )
    logins = _logins(db)
    holds = {}
    for qualification_id, name in db.execute(select(Qualification.id, Qualification.name)):
        for user_id in people[qualification_id]:
            found = [validity.of(validities, user_id, m) for m in modules[qualification_id]]
            limiting = min(found, key=lambda v: v.remaining_days)
            remaining = validity.earliest(v.remaining_days for v in found)
            holds[name, logins[user_id]] = (remaining, limiting)
    return holds


def _shown(remaining: int, limiting: validity.ModuleValidity) -> str:
    """The validity text the dashboards show (spec 2 §4)."""
    if remaining >= validity.UNLIMITED:
        return "permanent"
    if remaining >= 0:
        return validity.state(remaining).value
    if limiting.requalification_path_id is not None:
        return "inProgress"
    return "neverValidated" if remaining <= validity.NONE else "expired"


def _counts(db) -> tuple[int, ...]:
    return tuple(
        db.scalar(select(func.count()).select_from(model))
        for model in (
            Qualification,
            QualificationModule,
            TrainingPath,
            TrainingPathGrading,
            DiscussionMessage,
        )
    )


def test_the_demo_qualifications_have_holders_in_every_state_seeded_once(demo_org, client, db):
    once = _counts(db)
    demo.seed(db)
    db.commit()
    assert _counts(db) == once
    names = set(db.scalars(select(Qualification.name)))
    assert names == {q.name for q in demo_qualifications.QUALIFICATIONS}

    shown = {key: _shown(*hold) for key, hold in _holds(db).items()}
    assert set(shown.values()) == {"permanent", "good", "warn", "expired", "neverValidated", "inProgress"}
    mine = {name: text for (name, login), text in shown.items() if login == "apprenant"}
    assert set(mine.values()) == {"permanent", "good", "warn", "expired", "inProgress"}
    assert mine["Cariste en atelier"] == "warn" and mine["Habilitation électrique aux essais"] == "expired"
    # A failed grading holds nothing.
    assert shown["Contrôle dimensionnel", "referent"] == "neverValidated"


def test_the_assembly_line_has_a_function_covered_by_one_person_and_one_by_nobody(demo_org, client, db):
    holds = _holds(db)
    names = dict(db.execute(select(Qualification.id, Qualification.name)).tuples().all())
    # Spot elements of each module: functions, and the functions of its subjects.
    covers: dict[int, set[int]] = defaultdict(set)
    items = db.execute(
        select(
            TrainingModuleItem.module_id, TrainingModuleItem.spot_item_type, TrainingModuleItem.spot_item_id
        ).where(TrainingModuleItem.kind == "spot")
    )
    subject_function = dict(db.execute(select(Subject.id, Subject.function_id)).tuples().all())
    for module_id, kind, item_id in items:
        if kind == "function":
            covers[module_id].add(item_id)
        elif kind == "subject" and subject_function.get(item_id) is not None:
            covers[module_id].add(subject_function[item_id])
    function_cartography = dict(db.execute(select(Function.id, Function.cartography_id)).tuples().all())
    qualified: dict[int, set[str]] = defaultdict(set)
    for qualification_id, cartography_id, module_id in db.execute(
        select(
            QualificationCartography.qualification_id,
            QualificationCartography.cartography_id,
            QualificationModule.module_id,
        ).join(
            QualificationModule,
            QualificationModule.qualification_id == QualificationCartography.qualification_id,
        )
    ):
        for function_id in covers[module_id]:
            if function_cartography[function_id] != cartography_id:
                continue
            for (name, login), (remaining, _limiting) in holds.items():
                if name == names[qualification_id] and remaining >= 0:
                    qualified[function_id].add(login)
    cartography = db.scalar(select(Cartography.id).where(Cartography.code == "ASM"))
    functions = dict(
        db.execute(select(Function.code, Function.id).where(Function.cartography_id == cartography))
        .tuples()
        .all()
    )
    assert qualified[functions["CQU"]] == {"referent"}
    assert qualified[functions["CAR"]] == {"apprenant", "operatrice"}
    assert not qualified[functions["TMA"]]


def test_the_past_gradings_are_as_the_path_service_makes_them(demo_org, client, db):
    learners = {h.learner for h in demo_qualifications.HELD}
    logins = _logins(db)
    held = {(h.title, h.learner) for h in demo_qualifications.HELD}
    formation = demo_login(client, db, "formation")
    rows = db.execute(
        select(TrainingPath, TrainingPathModule, TrainingModule.periodicity)
        .join(TrainingPathModule, TrainingPathModule.path_id == TrainingPath.id)
        .join(TrainingModule, TrainingModule.id == TrainingPathModule.module_id)
        .where(TrainingPath.learner_id.in_([i for i, login in logins.items() if login in learners]))
    ).all()
    seen = set()
    for path, module, periodicity in rows:
        if (path.title, logins[path.learner_id]) not in held:
            continue
        seen.add((path.title, logins[path.learner_id]))
        assert (path.status, module.status) == ("archived", "archived")
        assert path.start_date <= module.graded_at.date() <= path.stop_date < today()
        gradings = db.scalars(
            select(TrainingPathGrading).where(TrainingPathGrading.path_module_id == module.id)
        ).all()
        assert len(gradings) == 1
        (grading,) = gradings
        assert (grading.grade, grading.is_success, grading.valid_until, grading.graded_at) == (
            module.grade,
            module.is_success,
            module.valid_until,
            module.graded_at,
        )
        graded_day = module.graded_at.date()
        expected = add_months(graded_day, periodicity) if periodicity and module.is_success else None
        # The grading's local day may be the day before or after its UTC one.
        if expected is None:
            assert module.valid_until is None
        else:
            assert abs((module.valid_until - expected).days) <= 1
        view = client.get(f"{API}/training/path/{path.id}", headers=formation).json()
        assert view["status"] == "archived"
        assert len(view["signatures"]) == 2
        assert not any(s["modifiedAfterSignature"] for s in view["signatures"])
        for assigned in view["assignedModules"]:
            assert assigned["signatures"] and not any(
                s["modifiedAfterSignature"] for s in assigned["signatures"]
            )
    assert seen == held


def test_the_managers_hold_the_dashboards_permissions(demo_org, client, db):
    for login in ("manager", "admin"):
        user_id = db.scalar(select(User.id).where(User.login == login))
        principal = principal_of(db, user_id=user_id)
        for permission in (Permission.TableauBord, Permission.QualificationAdmin, Permission.VisuTrack):
            assert principal.may(permission), (login, permission)
    discussion = db.scalar(
        select(Qualification.discussion_id).where(Qualification.name == "Cariste en atelier")
    )
    typed = db.scalar(
        select(func.count())
        .select_from(DiscussionMessage)
        .where(DiscussionMessage.discussion_id == discussion, DiscussionMessage.system_type.is_(None))
    )
    assert typed == 2


def test_the_dashboards_show_the_demo(demo_org, client, db):
    manager = demo_login(client, db, "manager")
    assembly = db.scalar(select(Cartography.id).where(Cartography.code == "ASM"))
    response = client.get(f"{API}/dashboards/qualifications/cartography/{assembly}", headers=manager)
    assert response.status_code == 200, response.text
    levels = {
        c["function"]["name"]: (c["level"], [q["user"]["name"] for q in c["qualified"]])
        for c in response.json()["coverage"]
    }
    assert levels["Contrôleur qualité"] == ("single", ["Émilie Laurent"])
    assert levels["Technicien maintenance"] == ("none", [])
    assert levels["Cariste"][0] == "covered"

    learner = demo_login(client, db, "apprenant")
    mine = client.get(f"{API}/dashboards/mine", headers=learner).json()
    colours = {m["moduleName"]: m["color"] for m in mine["periodicModules"]}
    assert colours[demo_qualifications.GRINDING] == "green"
    assert colours[demo_qualifications.FORKLIFT] == "red"
    assert colours[demo_qualifications.ELECTRICITY] == "grey"
    me = db.scalar(select(User.id).where(User.login == "apprenant"))
    status = client.get(f"{API}/dashboards/qualifications/user/{me}", headers=learner)
    assert status.status_code == 200 and len(status.json()["elements"]) == len(
        demo_qualifications.QUALIFICATIONS
    )
