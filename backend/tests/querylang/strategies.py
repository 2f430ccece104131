"""Hypothesis strategies for filter trees and sorts of any entity type."""

from datetime import date

from hypothesis import strategies as st

from spot.querylang import And, Criterion, EntityType, Field, FieldType, Or, SortKey

# Any character a request may carry, except NUL and lone surrogates (refused, see the lexer tests).
ANY_TEXT = st.text(st.characters(exclude_characters="\x00", exclude_categories=("Cs",)), max_size=12)


def _values(
    field: Field,
    text: st.SearchStrategy[str],
    days: st.SearchStrategy[date],
    ids: st.SearchStrategy[int],
    codes: st.SearchStrategy[str],
) -> st.SearchStrategy:
    if field.type == FieldType.STRING:
        return text
    if field.type == FieldType.BOOLEAN:
        return st.booleans()
    if field.type == FieldType.DATE:
        return days
    members = {FieldType.ENUM: st.sampled_from(field.values)}.get(
        field.type, codes if field.id_type is str else ids
    )
    return st.lists(members, min_size=1, max_size=3).map(tuple)


def trees(
    entity: EntityType,
    text: st.SearchStrategy[str],
    days: st.SearchStrategy[date],
    ids: st.SearchStrategy[int],
    codes: st.SearchStrategy[str],
) -> st.SearchStrategy:
    def criterion(field: Field) -> st.SearchStrategy[Criterion]:
        return st.builds(
            Criterion,
            st.just(field.name),
            st.sampled_from(field.operators),
            _values(field, text, days, ids, codes),
        )

    leaves = st.one_of([criterion(f) for f in entity.fields if f.filterable])
    return st.recursive(
        leaves,
        lambda children: st.one_of(
            st.lists(children, min_size=2, max_size=4).map(lambda c: And(tuple(c))),
            st.lists(children, min_size=2, max_size=4).map(lambda c: Or(tuple(c))),
        ),
        max_leaves=10,
    )


def sort_keys(entity: EntityType) -> st.SearchStrategy[tuple[SortKey, ...]]:
    sortable = [f.name for f in entity.fields if f.sortable]
    return st.lists(st.sampled_from(sortable), unique=True, max_size=3).flatmap(
        lambda names: st.tuples(*[st.builds(SortKey, st.just(n), st.booleans()) for n in names])
    )
