"""Print the server's OpenAPI document: the generated client is built from it."""

import json
import sys

from spot.core import startup


def main() -> None:
    startup.import_app()
    from spot.main import create_app

    json.dump(create_app().openapi(), sys.stdout, indent=1, sort_keys=True, ensure_ascii=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
