"""The server's texts (core.i18n): both catalogues say the same things, with the same placeholders,
and a key that is not in a catalogue is an error that names it."""

from string import Formatter

import pytest

from spot.core import i18n


def placeholders(template: str) -> set[str]:
    return {name for _literal, name, _spec, _conversion in Formatter().parse(template) if name is not None}


def test_both_catalogues_have_the_same_keys() -> None:
    french, english = i18n.catalogue("fr"), i18n.catalogue("en")
    assert sorted(set(french) - set(english)) == []
    assert sorted(set(english) - set(french)) == []


def test_each_text_has_the_same_placeholders_in_both_languages() -> None:
    french, english = i18n.catalogue("fr"), i18n.catalogue("en")
    differ = {key: (placeholders(french[key]), placeholders(english[key])) for key in french}
    assert {key: pair for key, pair in differ.items() if pair[0] != pair[1]} == {}


def test_every_text_is_a_non_empty_string() -> None:
    for language in i18n.LANGUAGES:
        assert all(isinstance(value, str) and value for value in i18n.catalogue(language).values())


def test_text_fills_its_placeholders() -> None:
    assert i18n.text("fr", "pdf.page", n=2, total=5) == "Page 2 / 5"
    assert i18n.text("en", "pdf.from_to", start="2026-01-01", stop="2026-02-01") == (
        "from 2026-01-01 to 2026-02-01"
    )


def test_a_missing_key_names_the_key_and_the_language() -> None:
    with pytest.raises(i18n.MissingText, match="'pdf.nothing'.*'en'"):
        i18n.text("en", "pdf.nothing")
    with pytest.raises(i18n.MissingText, match="'pdf.nowhere'"):
        i18n.group("fr", "pdf.nowhere")


def test_a_group_is_an_enumeration_s_words() -> None:
    assert i18n.group("fr", "pdf.path_statuses")["started"] == "Démarré"
    assert i18n.group("en", "pdf.module_types") == {
        "training": "Training",
        "qualification": "Qualification",
        "other": "Other",
    }
