"""What the release tests share: one throwaway PostgreSQL per test module (Tests/cluster/cluster.py), stopped after
it."""

import pathlib
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import shop  # noqa: E402,F401  (puts Tests/cluster and Tests/support on the path)
from cluster import Postgres  # noqa: E402


@pytest.fixture(scope="module")
def postgres():
    server = Postgres().start()
    yield server
    server.stop()
