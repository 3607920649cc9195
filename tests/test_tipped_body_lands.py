"""tipping-01 tipped over (issue 32 point 6): a force along the floor leaves the cabinet
to tip over B. The judged run the game shows has no ground but the level's two contact
supports, so the cabinet would go on down through the floor: the run stops where a
corner without a support of its own comes down on the ground, and says so, with the
corner it tipped over."""

from __future__ import annotations

from equilibria.app.session.pacing import FRAME
from equilibria.app.session.play import PlaySession
from equilibria.app.session.stage import load_stage
from equilibria.format.solution import load_solution
from equilibria.words.i18n import speaking


def test_the_tipped_cabinet_stops_on_the_floor_and_says_over_which_corner():
    with speaking("en"):
        session = PlaySession(load_stage("levels/tipping-01.json"), fixed=True)
        work = load_solution({"format": 1, "level": "tipping-01", "moves": [{"type": "add_force", "node": "B", "fx": -2000.0, "fy": 0.0}]})
        assert session.bench.restore(list(work.moves)) == 1
        session.check()
        assert session.verdict is not None and not session.passed and "tips over B" in session.verdict.reason
        for _ in range(60 * 30):
            session.tick(FRAME)
            if session.paused:
                break
        assert session.paused and "tipped over B and come down on the ground" in session.notice, session.notice
        model = session.sim.model
        y = session.sim.state.pos[:, 1]
        assert float(y.min()) > -0.02 * model.char_length  # no node far into the floor (y = 0)
        d = session.sim.state.pos[model.node_index("D"), :2]
        assert d[0] > 1.5 and d[1] < 1.5  # the top corner D, built at (0, 2 m), came down to the right of B: it really tipped over
