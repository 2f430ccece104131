"""Load generation with Debian's wrk: latency percentiles at concurrency 1, throughput at 16."""

import json
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import httpx

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
    # A write carrying the current version of what it edits (a mind map): one target per connection,
    # (the path written to, a path answering {"version": …}); the body's "version" is the target's
    # current one, read before the run, then the one each answer gives. Measured with one wrk thread per
    # connection, so that each connection keeps its own version; `path` is the first target's.
    versioned: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Figures:
    p50_ms: float
    p95_ms: float
    rps: float
    errors: int


def _lua_string(value: str) -> str:
    return json.dumps(value)


_VERSION = re.compile(r'"version":\s*\d+')

# Each thread (one connection) writes to its own target with the version it last got back.
VERSIONED_LUA = """
targets = {%(targets)s}
count = 0
function setup(thread)
  count = count + 1
  thread:set("index", count)
end
function init(args)
  target = targets[index]
  version = target.version
end
function request()
  local body = string.gsub(wrk.body, '"version":%%s*%%d+', '"version":' .. version)
  return wrk.format(nil, target.path, nil, body)
end
function response(status, headers, body)
  local v = body and string.match(body, '"version":%%s*(%%d+)')
  if v then version = tonumber(v) end
end
"""


def with_version(body: str, version: int) -> str:
    """The call's body with this version."""
    return _VERSION.sub(f'"version": {version}', body, count=1)


def current_version(base_url: str, path: str, headers: dict[str, str]) -> int:
    """The version `path` answers now; 0 from a server that does not know it (the floor ignores it)."""
    answer = httpx.get(base_url + path, headers=headers, timeout=30)
    try:
        version = answer.json().get("version") if answer.status_code == 200 else None
    except (ValueError, AttributeError):
        version = None
    return version if isinstance(version, int) else 0


def _versioned_script(base_url: str, call: Call, headers: dict[str, str], connections: int) -> str:
    if connections > len(call.versioned):
        raise SystemExit(f"{call.name}: {connections} connections for {len(call.versioned)} targets")
    targets = ", ".join(
        f"{{path = {_lua_string(path)}, version = {current_version(base_url, version_path, headers)}}}"
        for path, version_path in call.versioned[:connections]
    )
    return VERSIONED_LUA % {"targets": targets}


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
    threads = 1 if connections == 1 else 2
    if call.versioned:
        script += _versioned_script(base_url, call, headers, connections)
        threads = connections
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as handle:
        handle.write(script)
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
