"""each person's current hold on each module, kept by triggers

Every qualification dashboard, status record and the bell asked who holds which module by ranking
all the people's path modules (two window functions over thousands of rows) on each request. The
answer is now a table, `module_hold`, one row per (person, module) having a successful grading or a
path in progress containing it: the path of the latest successful grading and its last valid day,
and the requalification path. The database keeps it, in the same transaction, whoever writes: each
insert, update or deletion of a path module, each change of a path's status or learner, each deleted
path recomputes the pairs concerned with the rule of qualifications.validity (spec 2 §4, §9).
Remaining days depend on today and are still counted when read.

Revision ID: 3b9e6c1d7a52
Revises: 10085eeea9f7
Create Date: 2026-11-25 02:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "3b9e6c1d7a52"
down_revision: str | None = "10085eeea9f7"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# The rule (qualifications.validity.computed, which tests hold this copy to): a pair's validation is
# its latest successful grading (graded_at, then id) in a path not canceled, on a module not disabled;
# its requalification the newest path in progress in which the module is not graded yet.
SUCCESS = "(m.is_success IS TRUE AND m.status <> 'disabled' AND p.status <> 'canceled')"
REQUALIFYING = (
    "(p.status IN ('notAccepted', 'accepted', 'started', 'finished')"
    " AND m.status IN ('notStarted', 'started', 'finished'))"
)
COMPUTED = f"""SELECT user_id, module_id, validation, valid_until, requalification FROM (
    SELECT p.learner_id AS user_id, m.module_id AS module_id,
        CASE WHEN {SUCCESS} THEN m.path_id END AS validation,
        CASE WHEN {SUCCESS} THEN m.valid_until END AS valid_until,
        max(CASE WHEN {REQUALIFYING} THEN m.path_id END)
            OVER (PARTITION BY p.learner_id, m.module_id) AS requalification,
        row_number() OVER (
            PARTITION BY p.learner_id, m.module_id
            ORDER BY CASE WHEN {SUCCESS} THEN 1 ELSE 0 END DESC, m.graded_at DESC, m.id DESC
        ) AS rank
    FROM training_path_module m JOIN training_path p ON p.id = m.path_id
    WHERE p.learner_id IS NOT NULL AND ({SUCCESS} OR {REQUALIFYING}) {{pairs}}
) pairs WHERE rank = 1"""
COLUMNS = "user_id, module_id, validation_path_id, valid_until, requalification_path_id"
# The advisory locks' first key on PostgreSQL (the second: the learner's id).
LOCK_CLASS = 4170


def refresh(user: str, modules: str) -> list[str]:
    """The statements recomputing the pairs of `user` (an SQL expression) and `modules` (a subquery
    or list): upsert what the rule gives, then drop the pairs it gives nothing for. In this order so
    that `modules` may read module_hold itself (a deleted path's pairs)."""
    pairs = f"AND p.learner_id = {user} AND m.module_id IN ({modules})"
    return [
        f"""INSERT INTO module_hold ({COLUMNS}) {COMPUTED.format(pairs=pairs)}
        ON CONFLICT (user_id, module_id) DO UPDATE SET validation_path_id = excluded.validation_path_id,
            valid_until = excluded.valid_until, requalification_path_id = excluded.requalification_path_id""",
        f"""DELETE FROM module_hold WHERE user_id = {user} AND module_id IN ({modules}) AND NOT EXISTS (
            SELECT 1 FROM training_path_module m JOIN training_path p ON p.id = m.path_id
            WHERE p.learner_id = module_hold.user_id AND m.module_id = module_hold.module_id
            AND ({SUCCESS} OR {REQUALIFYING}))""",
    ]


# (trigger, event, condition, [(user, modules)]): the pairs each write concerns.
_LEARNER_OF = "(SELECT learner_id FROM training_path WHERE id = {row}.path_id)"
_PATH_MODULES = "SELECT module_id FROM training_path_module WHERE path_id = {row}.id"
_MODULE_COLUMNS = "status, is_success, valid_until, graded_at, path_id, module_id"
TRIGGERS = [
    (
        "module_hold_path_module_inserted",
        "AFTER INSERT ON training_path_module",
        None,
        [(_LEARNER_OF.format(row="NEW"), "NEW.module_id")],
    ),
    (
        "module_hold_path_module_updated",
        f"AFTER UPDATE OF {_MODULE_COLUMNS} ON training_path_module",
        None,
        [(_LEARNER_OF.format(row="NEW"), "NEW.module_id")],
    ),
    (
        "module_hold_path_module_moved",
        f"AFTER UPDATE OF {_MODULE_COLUMNS} ON training_path_module",
        "OLD.path_id <> NEW.path_id OR OLD.module_id <> NEW.module_id",
        [(_LEARNER_OF.format(row="OLD"), "OLD.module_id")],
    ),
    (
        "module_hold_path_module_deleted",
        "AFTER DELETE ON training_path_module",
        None,
        [(_LEARNER_OF.format(row="OLD"), "OLD.module_id")],
    ),
    (
        "module_hold_path_updated",
        "AFTER UPDATE OF status, learner_id ON training_path",
        None,
        [("NEW.learner_id", _PATH_MODULES.format(row="NEW"))],
    ),
    (
        "module_hold_path_relearned",
        "AFTER UPDATE OF status, learner_id ON training_path",
        "OLD.learner_id IS NOT NULL AND (NEW.learner_id IS NULL OR OLD.learner_id <> NEW.learner_id)",
        [("OLD.learner_id", _PATH_MODULES.format(row="NEW"))],
    ),
    (
        # Whether or not its modules are gone yet (a cascade), the pairs naming the deleted path.
        "module_hold_path_deleted",
        "AFTER DELETE ON training_path",
        None,
        [
            (
                "OLD.learner_id",
                "SELECT module_id FROM module_hold WHERE user_id = OLD.learner_id"
                " AND (validation_path_id = OLD.id OR requalification_path_id = OLD.id)",
            )
        ],
    ),
]


def _create_triggers(postgresql: bool) -> None:
    for name, event, condition, pairs in TRIGGERS:
        statements = [s for user, modules in pairs for s in refresh(user, modules)]
        if postgresql:
            # Writers of the same learner's holds wait for each other: each statement of a plpgsql
            # function sees what was committed before it began, so once the lock is granted the pairs
            # are recomputed over the other writer's changes instead of overwriting them with a view
            # taken before its commit. (SQLite has one writer at a time.)
            locks = [f"PERFORM pg_advisory_xact_lock({LOCK_CLASS}, {user})" for user, _ in pairs]
            body = ";\n".join(locks + statements)
            op.execute(
                f"CREATE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $$\n"
                f"BEGIN\n{body};\nRETURN NULL;\nEND $$"
            )
            when = f" WHEN ({condition})" if condition else ""
            op.execute(f"CREATE TRIGGER {name} {event} FOR EACH ROW{when} EXECUTE FUNCTION {name}()")
        else:
            when = f" WHEN {condition}" if condition else ""
            body = ";\n".join(statements)
            op.execute(f"CREATE TRIGGER {name} {event}{when}\nBEGIN\n{body};\nEND")


def upgrade() -> None:
    op.create_table(
        "module_hold",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("module_id", sa.Integer(), nullable=False),
        sa.Column("validation_path_id", sa.Integer(), nullable=True),
        sa.Column("valid_until", sa.Date(), nullable=True),
        sa.Column("requalification_path_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["module_id"],
            ["training_module.id"],
            name="fk_module_hold_module_id_training_module",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("user_id", "module_id", name="pk_module_hold"),
        sqlite_with_rowid=False,
    )
    op.create_index("ix_module_hold_module_id", "module_hold", ["module_id", "user_id"])
    op.execute(f"INSERT INTO module_hold ({COLUMNS}) {COMPUTED.format(pairs='')}")
    # Statistics for the filled table, so that its first readers' plans know its size.
    op.execute("ANALYZE module_hold")
    _create_triggers(op.get_bind().dialect.name == "postgresql")


def downgrade() -> None:
    postgresql = op.get_bind().dialect.name == "postgresql"
    for name, event, _, _ in reversed(TRIGGERS):
        if postgresql:
            table = event.rsplit(" ON ", 1)[1]
            op.execute(f"DROP TRIGGER {name} ON {table}")
            op.execute(f"DROP FUNCTION {name}()")
        else:
            op.execute(f"DROP TRIGGER {name}")
    op.drop_index("ix_module_hold_module_id", table_name="module_hold")
    op.drop_table("module_hold")
