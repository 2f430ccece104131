"""Subject lists and the function view send plain data without validating it (core.schemas.json_response):
their JSON must be exactly what their response models would write, and say what the subject page says."""

from pydantic import TypeAdapter

from spot.querylang.schemas import QueryResult
from spot.subjects.schemas import FunctionView, SubjectCard, SubjectSummary
from support import API

CARDS = TypeAdapter(QueryResult[SubjectCard])
FUNCTION = TypeAdapter(FunctionView)


def as_the_model_writes_it(adapter: TypeAdapter, body: dict) -> dict:
    """The body validated by the model (extra keys dropped, missing or mistyped ones refused) and
    written back: equal only when every key, value and date format is the model's own."""
    return adapter.dump_python(adapter.validate_python(body), mode="json", by_alias=True)


def _marked(client, test_map, make_user, login) -> dict[str, str]:
    """S1 followed, resolved, rated and standardized by a named user: every lifetime event set."""
    headers = login(
        make_user(
            "ariane",
            permissions=["perm_ValidNotHaute", "perm_EditPdv"],
            first_name="Ariane",
            last_name="Roux",
        )
    )
    s1 = test_map.subject("S1")
    for action in ("resolve", "standardize"):
        assert client.post(f"{API}/subject/{s1}/{action}", headers=headers).status_code == 200
    rated = client.post(
        f"{API}/subject/{s1}/rate", json={"frequency": 5, "gravity": 4, "detectability": 0}, headers=headers
    )
    assert rated.status_code == 200
    return headers


def test_list_cards_are_the_models_json(client, test_map, make_user, login):
    headers = _marked(client, test_map, make_user, login)
    body = client.post(f"{API}/subject/query", json={"sort": "code"}, headers=headers).json()
    assert body == as_the_model_writes_it(CARDS, body)
    events = body["results"][0]["lifetimeEvents"]
    assert set(events) == {"creation", "lastUpdate", "followed", "resolved", "criticity", "standardized"}
    assert events["standardized"]["userName"] == "Ariane Roux"
    assert events["standardized"]["date"].endswith("Z")
    assert body["results"][0]["criticityLevel"] == "high"


def test_function_view_is_the_models_json(client, test_map, make_user, login):
    headers = _marked(client, test_map, make_user, login)
    body = client.get(f"{API}/function/{test_map.function('F1')}", headers=headers).json()
    assert body == as_the_model_writes_it(FUNCTION, body)
    assert body["activities"][0]["subjects"][0]["lifetimeEvents"]["followed"]["userName"] == "Ariane Roux"


def test_cards_say_what_the_subject_page_says(client, test_map, make_user, login):
    headers = _marked(client, test_map, make_user, login)
    cards = client.post(f"{API}/subject/query", json={"sort": "code"}, headers=headers).json()["results"]
    function = client.get(f"{API}/function/{test_map.function('F1')}", headers=headers).json()
    in_function = {s["id"]: s for a in function["activities"] for s in a["subjects"]}
    summary_keys = {field.alias for field in SubjectSummary.model_fields.values()}
    for card in cards:
        page = client.get(f"{API}/subject/{card['id']}", headers=headers).json()
        assert {k: card[k] for k in summary_keys} == {k: page[k] for k in summary_keys}
        assert card["contexts"] == page["contexts"]
        if card["id"] in in_function:
            assert in_function[card["id"]] == {k: page[k] for k in summary_keys}
