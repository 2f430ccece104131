"""The DUERP's rows (documents.duerp) against a plain-Python reading of the same subjects, on generated
subjects of the test map: which subjects are risks, their work units and order, their criticity and
band, who rated, followed, resolved and standardized them and when, the action plan and the summary."""

from datetime import UTC, datetime, timedelta

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from mapping.maps import Map
from spot.documents import duerp
from spot.mapping.models import Activity, Cartography, Function, Site, Subject, criticity_score
from spot.users.models import User

T0 = datetime(2026, 1, 5, 8, 0, tzinfo=UTC)
PLACES = [
    ("C1", "F1", "A1"),
    ("C1", "F1", "A11"),
    ("C1", "F2", "A121"),
    ("C1", "F2", "A2"),
    ("C2", "G1", "B1"),
]

marks = st.one_of(st.none(), st.tuples(st.integers(0, 1), st.integers(0, 400)))
subjects_strategy = st.lists(
    st.fixed_dictionaries(
        {
            "place": st.integers(0, len(PLACES) - 1),
            "type": st.sampled_from(["risk", "quality"]),
            "frequency": st.integers(0, 5),
            "gravity": st.integers(0, 5),
            "rated": marks,
            "followed": marks,
            "resolved": marks,
            "standardized": marks,
            "measures": st.sampled_from(["", "Gants anti-coupure", "Carter\nConsignation"]),
        }
    ),
    max_size=12,
)


def band(score: int | None) -> str:
    if score is None:
        return "none"
    return "low" if score < 33 else "high" if score > 66 else "medium"


def tree_order(db: Session, cartography_id: int) -> list[tuple[int, str]]:
    """The cartography's activities, each before its sub-activities, with their paths."""
    activities = db.scalars(select(Activity).where(Activity.cartography_id == cartography_id)).all()
    out: list[tuple[int, str]] = []

    def visit(parent: int | None, path: str) -> None:
        for a in sorted((a for a in activities if a.parent_id == parent), key=lambda a: (a.ordering, a.id)):
            name = f"{path} › {a.name}" if path else a.name
            out.append((a.id, name))
            visit(a.id, name)

    visit(None, "")
    return out


def expected(db: Session, site_id: int) -> tuple[list[tuple], list[tuple], list[tuple]]:
    cartographies = sorted(
        db.scalars(select(Cartography).where(Cartography.site_id == site_id)),
        key=lambda c: (c.ordering, c.id),
    )
    activity_rank: dict[int, tuple[int, str]] = {}
    function_rank: dict[int, tuple[int, str]] = {}
    for c in cartographies:
        for a_id, path in tree_order(db, c.id):
            activity_rank[a_id] = (len(activity_rank), path)
        for f in sorted(
            db.scalars(select(Function).where(Function.cartography_id == c.id)),
            key=lambda f: (f.ordering, f.id),
        ):
            function_rank[f.id] = (len(function_rank), f.name)
    cart_rank = {c.id: (n, c.name) for n, c in enumerate(cartographies)}
    names = {u_id: name for u_id, name in USERS.items()}
    rows = []
    for s in db.scalars(select(Subject).where(Subject.cartography_id.in_(cart_rank))):
        if s.type != "risk":
            continue

        def mark(at, by):
            return (at, names.get(by, "")) if at is not None else None

        unit = (
            cart_rank[s.cartography_id][1],
            activity_rank[s.activity_id][1],
            function_rank[s.function_id][1],
        )
        key = (
            cart_rank[s.cartography_id][0],
            activity_rank[s.activity_id][0],
            function_rank[s.function_id][0],
        )
        score = criticity_score(s.frequency, s.gravity) if s.criticity_score is not None else None
        rows.append(
            (
                key,
                (
                    unit,
                    s.id,
                    s.code,
                    s.frequency,
                    s.gravity,
                    score,
                    band(score),
                    mark(s.criticity_at, s.criticity_by),
                    mark(s.followed_at, s.followed_by),
                    mark(s.resolved_at, s.resolved_by),
                    mark(s.standardized_at, s.standardized_by),
                    s.prevention_measures,
                ),
            )
        )

    def by_score(row):
        score = row[1][5]
        return (score is None, -(score or 0), row[1][1])

    risks = [r for _k, r in sorted(rows, key=lambda row: (row[0], *by_score(row)))]
    plan = [r for _k, r in sorted(rows, key=by_score) if r[8] is not None and r[9] is None]
    units: dict[tuple, list] = {}
    for key, r in sorted(rows, key=lambda row: row[0]):
        units.setdefault((key, r[0]), []).append(r)
    summary = [
        (
            unit,
            len(rs),
            sum(band(r[5]) == "high" for r in rs),
            sum(band(r[5]) == "medium" for r in rs),
            sum(band(r[5]) == "low" for r in rs),
            sum(r[5] is None for r in rs),
            max((r[5] for r in rs if r[5] is not None), default=None),
            sum(r[8] is not None and r[9] is None for r in rs),
        )
        for (_key, unit), rs in units.items()
    ]
    return risks, plan, summary


def as_tuple(risk: duerp.Risk) -> tuple:
    def mark(m):
        return (m.at, m.by) if m else None

    u = risk.unit
    return (
        (u.cartography, u.activity, u.function),
        risk.id,
        risk.code,
        risk.frequency,
        risk.gravity,
        risk.criticity,
        risk.band,
        mark(risk.rated),
        mark(risk.followed),
        mark(risk.resolved),
        mark(risk.standardized),
        risk.measures,
    )


USERS: dict[int, str] = {}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(generated=subjects_strategy)
def test_the_rows_are_the_subjects_read_in_plain_python(
    db: Session, test_map: Map, make_user, generated
) -> None:
    USERS.clear()
    for login, first, last in (("rater", "Rita", "Cotation"), ("suivi", "Sam", "Suivi")):
        user = db.scalar(select(User).where(User.login == login)) or make_user(
            login, first_name=first, last_name=last
        )
        USERS[user.id] = user.display_name
    people = list(USERS)
    db.execute(delete(Subject).where(Subject.code.like("G%")))
    for n, data in enumerate(generated):
        cartography, function, activity = PLACES[data["place"]]

        def at(mark):
            return (T0 + timedelta(hours=mark[1]), people[mark[0]]) if mark else (None, None)

        rated_at, rated_by = at(data["rated"])
        rated = data["frequency"] and data["gravity"]
        subject = Subject(
            code=f"G{n}",
            name=f"Généré {n}",
            type=data["type"],
            cartography_id=test_map.cartography(cartography),
            function_id=test_map.function(function),
            activity_id=test_map.activity(activity),
            frequency=data["frequency"],
            gravity=data["gravity"],
            criticity_score=criticity_score(data["frequency"], data["gravity"]),
            criticity_at=rated_at if rated else None,
            criticity_by=rated_by if rated else None,
            prevention_measures=data["measures"],
        )
        for name in ("followed", "resolved", "standardized"):
            when, who = at(data[name])
            setattr(subject, f"{name}_at", when)
            setattr(subject, f"{name}_by", who)
        db.add(subject)
    db.flush()
    site = db.get(Site, test_map.site_id)
    site_map = duerp.read_map(db, site)
    risks, plan, summary = expected(db, test_map.site_id)
    assert [as_tuple(r) for r in duerp.risks(db, site_map)] == risks
    assert [as_tuple(r) for r in duerp.action_plan(db, site_map)] == plan
    assert [
        (
            (s.unit.cartography, s.unit.activity, s.unit.function),
            s.risks,
            s.high,
            s.medium,
            s.low,
            s.not_rated,
            s.highest,
            s.actions,
        )
        for s in duerp.summary(db, site_map)
    ] == summary
    db.rollback()
