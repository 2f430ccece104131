"""`python -m bench.ab REF [--db sqlite|postgresql] [--rounds N] [--seconds N] [--scenario NAME]`

Spot at REF (a git commit, checked out in a temporary worktree) against Spot as it is in the working
tree, on the same bench dataset, in alternating rounds: on this shared, noisy machine a change is
judged A/B, side by side, not against figures of another hour. Each round measures each call on A then
on B (p50 at concurrency 1, req/s at 16); the table gives the median of the rounds. Both servers run
uvicorn as `spot serve` does, without migrating (the dataset is migrated by the working tree's code).
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

import httpx

from bench import dataset
from bench.__main__ import SCENARIOS, _databases
from bench.runner import ROOT, save, serving
from bench.wrk import Call, measure


def _server(src: Path, database_url: str) -> AbstractContextManager[str]:
    env = {
        **os.environ,
        "PYTHONPATH": str(src),
        "SPOT_DATABASE_URL": database_url,
        "SPOT_DATA_DIR": str(ROOT / "var" / "bench" / "data"),
    }
    command = [sys.executable, "-m", "uvicorn", "spot.main:create_app", "--factory"]
    return serving([*command, "--no-access-log", "--log-level", "warning"], env)


@contextmanager
def _worktree(ref: str) -> Iterator[Path]:
    target = Path(tempfile.mkdtemp(prefix="spot-ab-")) / "tree"
    git = ["git", "-C", str(ROOT), "worktree"]
    subprocess.run([*git, "add", "--detach", "-q", str(target), ref], check=True)
    try:
        yield target / "backend" / "src"
    finally:
        subprocess.run([*git, "remove", "--force", str(target)], check=False)


def _token(base: str) -> dict[str, str]:
    answer = httpx.post(
        f"{base}/backend/api/v2/account/login",
        json={"username": dataset.ADMIN_LOGIN, "password": dataset.ADMIN_PASSWORD},
    )
    return {"x-access-token": answer.json()["token"]}


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.ab")
    parser.add_argument("ref", help="the commit to compare the working tree with")
    parser.add_argument("--db", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--scenario", choices=[*SCENARIOS, "all"], default="all")
    args = parser.parse_args()
    url = _databases(args.db)[0]
    calls: list[Call] = [
        call for name, items in SCENARIOS.items() if args.scenario in (name, "all") for call, _ in items
    ]
    figures: dict[tuple[str, str], list[tuple[float, float]]] = {}
    new_src = ROOT / "backend" / "src"
    with _worktree(args.ref) as old_src, _server(old_src, url) as a, _server(new_src, url) as b:
        # One session for both: they share the database, and A's sign-in may read tables that the
        # working tree's migrations have changed.
        headers = _token(b)
        servers = {"A": (a, headers), "B": (b, headers)}
        for round_number in range(1, args.rounds + 1):
            for call in calls:
                for side, (base, headers) in servers.items():
                    latency = measure(base, call, headers, 1, args.seconds)
                    throughput = measure(base, call, headers, 16, args.seconds)
                    figures.setdefault((call.name, side), []).append((latency.p50_ms, throughput.rps))
                    print(
                        f"round {round_number} {side} {call.name}: p50 {latency.p50_ms:.2f} ms, "
                        f"{throughput.rps:.0f} req/s",
                        flush=True,
                    )
    lines = [
        f"## A/B on {args.db}: A = {args.ref}, B = the working tree "
        f"({args.rounds} rounds of {args.seconds} s)",
        "",
        "| call | A p50 ms | B p50 ms | A req/s @16 | B req/s @16 | B/A p50 |",
        "|---|---|---|---|---|---|",
    ]
    for call in calls:
        a_p50 = statistics.median(p for p, _ in figures[(call.name, "A")])
        b_p50 = statistics.median(p for p, _ in figures[(call.name, "B")])
        a_rps = statistics.median(r for _, r in figures[(call.name, "A")])
        b_rps = statistics.median(r for _, r in figures[(call.name, "B")])
        lines.append(
            f"| {call.name} | {a_p50:.2f} | {b_p50:.2f} | {a_rps:.0f} | {b_rps:.0f} | {b_p50 / a_p50:.2f} |"
        )
    text = "\n".join(lines)
    print(text)
    print(f"written to {save(f'ab-{args.db}', text)}")


if __name__ == "__main__":
    main()
