"""Print the server's OpenAPI document: the generated client is built from it."""

import json
import sys

from spot.main import create_app


def main() -> None:
    json.dump(create_app().openapi(), sys.stdout, indent=1, sort_keys=True, ensure_ascii=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
