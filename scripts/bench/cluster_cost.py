"""What the cluster has spent so far: CPU seconds of the nodes and of PostgreSQL (its postmaster and every backend,
from /proc), and the nodes' round trips to the database (`switchyard_store_round_trips_total` in /metrics).

Usage: cluster_cost.py PGDATA NODE_PID:PORT [NODE_PID:PORT ...]   (prints one JSON object)
The bench samples it before and after a load and divides the differences by the changes made.
"""

import json
import os
import sys
import urllib.request

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICKS


def children(pid):
    found = []
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/children") as listing:
                found += [int(child) for child in listing.read().split()]
        except OSError:
            pass
    return found


def round_trips(port):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as response:
        for line in response.read().decode().splitlines():
            if line.startswith("switchyard_store_round_trips_total "):
                return int(float(line.split()[1]))
    return 0


def main():
    pgdata, nodes = sys.argv[1], [argument.split(":") for argument in sys.argv[2:]]
    with open(os.path.join(pgdata, "postmaster.pid")) as pidfile:
        postmaster = int(pidfile.readline())
    postgres = cpu_seconds(postmaster) + sum(cpu_seconds(child) for child in children(postmaster))
    print(json.dumps({
        "nodesCpuSeconds": sum(cpu_seconds(int(pid)) for pid, _ in nodes),
        "postgresCpuSeconds": postgres,
        "roundTrips": sum(round_trips(int(port)) for _, port in nodes),
    }))


if __name__ == "__main__":
    main()
