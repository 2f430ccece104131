"""Load generation with Debian's wrk: latency percentiles at concurrency 1, throughput at 16."""

import json
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

LUA = """
wrk.method = %(method)s
wrk.body = %(body)s
%(headers)s
done = function(summary, latency, requests)
  io.write(string.format('{"p50": %%f, "p95": %%f, "requests": %%d, "errors": %%d, "seconds": %%f}\\n',
    latency:percentile(50) / 1000, latency:percentile(95) / 1000, summary.requests,
    summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.write
      + summary.errors.timeout,
    summary.duration / 1e6))
end
"""


@dataclass(frozen=True)
class Call:
    name: str
    method: str
    path: str
    body: str = ""
    # Who sends it (login, password): the run's login when None.
    login: tuple[str, str] | None = None


@dataclass(frozen=True)
class Figures:
    p50_ms: float
    p95_ms: float
    rps: float
    errors: int


def _lua_string(value: str) -> str:
    return json.dumps(value)


def measure(base_url: str, call: Call, headers: dict[str, str], connections: int, seconds: int) -> Figures:
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is missing: apt-get install wrk")
    header_lines = "\n".join(f"wrk.headers[{_lua_string(k)}] = {_lua_string(v)}" for k, v in headers.items())
    if call.body:
        header_lines += '\nwrk.headers["Content-Type"] = "application/json"'
    script = LUA % {
        "method": _lua_string(call.method),
        "body": _lua_string(call.body) if call.body else "nil",
        "headers": header_lines,
    }
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as handle:
        handle.write(script)
    threads = 1 if connections == 1 else 2
    out = subprocess.run(
        [
            "wrk",
            f"-t{threads}",
            f"-c{connections}",
            f"-d{seconds}s",
            "--timeout",
            "5s",
            "-s",
            handle.name,
            base_url + call.path,
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    Path(handle.name).unlink()
    data = json.loads(out.strip().splitlines()[-1])
    return Figures(
        p50_ms=data["p50"], p95_ms=data["p95"], rps=data["requests"] / data["seconds"], errors=data["errors"]
    )
