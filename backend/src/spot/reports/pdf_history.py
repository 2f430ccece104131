"""The audit pack's document of a person's validation history (docs/reports.md 'The audit pack'): each
module they were ever graded in, by name, with what it counts for today, then every grading of it,
successful or failed, from every path of theirs, oldest first (qualifications.history): date, grade
and result, referent, path, last valid day, and what the grading counts for today. Made of
reports.pdf's pages (logo, stamp, "Page n / total") and words (the catalogue's `pdf` and
`validation_history` groups)."""

from collections.abc import Sequence
from dataclasses import dataclass

from reportlab.platypus import Flowable, Paragraph, Spacer, Table, TableStyle

from spot.core.i18n import LANGUAGES, Language, fill
from spot.qualifications.history import Entry, GradingOutcome, ModuleHistory
from spot.reports.pdf import Context, build, learner_markup
from spot.reports.pdf_blocks import LINE, SHADE, WIDTH, Heading, Styles, make_styles, text
from spot.reports.selection import UNKNOWN_USER, LearnerLines
from spot.users.models import printed_name


@dataclass(frozen=True)
class HistoryWords:
    title: str
    intro: str
    nothing: str
    today: str
    held_until: str
    held_permanent: str
    held_expired: str
    not_held: str
    path: str
    outcome: str
    outcomes: dict[str, str]


HISTORY_WORDS: dict[Language, HistoryWords] = {
    lang: fill(HistoryWords, lang, "validation_history") for lang in LANGUAGES
}
_HELD = (GradingOutcome.valid, GradingOutcome.expired)
# Date, grade, referent, path, valid until, and what it counts for takes the rest.
_WIDTHS = (66.0, 82.0, 92.0, 130.0, 58.0)


def _held(entries: Sequence[Entry]) -> Entry | None:
    return next((e for e in entries if e.outcome in _HELD), None)


def _today(history: ModuleHistory, words: HistoryWords, ctx: Context) -> str:
    held = _held(history.entries)
    if held is None:
        state = words.not_held
    elif held.permanent:
        state = words.held_permanent
    elif held.outcome == GradingOutcome.expired:
        state = words.held_expired.format(date=ctx.day(held.valid_until))
    else:
        state = words.held_until.format(date=ctx.day(held.valid_until))
    return ctx.labelled(words.today, text(state))


def _referent(entry: Entry, language: Language) -> str:
    """A referent whose account is gone prints as X (spec 2 §8), one who left marked as such."""
    if entry.referent_id is None or not entry.referent_name:
        return UNKNOWN_USER
    return printed_name(entry.referent_name, entry.referent_active, language)


def _table(history: ModuleHistory, words: HistoryWords, styles: Styles, ctx: Context) -> Table:
    w = ctx.words
    header = [w.graded_at, w.grade, w.referent, words.path, w.valid_until, words.outcome]
    data: list[list[Flowable]] = [[Paragraph(text(h), styles.label) for h in header]]
    commands: list[tuple[object, ...]] = [
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("GRID", (0, 0), (-1, -1), 0.25, LINE),
        ("BACKGROUND", (0, 0), (-1, 0), SHADE),
        ("TOPPADDING", (0, 0), (-1, -1), 1),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 1),
    ]
    for entry in reversed(history.entries):  # oldest first
        grade = f"{ctx.number(entry.grade)} / 10 — {w.passed if entry.success else w.failed}"
        status = w.path_statuses.get(entry.path_status, entry.path_status)
        path = f"{entry.path_title} (#{entry.path_id}) — {status}"
        until = w.permanent if entry.permanent else ctx.day(entry.valid_until)
        outcome = words.outcomes.get(entry.outcome.value, entry.outcome.value)
        if entry.outcome in _HELD:
            outcome = f"<b>{text(outcome)}</b>"
            commands.append(("BACKGROUND", (0, len(data)), (-1, len(data)), SHADE))
        else:
            outcome = text(outcome)
        data.append(
            [
                Paragraph(ctx.moment(entry.graded_at), styles.small),
                Paragraph(text(grade), styles.small),
                Paragraph(text(_referent(entry, ctx.language)), styles.small),
                Paragraph(text(path), styles.small),
                Paragraph(text(until), styles.small),
                Paragraph(outcome, styles.small),
            ]
        )
    widths = [*_WIDTHS, WIDTH - sum(_WIDTHS)]
    table = Table(data, colWidths=widths, hAlign="LEFT", repeatRows=1, splitInRow=1)
    table.setStyle(TableStyle(commands))
    return table


def validation_history(learner: LearnerLines, histories: Sequence[ModuleHistory], *, ctx: Context) -> bytes:
    """The person's validation history: per module (an entry of the outline), today's state, then the
    table of its gradings; a sentence when they were never graded."""
    words = HISTORY_WORDS[ctx.language]
    styles = make_styles()
    story: list[Flowable] = [
        Paragraph(text(words.title), styles.title),
        Paragraph(learner_markup(learner, external_id=True, ctx=ctx), styles.person),
        Paragraph(text(words.intro if histories else words.nothing), styles.body),
    ]
    for history in histories:
        story += [
            Heading(text(history.module_name), styles.heading, outline=history.module_name, level=0),
            Paragraph(_today(history, words, ctx), styles.caption),
            Spacer(1, 2),
            _table(history, words, styles, ctx),
            Spacer(1, 4),
        ]
    return build(story, ctx, title=words.title)
