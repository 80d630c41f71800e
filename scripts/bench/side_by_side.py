"""The binary of an earlier release and this one, side by side in one run: alternated rounds of the same load.

Usage: side_by_side.py BASELINE_BIN CURRENT_BIN ROUNDS DURATION SESSIONS

Each round starts a fresh server per binary and store (in memory; SQLite with durability `process`), creates
SESSIONS logged-in demo sessions, runs `wrk -t2 -c64` push/pop transitions for DURATION seconds, and reads the
server's resident memory (VmRSS) while those sessions are live. The order of the two binaries alternates from round
to round, so that a machine getting busier or quieter does not favour one. Prints one JSON document.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "Tests", "support"))
from cluster_cost import cpu_seconds  # noqa: E402  (this folder)
from harness import free_port, wait_healthy  # noqa: E402  (Tests/support/harness.py)

STORES = {"memory": ["--store", "memory"], "sqlite": ["--durability", "process"]}


def rss_bytes(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


def measure(binary, store, duration, sessions):
    data = tempfile.mkdtemp(prefix="switchyard-sbs.")
    port = free_port()
    flags = STORES[store] + ([] if store == "memory" else ["--data", data])
    server = subprocess.Popen(
        [binary, "serve", "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning",
         "--session-create-rate", "0", *flags],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_healthy(port, alive=lambda: server.poll() is None, label=binary)
        listing = os.path.join(data, "sessions.txt")
        with open(listing, "w") as out:
            subprocess.run([sys.executable, os.path.join(HERE, "sessions.py"), "127.0.0.1", str(port), str(sessions)],
                           stdout=out, check=True)
        cpu_before = cpu_seconds(server.pid)
        wrk = subprocess.run(
            ["wrk", "-t2", "-c64", f"-d{duration}s", "-s", os.path.join(HERE, "wrk.lua"), f"http://127.0.0.1:{port}",
             "--", "transition", listing, "2"], capture_output=True, text=True, check=True)
        cpu = cpu_seconds(server.pid) - cpu_before
        rss = rss_bytes(server.pid)
        line = next(line for line in wrk.stdout.splitlines() if line.startswith("BENCH_JSON "))
        result = json.loads(line.split(" ", 1)[1])
        requests = max(1, result.get("requests", 0))
        return {"rps": result["rps"], "rssBytes": rss, "cpuMicrosecondsPerChange": cpu / requests * 1e6,
                "p50Microseconds": result["p50_us"], "p99Microseconds": result["p99_us"],
                "errors": sum(result["errors"].values())}
    finally:
        server.terminate()
        server.wait()
        shutil.rmtree(data, ignore_errors=True)


def main():
    baseline, current, rounds, duration, sessions = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], \
        int(sys.argv[5])
    results = []
    for round_number in range(1, rounds + 1):
        for store in STORES:
            order = [("baseline", baseline), ("current", current)]
            if round_number % 2 == 0:
                order.reverse()
            for name, binary in order:
                print(f"bench: side by side, round {round_number}/{rounds}, {store}, {name}", file=sys.stderr)
                results.append({"round": round_number, "store": store, "binary": name,
                                **measure(binary, store, duration, sessions)})
    json.dump({"sessions": sessions, "duration": duration, "rounds": results}, sys.stdout)


if __name__ == "__main__":
    main()
