"""The audit pack's document of a person's learning-platform record (docs/reports.md 'The audit pack'):
each course they took part in (lms.record), whether they satisfied it, then a table of its units: what
the unit is, launches, when it was completed, when and how it was satisfied (a waiver with its reason),
and every quiz attempt with its grade and result, oldest first. Made of reports.pdf's pages (logo,
stamp, "Page n / total") and words (the catalogue's `pdf` and `learning_record` groups)."""

from collections.abc import Sequence
from dataclasses import dataclass

from reportlab.platypus import Flowable, Paragraph, Spacer, Table, TableStyle

from spot.core.i18n import LANGUAGES, Language, fill
from spot.lms.record import CourseRecord, UnitRecord
from spot.reports.pdf import Context, build, learner_markup
from spot.reports.pdf_blocks import LINE, SHADE, WIDTH, Heading, Styles, make_styles, text
from spot.reports.selection import LearnerLines


@dataclass(frozen=True)
class LearningWords:
    title: str
    intro: str
    nothing: str
    course_satisfied: str
    course_not_satisfied: str
    removed: str
    unit: str
    launches: str
    completed: str
    satisfied: str
    attempts: str
    kinds: dict[str, str]
    methods: dict[str, str]
    reasons: dict[str, str]
    standards: dict[str, str]


LEARNING_WORDS: dict[Language, LearningWords] = {
    lang: fill(LearningWords, lang, "learning_record") for lang in LANGUAGES
}
# Unit, launches, completed, satisfied; the attempts take the rest.
_WIDTHS = (140.0, 58.0, 70.0, 110.0)


def _satisfied(unit: UnitRecord, words: LearningWords, ctx: Context) -> str:
    if unit.satisfied_at is None:
        return "—"
    how = words.methods.get(unit.satisfied_by or "", unit.satisfied_by or "")
    if unit.waiver_reason:
        how += f" ({words.reasons.get(unit.waiver_reason, unit.waiver_reason)})"
    return f"{ctx.moment(unit.satisfied_at)} — {how}"


def _attempts(unit: UnitRecord, ctx: Context) -> str:
    w = ctx.words
    lines = [
        f"{ctx.moment(a.at)} : {ctx.number(a.grade)} / 10 — {w.passed if a.success else w.failed}"
        for a in unit.attempts
    ]
    return "<br/>".join(text(line) for line in lines) or "—"


def _table(course: CourseRecord, words: LearningWords, styles: Styles, ctx: Context) -> Table:
    header = [words.unit, words.launches, words.completed, words.satisfied, words.attempts]
    data: list[list[Flowable]] = [[Paragraph(text(h), styles.label) for h in header]]
    for unit in course.units:
        kind = words.kinds.get(unit.kind, unit.kind)
        data.append(
            [
                Paragraph(f"{text(unit.name)}<br/><i>{text(kind)}</i>", styles.small),
                Paragraph(str(unit.launches), styles.small),
                Paragraph(text(ctx.moment(unit.completed_at) if unit.completed_at else "—"), styles.small),
                Paragraph(text(_satisfied(unit, words, ctx)), styles.small),
                Paragraph(_attempts(unit, ctx), styles.small),
            ]
        )
    widths = [*_WIDTHS, WIDTH - sum(_WIDTHS)]
    table = Table(data, colWidths=widths, hAlign="LEFT", repeatRows=1, splitInRow=1)
    table.setStyle(
        TableStyle(
            [
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("GRID", (0, 0), (-1, -1), 0.25, LINE),
                ("BACKGROUND", (0, 0), (-1, 0), SHADE),
                ("TOPPADDING", (0, 0), (-1, -1), 1),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 1),
            ]
        )
    )
    return table


def learning_record(learner: LearnerLines, courses: Sequence[CourseRecord], *, ctx: Context) -> bytes:
    """The person's learning-platform record: per course (an entry of the outline), whether it is
    satisfied, then the table of its units; a sentence when they never opened a course."""
    words = LEARNING_WORDS[ctx.language]
    styles = make_styles()
    story: list[Flowable] = [
        Paragraph(text(words.title), styles.title),
        Paragraph(learner_markup(learner, external_id=True, ctx=ctx), styles.person),
        Paragraph(text(words.intro if courses else words.nothing), styles.body),
    ]
    for course in courses:
        state = (
            words.course_satisfied.format(date=ctx.moment(course.satisfied_at))
            if course.satisfied_at
            else words.course_not_satisfied
        )
        standard = words.standards.get(course.standard, course.standard)
        caption = f"{standard} — {state}" + (f" — {words.removed}" if course.removed else "")
        story += [
            Heading(text(course.title), styles.heading, outline=course.title, level=0),
            Paragraph(text(caption), styles.caption),
            Spacer(1, 2),
            _table(course, words, styles, ctx),
            Spacer(1, 4),
        ]
    return build(story, ctx, title=words.title)
