"""The play scene's words: the net-force readout, what is under the mouse, the status line,
the badges, the HUD and the verdict (the parts that show them: game/app/scenes/parts.py). They read the session (game/app/session/play.py) and the
engine's state; they change nothing.

Figures are for students: three significant figures with their unit and sign stated,
never an exponent; a value under a millionth of the forces at play (round-off) is 0.
"""

from __future__ import annotations

import math
import time

import numpy as np
import pygame

from equilibria.app.draw import primitives as draw
from equilibria.app.draw.palette import ALERT, INK, MARK, MUTED, TENSION
from equilibria.app.session.chooser import REAL_TIME
from equilibria.app.session.pacing import SPEEDS
from equilibria.app.session.play import data_place
from equilibria.app.session.terms import element_name, material_name
from equilibria.engine.linear import load_vector
from equilibria.engine.member_loads import end_moments
from equilibria.engine.results import member_results
from equilibria.engine.simulation import Simulation
from equilibria.files.store import BadInput
from equilibria.format.solution import AddForce
from equilibria.rules.common import moment_point
from equilibria.rules.hints import hint as rules_hint
from equilibria.rules.kinds import kind_of
from equilibria.words.figures import broke_words, capacity_lines, figure, money, num
from equilibria.words.i18n import _, decimal, decimal_mark, ngettext


def factor(x: float) -> str:
    """×1/4 for the chosen speeds below one, ×0.37 for a measured rate."""
    for s in SPEEDS:
        if s < 1 and abs(x - s) < 1e-9:
            return f"×1/{round(1 / s)}"
    return f"×{x:.2g}".replace(".", decimal_mark())


def net_force_lines(sim: Simulation, *, static: bool = False, about: str | None = None) -> list[str]:
    """The resultant of every external force on the structure (loads, weight, support
    reactions, nails, hand and ground) and its moment about node `about` (the level's
    moment point, the verdict's: equilibria.rules.common.moment_point), else the origin, in
    words; a value the rest test calls in balance, under its residual tolerance (0.1 %
    of the forces at play), shows as 0: a run at rest keeps residues up to that
    (sections-02's judged run at rest, ΣFy = +0.0159 kN of its 35 kN), 20 times under the
    judge's 2 %, nothing a reading means."""
    model = sim.model
    f = load_vector(model, sim.time) + sim.reactions()
    pos = model.arrays.pos0 if static else sim.state.pos
    forces = sim.tether_forces()
    if len(forces):
        rows = sim.tethers[:, 0].astype(np.int64)
        np.add.at(f[:, :2], rows, forces)
    fx, fy = float(f[:, 0].sum()), float(f[:, 1].sum())
    point, where = np.zeros(2), "(0, 0)"
    if about is not None and about in model.node_ids:
        point, where = pos[model.node_index(about), :2], about
    d = pos[:, :2] - point
    m = float((d[:, 0] * f[:, 1] - d[:, 1] * f[:, 0]).sum() + f[:, 2].sum())
    ref = sim.rest.residual * sim.reference_force()
    lines = [
        _("Net force on the structure (statics)") if static else _("Net force on the structure"),
        f"  ΣFx = {num(fx / 1e3, 'kN', floor=ref / 1e3)}",
        f"  ΣFy = {num(fy / 1e3, 'kN', floor=ref / 1e3)}",
        "  " + _("ΣM about {point} = {moment}").format(point=where, moment=num(m / 1e3, "kN·m", floor=ref * model.char_length / 1e3)),
        "  " + _("(+ right, up, anticlockwise)"),
    ]
    if static and (abs(fx) > ref or abs(fy) > ref or abs(m) > ref * model.char_length):  # a mechanism, or members broken
        lines.append("  " + _("not zero: as built, the structure cannot be in equilibrium under its loads"))
    return lines


def section_words(member: dict | None) -> str:
    """A member's section as the level gives it: material, area, second moment."""
    if not member:
        return ""
    words = [material_name(member.get("material", "")) if member.get("material") else "", f"A = {figure(member['A'] * 1e4)} cm²" if member.get("A") else ""]
    if member.get("I") and member.get("kind", "bar") == "beam":
        words.append(f"I = {figure(member['I'] * 1e8)} cm⁴")
    return ", ".join(w for w in words if w)


def describe_hit(sim: Simulation, hit, *, revealed: bool, member: dict | None = None, broken_words: str = "", sums: bool = True) -> list[str]:
    """The values of the node, member or plate under the mouse; `member`: the member's
    entry in the model data (its section), `broken_words`: why it broke, if it did;
    `revealed` False: no member force, `sums` False: no reaction (before a pass, where
    they would give the answer away)."""
    if sim is None or hit is None:
        return []
    model, s = sim.model, sim.state
    if hit.kind == "node":
        q = model.node_index(hit.id)
        d = (s.pos[q, :2] - model.arrays.pos0[q, :2]) * 1e3
        lines = [_("node {node}").format(node=hit.id), _("moved ({dx}, {dy})").format(dx=num(d[0], "mm"), dy=num(d[1], "mm"))]
        if model.arrays.fixed[q, :2].any() and sums:
            r = sim.reactions()[q]
            lines.append(_("reaction ({fx}, {fy})").format(fx=num(r[0] / 1e3, "kN"), fy=num(r[1] / 1e3, "kN")))
        return lines
    if hit.kind == "member":
        r, k = member_results(model, s), model.member_index(hit.id)
        lines = [_("member {member} ({element})").format(member=hit.id, element=element_name(r.element[k]))]
        if section_words(member):
            lines.append(section_words(member))
        if not r.active[k]:
            return [*lines, broken_words or _("removed")]
        if not revealed:
            return [*lines, _("its force shows once you pass")]
        n = float(r.axial[k])
        if r.bending[k]:
            shear, mi, mj = (a[k] for a in end_moments(model, s))  # a loaded beam's with its fixed-end moments
            ends = _("end moments {mi}, {mj}").format(mi=num(mi / 1e3, "kN·m"), mj=num(mj / 1e3, "kN·m"))
            lines += [_("axial {force}, shear {shear}").format(force=num(n / 1e3, "kN"), shear=num(shear / 1e3, "kN")), ends]
        else:
            axial = num(n / 1e3, "kN")
            lines.append(_("axial {force} (tension)") if n > 0 else _("axial {force} (compression)") if n < 0 else _("axial {force} (none)"))
            lines[-1] = lines[-1].format(force=axial)
        return lines + capacity_lines(r, k)
    k = model.triangle_ids.index(hit.id)
    sx, sy, txy = (float(x) / 1e6 for x in s.tri_out[k, :3])
    return [_("plate {plate}").format(plate=hit.id), f"σx {num(sx, 'MPa')}, σy {num(sy, 'MPa')}", f"τxy {num(txy, 'MPa')}"]


def broken_words(sim: Simulation, hit) -> str:
    """Why and when a member broke, in words ("" when it did not, or was removed)."""
    if sim is None or hit is None or hit.kind != "member":
        return ""
    return broke_words(member_results(sim.model, sim.state), sim.model.member_index(hit.id))


def status_text(scene) -> str:
    """The status line: time, running or not, at rest, speed, cost, what to do next."""
    session = scene.session
    sim = session.sim
    if sim is None:
        return _("nothing built yet: choose a tool and click in the world") if session.bench is not None else _("nothing to show")
    state = _("paused (Space runs)") if session.paused else _("running")
    if session.judging is not None:  # the run on the screen stands still while the check's own run is judged beside it
        state = _("checking (Esc stops it)")
    parts = [f"t = {decimal(sim.time, 2)} s", state]
    if sim.time > 0 and session.verdict is not None and session.passed:
        parts.append(_("it stands: passed"))  # the judged run, in equilibrium within the goal, whatever it still sways
    elif sim.time > 0:
        parts.append(_("at rest") if sim.rest_time >= sim.rest.hold else _("moving"))
    elif session.static is not None and session.static.sim is not None and session.revealed:
        parts.append(_("forces shown: the static answer"))
    parts.append(_("speed {factor}").format(factor=factor(session.pacer.speed)))
    if session.choice is not None and not (session.choice.reason == REAL_TIME and (session.pacer.speed != 1 or session.pacer.slowed)):
        parts.append(_(session.choice.reason))  # "real time" only where it is: not beside a slow motion
    bench = session.level_bench
    if bench is not None:
        cost = bench.cost()
        if cost is not None and bench.level.player.budget:
            parts.append(_("cost {cost} of {budget}").format(cost=money(cost), budget=money(bench.level.player.budget)))  # "2.500 $" in German
        if session.verdict is None:
            parts.append(_("C checks"))
    if scene.picture.magnify > 1:
        parts.append(_("deflections ×{factor}").format(factor=scene.picture.magnify))
    return "   ·   ".join(parts)


def badges(scene) -> list[tuple[str, tuple]]:
    session = scene.session
    out: list[tuple[str, tuple]] = []
    if session.paused:
        out.append((_("PAUSED"), INK))
    pacer = session.pacer
    if session.sim is not None and not session.paused:
        if pacer.slowed:
            out.append((_("SLOW MOTION ×{rate}: too heavy for real time").format(rate=decimal(pacer.rate, 2)), ALERT))
        elif pacer.speed < 1:
            out.append((_("SLOW MOTION {factor}").format(factor=factor(pacer.speed)), TENSION))
        elif pacer.speed > 1:
            out.append((_("FAST {factor}").format(factor=factor(pacer.speed)), MUTED))
    if scene.picture.magnify > 1:
        out.append((_("DEFLECTIONS ×{factor}").format(factor=scene.picture.magnify), MARK))
    return out


def hud_lines(scene) -> list[str]:
    """The figures the HUD shows."""
    session = scene.session
    lines = [_("{fps} fps").format(fps=decimal(scene.app.fps, 1)), _("drawing: {ms} ms per frame").format(ms=decimal(scene.draw_ms, 2))]
    sim, model = session.sim, session.model
    if sim is None:
        return lines
    counts = ", ".join(
        (
            ngettext("{n} node", "{n} nodes", model.n_nodes).format(n=model.n_nodes),
            ngettext("{n} member", "{n} members", len(model.member_ids)).format(n=len(model.member_ids)),
            ngettext("{n} plate", "{n} plates", len(model.triangle_ids)).format(n=len(model.triangle_ids)),
        )
    )
    return [
        *lines,
        _("sub-steps per frame: {n}").format(n=session.pacer.last_steps),
        _("step: {ms} ms ({integrator})").format(ms=figure(sim.dt * 1e3), integrator=sim.integrator),
        *([session.choice.detail] if session.choice is not None and session.choice.detail else []),  # why this integrator
        _("simulation: {ms} ms per frame").format(ms=decimal(session.sim_ms, 2)),
        _("real-time factor: ×{rate} (chosen {factor})").format(rate=decimal(session.pacer.rate, 2), factor=factor(session.pacer.speed)),
        _("simulated time: {t} s").format(t=decimal(sim.time, 3)),
        counts,
    ]


def node_lines(sim: Simulation, node: str) -> list[str]:
    """The followed node: how far it moved and its out-of-balance force."""
    model = sim.model
    q = model.node_index(node)
    f = sim.state.force[q]
    d = (sim.state.pos[q, :2] - model.arrays.pos0[q, :2]) * 1e3
    off = math.hypot(f[0], f[1])
    floor = 1e-6 * sim.reference_force()
    return [
        _("Node {node}").format(node=node),
        "  " + _("moved ({dx}, {dy})").format(dx=num(d[0], "mm"), dy=num(d[1], "mm")),
        "  " + _("out of balance {force}").format(force=num(off / 1e3, "kN", sign=False, floor=floor / 1e3)),
    ]


def verdict_texts(session) -> tuple[str, str, str, bool]:
    """(title, text, foot, passed) of the verdict box."""
    v, bench = session.verdict, session.bench
    level, a = bench.level, bench.attempt
    if v.passed:
        if a.shown:
            title = _("Answer shown: 0 marks")
        elif a.tries == 1:
            title = ngettext("Passed: {marks} mark", "Passed: {marks} marks", a.marks).format(marks=a.marks)
        else:
            title = ngettext("Passed: {marks} mark (check {n})", "Passed: {marks} marks (check {n})", a.marks).format(marks=a.marks, n=a.tries)
        text = f"{v.reason} {level.explanation}".strip()
        return title, text, _("Esc: fold this box"), True
    hint = v.figures.get("hint") or rules_hint(level, v)  # from the mistake, not the try count
    text = f"{v.reason}" + ("  " + _("Hint: {hint}").format(hint=hint) if hint else "")
    return _("Not yet"), text, _("Try again keeps your moves   ·   Esc: fold this box"), False


def hover_lines(scene, sim) -> list[str]:
    """What the tool tip says of the node, member or plate under the mouse."""
    hit = scene.hover
    member = scene.picture.members.get(hit.id) if hit.kind == "member" else None
    s = scene.session
    return describe_hit(sim, hit, revealed=s.revealed, member=member, broken_words=broken_words(sim, hit), sums=s.sums_shown)


def count_lines(session) -> list[str]:
    """m + r against 2j for a truss as built (nothing for a frame: see engine/determinacy.py,
    nor for a free body, whose reactions the student gives), and, where the level looks for mechanisms (or after a check), whether the stiffness
    agrees: the count is necessary, not sufficient."""
    count = session.count
    if count is None or kind_of(session.stage.kind).takes(AddForce):
        return []  # where the student gives forces the body is free on purpose: theirs are its reactions
    lines = [_("Truss count: m + r against 2j"), f"  {count.equation()}"]
    if count.excess >= 0 and session.free is not None:
        said = _("determinate by the count,") if count.excess == 0 else _("indeterminate by the count,")
        return [*lines, f"  {said}", "  " + _("yet the stiffness finds a mechanism:"), "  " + _("the count is necessary, not sufficient")]
    return [*lines, "  " + count.short_words.said(_)]


def readout_lines(scene, sim) -> list[str]:
    """Net force and moment on the whole structure (loads, weight, reactions, hand and
    ground), zero in equilibrium; the truss count; and the followed node."""
    s = scene.session
    if sim is None:
        return []
    no_answer = s.free is not None or (s.static is not None and s.static.sim is None)
    if not s.sums_shown:  # they would read off the answer: the student works them out by hand
        lines = [_("Net force on the structure"), "  " + _("hidden until you pass:"), "  " + _("work it out by hand")]
    elif not s.started and no_answer:
        words = s.static.words if s.static is not None and s.static.words else _("a mechanism: no static answer")
        lines = [_("Net force on the structure"), f"  {words}", "  " + _("(run it to see it move)")]
    else:
        level = s.stage.level
        # The judged run's lever arms as built, so that ΣM is the verdict's (statics: small
        # displacements), once it is at rest: still loading or moving, its net force is
        # the run's own, inertia and all, and is not called the statics'.
        static = sim is not s.sim or (s.judged and sim.rest_time >= sim.rest.hold)
        lines = net_force_lines(sim, static=static, about=moment_point(level) if level is not None else None)
    lines += count_lines(s)
    if scene.selected is not None and scene.selected.kind == "node" and scene.selected.id in s.model.node_ids and s.sums_shown:
        lines += node_lines(sim, scene.selected.id)
    return lines


def save_screenshot(screen: pygame.Surface) -> str:
    """The screen as a PNG in the data folder's screenshots/; the line that says where,
    or why it was not written (never "saved" when it was not)."""
    try:
        path = data_place("screenshots") / time.strftime("equilibria-%Y%m%d-%H%M%S.png")
        draw.save_png(screen, path)
    except (BadInput, pygame.error, OSError) as exc:
        return _("Could not save the screenshot: {problem}").format(problem=exc)
    return _("Screenshot saved to {path}").format(path=path)
