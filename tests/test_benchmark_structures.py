"""benchmarks/peer.py builds the structures issue 17 names (no timing here: the script
prints its figures and never fails): the 12-chord X-braced lattice of the OpenSees
figures at 1,001, 1,991, 10,001 members (45 per bay, plus 11 verticals), pinned every 5
bays, shaken at the top; and the Warren truss of the explicit path."""

import pytest

from benchmarks.peer import CHORDS, PIN_EVERY, bays_for, lattice, warren
from equilibria.engine.model import build_model


@pytest.mark.parametrize("members", [1001, 1991, 10001])
def test_the_lattice_has_the_members_the_peer_ran(members):
    data = lattice(bays_for(members), 0.1)
    assert len(data["members"]) == members
    bays = bays_for(members)
    assert len(data["nodes"]) == CHORDS * (bays + 1)
    assert len(data["supports"]) == bays // PIN_EVERY + 1  # the bottom chord pinned every 5 bays
    assert {ld["node"] for ld in data["loads"]} == {f"n{x}_{CHORDS - 1}" for x in range(bays + 1)}  # the top chord shaken


def test_the_lattice_and_the_warren_truss_build():
    assert len(build_model(lattice(22, 0.1), statics_only=True).member_ids) == 1001
    data = warren()
    assert len(data["members"]) == 1999 and all(m.get("kind", "bar") == "bar" for m in data["members"])
    build_model(data, statics_only=True)
