"""Cross-node SSE latency: a stream on node B, transitions on node A; time from A's response to B's event.

Usage: cluster_sse.py HOST PORT_A PORT_B [TRANSITIONS]
Prints one JSON object. Transitions are sent one at a time (each waits for B's event), alternating push and pop.
"""

import http.client
import json
import statistics
import sys
import threading
import time

from sessions import create


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main():
    host, port_a, port_b = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    transitions = int(sys.argv[4]) if len(sys.argv) > 4 else 200
    control = http.client.HTTPConnection(host, port_a, timeout=30)
    session, node = create(control)

    arrivals = {}
    arrived = threading.Condition()

    def listen():
        stream = http.client.HTTPConnection(host, port_b, timeout=60)
        stream.request("GET", f"/api/sessions/{session}/stream", headers={"Accept": "text/event-stream"})
        response = stream.getresponse()
        while True:
            line = response.readline()  # decodes the chunked transfer
            if not line:
                return
            if line.startswith(b"id:"):
                version = int(line[3:].strip())
                with arrived:
                    arrivals[version] = time.perf_counter()
                    arrived.notify_all()

    threading.Thread(target=listen, daemon=True).start()

    def wait_for(version, deadline):
        with arrived:
            while version not in arrivals:
                if not arrived.wait(max(0.0, deadline - time.perf_counter())):
                    raise SystemExit(f"node B never streamed version {version}")
            return arrivals[version]

    control.request("GET", f"/api/sessions/{session}")
    wait_for(json.loads(control.getresponse().read())["version"], time.perf_counter() + 30)

    latencies = []
    headers = {"Content-Type": "application/json"}
    for index in range(transitions):
        step = {"action": "push", "route": "todo", "input": "hello-world"} if index % 2 == 0 else {"action": "pop"}
        control.request("POST", f"/api/sessions/{session}/transitions",
                        body=json.dumps({"coordinator": node, "steps": [step]}), headers=headers)
        response = control.getresponse()
        payload = response.read()
        answered = time.perf_counter()
        if response.status != 200:
            raise SystemExit(f"transition answered {response.status}: {payload[:200]!r}")
        event = wait_for(json.loads(payload)["version"], answered + 10)
        latencies.append(max(0.0, event - answered) * 1000)
    print(json.dumps({
        "transitions": transitions,
        "fromResponseMs": {"p50": statistics.median(latencies), "p99": percentile(latencies, 0.99),
                           "max": max(latencies)},
    }))


if __name__ == "__main__":
    main()
