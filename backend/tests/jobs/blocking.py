"""A kind of job for the tests only (`testBlocking`): it writes the first half of its file, says so
(progress 1 of 2), then waits until the file its parameters name exists before writing the rest. A test
kills its process while it waits, or lets it finish.

Run as a script, it is `spot worker` with this kind registered (the tests start it as a process)."""

import sys
import time
from pathlib import Path

from sqlalchemy.orm import Session

from spot.jobs import runner

KIND = "testBlocking"
FIRST, REST = b"first half;", b"second half"


def handler(db: Session, work: runner.Work) -> runner.Output:
    path = work.scratch(".txt")
    path.write_bytes(FIRST)
    work.progress(1, 2)
    go = Path(work.parameters["go"])
    while not go.exists():
        time.sleep(0.05)
    with path.open("ab") as out:
        out.write(REST)
    work.progress(2)
    return runner.Output(path=path, download_name="test.txt", media_type="text/plain", extension="txt")


runner.register(KIND, handler)

if __name__ == "__main__":
    from spot.cli import app

    sys.argv = ["spot", "worker"]
    app()
