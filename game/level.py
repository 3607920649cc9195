"""The level format, version 1 (DESIGN.md), defined once.

The pydantic models below are the single definition: they validate level files, and
`levels/level.schema.json` is generated from them (`python -m game.level --write-schema`)
so that level authors get completion and checking in their editors. Unknown fields are
refused (a typo is an error, not a silent default). Sense checks that need the whole
structure (unknown node ids, zero-length members, mechanisms) follow the schema check.

No pygame or pymunk here: `equilibria validate` and `check` run without a display.
"""

from __future__ import annotations

import argparse
import itertools
import json
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, field_validator

SCHEMA_PATH = Path(__file__).resolve().parents[1] / "levels" / "level.schema.json"

Finite = Annotated[float, Field(allow_inf_nan=False)]
Positive = Annotated[float, Field(gt=0, allow_inf_nan=False)]
NonNegative = Annotated[float, Field(ge=0, allow_inf_nan=False)]
Id = Annotated[str, Field(min_length=1, max_length=64)]
Dof = Literal["x", "y", "rot"]
History = Annotated[
    list[tuple[Finite, Finite]],
    Field(min_length=1, max_length=10_000, description="piecewise-linear [[time s, value], ...], times increasing; held at the ends"),
]
KINDS = ("balance", "zero_force", "build", "stability", "sandbox", "demo")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


def _increasing(points: list[tuple[float, float]] | None) -> list[tuple[float, float]] | None:
    if points is not None and any(b[0] <= a[0] for a, b in itertools.pairwise(points)):
        raise ValueError("times must increase")
    return points


class Material(_Strict):
    E: Positive = Field(description="Young's modulus [Pa]")
    density: NonNegative = Field(0.0, description="[kg/m³]")
    nu: Annotated[float, Field(ge=0, lt=0.5)] = Field(0.3, description="Poisson's ratio")
    strength: Positive | None = Field(None, description="yield strength [Pa]")


class Node(_Strict):
    id: Id
    x: Finite = Field(description="[m]")
    y: Finite = Field(description="[m], y up")
    mass: NonNegative = Field(0.0, description="extra lumped mass [kg]")
    inertia: NonNegative = Field(0.0, description="extra rotational inertia [kg m²]")


class Support(_Strict):
    node: Id
    fix: list[Dof] = Field(min_length=1, description='locked DOFs: any of "x", "y", "rot"')
    motion: dict[Dof, History] | None = Field(None, description="imposed displacement of a fixed DOF over time [m or rad] (settlement)")

    @field_validator("motion")
    @classmethod
    def _motion_times(cls, motion):
        for points in (motion or {}).values():
            _increasing(points)
        return motion


class Member(_Strict):
    id: Id
    i: Id
    j: Id
    kind: Literal["bar", "cable", "beam"] = "bar"
    material: Id
    A: Positive = Field(description="cross-section area [m²]")
    I: Positive | None = Field(None, description="second moment of area [m⁴]; beams need it")


class Triangle(_Strict):
    id: Id
    nodes: tuple[Id, Id, Id]
    material: Id
    t: Positive = Field(description="thickness [m]")
    model: Literal["linear", "neo_hookean"] = "linear"


class Load(_Strict):
    node: Id
    fx: Finite = Field(0.0, description="[N]")
    fy: Finite = Field(0.0, description="[N]")
    m: Finite = Field(0.0, description="moment [N m], counter-clockwise")
    history: History | None = Field(None, description="scale factor over time; absent: constant")

    @field_validator("history")
    @classmethod
    def _history_times(cls, history):
        return _increasing(history)


class GroundMotion(_Strict):
    ax: History | None = Field(None, description="ground acceleration [m/s²] over time")
    ay: History | None = None

    @field_validator("ax", "ay")
    @classmethod
    def _history_times(cls, history):
        return _increasing(history)


class World(_Strict):
    gravity: Finite = Field(9.81, description="[m/s²]")
    damping: NonNegative = Field(0.05, description="damping ratio of the lowest elastic mode")
    mass_damping: NonNegative | None = Field(None, description="mass-proportional damping α [1/s], instead of damping")
    element_damping: NonNegative = Field(0.0, description="stiffness-proportional damping β [s]")
    ground: list[tuple[Finite, Finite]] | None = Field(None, min_length=2, description="ground polyline [[x, y], ...] [m]")
    ground_motion: GroundMotion | None = None
    breakable: bool = Field(False, description="members break past their strength or buckling load")


class Goal(_Strict):
    hold: Positive = Field(3.0, description="time the body must stay at rest [s]")
    max_displacement: Positive | None = Field(None, description="largest node displacement allowed [m]")


class Level(_Strict):
    format: Literal[1] = Field(description="level format version")
    id: Id
    title: Annotated[str, Field(min_length=1, max_length=120)]
    kind: Literal["balance", "zero_force", "build", "stability", "sandbox", "demo"]
    brief: str = Field("", description="shown before the level starts")
    hints: list[str] = Field(default_factory=list)
    explanation: str = Field("", description="shown after the level is won")
    world: World = Field(default_factory=World)
    materials: dict[Id, Material] = Field(default_factory=dict)
    nodes: list[Node] = Field(min_length=1, max_length=50_000)
    supports: list[Support] = Field(default_factory=list, max_length=50_000)
    members: list[Member] = Field(default_factory=list, max_length=200_000)
    triangles: list[Triangle] = Field(default_factory=list, max_length=100_000)
    loads: list[Load] = Field(default_factory=list, max_length=50_000)
    goal: Goal | None = None
    player: dict[str, Any] = Field(default_factory=dict, description="what the student may do in this kind of level")

    def model_data(self) -> dict:
        """The engine's model: this level without goal and player."""
        return self.model_dump(exclude={"goal", "player"}, exclude_none=True)

    def load_choices(self) -> list[list[Load]]:
        """`player.load_choices`: sets of loads a level draws from at random, so that the
        answer changes between attempts (empty: the level's own loads, always)."""
        return _LOAD_CHOICES.validate_python(self.player.get("load_choices", []))

    def drawn(self, draw: int | None) -> Level:
        """This level with its loads replaced by load choice `draw` (None: as it is).
        ValueError when the level has choices and no valid draw is given."""
        choices = self.load_choices()
        if not choices:
            if draw is not None:
                raise ValueError(f"draw: level {self.id!r} does not draw its loads")
            return self
        if draw is None or not 0 <= draw < len(choices):
            raise ValueError(f"draw: level {self.id!r} draws its loads; give a draw from 0 to {len(choices) - 1}")
        return self.model_copy(update={"loads": choices[draw]})


_LOAD_CHOICES = TypeAdapter(list[list[Load]])


def field_path(loc: tuple) -> str:
    """('members', 3, 'i') → 'members[3].i'."""
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top level)"


def schema_errors(data: Any) -> list[str]:
    """Schema problems as 'field: what is wrong', one per problem (empty if none)."""
    try:
        Level.model_validate(data)
    except ValidationError as exc:
        return [f"{field_path(e['loc'])}: {e['msg']}" for e in exc.errors(include_url=False)]
    return []


def sense_errors(level: Level) -> list[str]:
    """Problems the schema cannot see: ids that do not resolve, zero lengths or areas,
    supports that leave a structure a mechanism where the level needs it stable."""
    from engine import ModelError, build_model
    from engine.linear import find_mechanism, stiffness

    try:
        choices = level.load_choices()
    except ValidationError as exc:
        return [f"player.load_choices{field_path(e['loc']) if e['loc'] else ''}: {e['msg']}" for e in exc.errors(include_url=False)]
    for draw in [None] if not choices else range(len(choices)):
        try:
            model = build_model(level.drawn(draw).model_data(), statics_only=True)
        except ModelError as exc:
            return [f"player.load_choices[{draw}]: {exc}" if draw is not None and exc.field.startswith("loads") else str(exc)]
    if level.kind == "zero_force":
        free = ~model.arrays.fixed.ravel()
        mechanism = find_mechanism(model, stiffness(model), free)
        if mechanism is not None:
            moving = sorted({model.node_ids[q] for q in range(model.n_nodes) if abs(mechanism.mode[q]).max() > 1e-6})
            return [f"supports: the truss is a mechanism; nodes {', '.join(moving)} can move without deforming it"]
    return []


def load_level(data: Any) -> Level:
    """A validated Level, or ValueError holding every problem, one per line."""
    problems = schema_errors(data)
    if problems:
        raise ValueError("\n".join(problems))
    level = Level.model_validate(data)
    problems = sense_errors(level)
    if problems:
        raise ValueError("\n".join(problems))
    return level


def schema_text() -> str:
    schema = Level.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "Equilibria level, format 1"
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m game.level", description="Level format tools.")
    parser.add_argument("--write-schema", action="store_true", help=f"write {SCHEMA_PATH.name} from the definition")
    if parser.parse_args().write_schema:
        SCHEMA_PATH.write_text(schema_text(), encoding="utf-8")
        print(f"wrote {SCHEMA_PATH}")


if __name__ == "__main__":
    main()
