"""What the OpenAPI document says of the API's values, in the words tools read."""

from collections.abc import Iterator
from typing import Any

from support import API


def _keys(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            yield key
            if key != "properties":  # a property may be named anything, "ge" too
                yield from _keys(value)
            else:
                for schema in value.values():
                    yield from _keys(schema)
    elif isinstance(node, list):
        for item in node:
            yield from _keys(item)


def test_bounds_are_written_as_minimum_and_maximum(client):
    document = client.get(f"{API}/openapi.json").json()
    assert {"ge", "le", "gt", "lt"} & set(_keys(document["paths"])) == set()
    assert {"ge", "le", "gt", "lt"} & set(_keys(document["components"])) == set()
    parameters = document["paths"][f"{API}/subject/{{subjectId}}"]["get"]["parameters"]
    (subject_id,) = [p for p in parameters if p["name"] == "subjectId"]
    assert subject_id["schema"] | {"minimum": 0, "maximum": 2**31 - 1} == subject_id["schema"]
    body_ids = document["components"]["schemas"]["AllowedItem"]["properties"]["itemId"]
    assert (body_ids["minimum"], body_ids["maximum"]) == (0, 2**31 - 1)
