"""The level format, version 1 (docs/level-format.md), whatever the level's kind.

The structure (nodes, supports, members, plates, loads), the world, the goal and what the
player may do, as pydantic models; the primitives (finite numbers, ids, DOFs, histories)
that solution files share. What each kind is and which of these fields it uses is the
registry's (game/rules/kinds.py); `equilibria.course.level` joins the two into the `Level` a level
file is read as. This module imports no other of the game's, so that every other one,
the kinds' rules included, can import it. The model file's words (a member's kinds, a
beam's formulations, the DOFs, a triangle's models, a member load's directions) are the
engine's, read from engine/vocabulary.py, which loads nothing else.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable
from typing import Annotated, Any, Literal, Self, Union

from pydantic import AfterValidator, BaseModel, ConfigDict, Discriminator, Field, PrivateAttr, Tag, create_model, field_validator, model_validator

from equilibria.engine.vocabulary import (  # the model file's words, one home (the engine's)
    BEAM_FORMULATIONS,
    DEFAULT_MEMBER_KIND,
    DEFAULT_TRIANGLE_MODEL,
    DOF_NAMES,
    KIND_NUMBERS,
    LOAD_DIRECTIONS,
    MEMBER_KINDS,
    POISSON_LIMIT,
    RELEASE_ENDS,
    TRIANGLE_MODELS,
)
from equilibria.words.i18n import LANGUAGES, N_, SOURCE, _, decimal, decimal_mark, localized, ngettext, plain, speaking
from equilibria.words.text import cut, named, plain_text, quotes_cut

# strict: a number is a JSON number; the text "0" (or true) is no number, as the file's
# reader sees it (pydantic's lax mode would take "0" for 0 and true for 1)
Finite = Annotated[float, Field(strict=True, allow_inf_nan=False)]
Positive = Annotated[float, Field(strict=True, gt=0, allow_inf_nan=False)]
NonNegative = Annotated[float, Field(strict=True, ge=0, allow_inf_nan=False)]

# Bounds on every number that drives the run's time or memory, or could overflow a product
# of them (docs/level-format.md, "Bounds"). Each is far beyond what a level needs (the
# course's levels in brackets) and far inside what float64 holds, so that no level
# `validate` accepts makes a check overflow, stall or run without end.
MAX_COORD = 1e4  # [m] |x|, |y| of nodes, ground, zone (course: 24 m): a 10 km bridge still fits
MIN_E, MAX_E = 1e3, 1e13  # [Pa] (course: 2.1e10 to 2e11): a soft gel to past diamond (1.2e12)
MAX_DENSITY = 1e6  # [kg/m³] (course: 47,500): 40 times osmium
MAX_STRENGTH = MAX_E  # [Pa] (course: 1.6e9)
MAX_MASS = 1e9  # [kg] a node's extra mass (course: 10,000 kg); also [kg m²] its inertia
MAX_SPEED = 1e3  # [m/s] initial velocities, a moving load's speed (course: 0 and 5 m/s)
MAX_AREA = 1e2  # [m²] a member's A (course: 2e-4 to 0.012): a 10 m square
MAX_I = 1e3  # [m⁴] (course: up to 4.5e-4)
MAX_THICKNESS = 10.0  # [m] a plate's t (course: 0.15 m)
MAX_FORCE = 1e9  # [N] a load's fx, fy, a moving load, player.max_force (course: up to 700 kN); also [N/m] distributed loads
MAX_MOMENT = 1e10  # [N m] a load's m (course: none)
MAX_TIME = 600.0  # [s] a history's times, a moving load's start (course: up to 12 s)
MAX_FACTOR = 1e4  # a history's values: scale factors, settlements [m], ground accelerations [m/s²] (course: up to 1.2)
MAX_GRAVITY = 1e3  # [m/s²] |gravity| (course: 9.81): a hundred g
MAX_HOLD = 60.0  # [s] goal.hold (course: 1 to 3 s): the judge runs the hold in steps of the stable step
MAX_DAMPING = 100.0  # damping ratio (course: 0.02 to 0.05); [1/s] mass_damping
MAX_ELEMENT_DAMPING = 10.0  # [s] stiffness-proportional β (course: none), which shrinks the explicit step
MAX_MU = 10.0  # friction coefficient (course: up to 0.3)
MAX_CHOICES = 100  # player.load_choices (course: up to 4): validate builds the model once for each
MAX_TEXT = 20_000  # characters of a brief, a hint, an explanation in each language (course: up to 941), laid out on the screen each time shown


def bounded(low: float | None, high: float, *, above: float | None = None) -> Any:
    """A finite float within [low, high] (or above `above`, exclusive)."""
    if above is not None:
        return Annotated[float, Field(strict=True, gt=above, le=high, allow_inf_nan=False)]
    return Annotated[float, Field(strict=True, ge=low, le=high, allow_inf_nan=False)]


Coord = bounded(-MAX_COORD, MAX_COORD)
Force = bounded(-MAX_FORCE, MAX_FORCE)
Moment = bounded(-MAX_MOMENT, MAX_MOMENT)
# A solution's forces and moments: a thousand times a level's, since an answer's reactions
# exceed the loads by the ratio of their lever arms (game/rules/answer.py writes them as moves).
MAX_ANSWER = 1e3
AnswerForce = bounded(-MAX_ANSWER * MAX_FORCE, MAX_ANSWER * MAX_FORCE)
AnswerMoment = bounded(-MAX_ANSWER * MAX_MOMENT, MAX_ANSWER * MAX_MOMENT)
Text = Annotated[str, AfterValidator(plain_text)]

# A text the student reads, in one language or several (docs/level-format.md, "Languages"):
# a plain string is English; {"en": "…", "de": "…"} gives it per language, English required.
# The level gives it in the language of the moment through its own accessors (`BaseLevel.title`
# and the like, i18n.localized); the file's form is kept in the field of the same name and an
# underscore (`title_`), which a drawn version fills language by language (`each_language`).
Language = Literal[tuple(LANGUAGES)]
LevelText = str | dict[str, str]  # a text as the file writes it
TEXTS_HELP = 'a text, or one per language: {"en": "…", "de": "…"} (English required)'
TEXT_FORMS = ("one text", "by language")  # the two forms' tags, which a field's path leaves out
TEXT_FORM_ERROR = N_('a text, or a text per language such as {"en": "…", "de": "…"}')


def _english_given(texts: dict[str, str]) -> dict[str, str]:
    if SOURCE not in texts:
        raise ValueError(_('the English text ("en") is required; the other languages are optional'))
    return texts


def _text_form(value: Any) -> str | None:
    return TEXT_FORMS[0] if isinstance(value, str) else TEXT_FORMS[1] if isinstance(value, dict) else None


def localized_text(max_length: int, min_length: int = 0) -> Any:
    """A level's text: one string (English), or one per language of `LANGUAGES` with
    English among them; each language's text within the bounds."""
    one = Annotated[Text, Field(min_length=min_length, max_length=max_length)]
    by_language = Annotated[dict[Language, one], AfterValidator(_english_given), Field(min_length=1, json_schema_extra={"required": [SOURCE]})]
    return Annotated[
        Union[Annotated[one, Tag(TEXT_FORMS[0])], Annotated[by_language, Tag(TEXT_FORMS[1])]],  # noqa: UP007 - Tag needs the members annotated
        Discriminator(_text_form, custom_error_type="level_text", custom_error_message=TEXT_FORM_ERROR),
    ]


def each_language(text: LevelText, change: Callable[[str], str]) -> LevelText:
    """`text` (as the file writes it) with `change` applied to each language's text, in
    that language (i18n.speaking: a line `change` adds and the numbers it writes read as
    that language writes them; a plain text is English)."""
    if isinstance(text, str):
        with speaking(SOURCE):
            return change(text)
    changed = {}
    for code, t in text.items():
        with speaking(code):
            changed[code] = change(t)
    return changed


def raw_text(value: Any) -> str:
    """A text of a level file not yet validated (a title in a list of files), in the current
    language and without control characters; "" where it is no text."""
    if isinstance(value, dict):
        value = localized({code: t for code, t in value.items() if isinstance(t, str)})
    return plain_text(value) if isinstance(value, str) else ""


def text_versions(field: str, text: LevelText | None) -> list[tuple[str, str]]:
    """("field", text) for a plain text, ("field.de", text) for each language of one given
    per language: where each text the file holds is."""
    if not text:
        return []
    return [(field, text)] if isinstance(text, str) else [(f"{field}.{code}", t) for code, t in text.items()]


def _g(x: float) -> str:
    """A number of a refusal, as short as it goes, with the language's decimal mark, never an exponent."""
    return plain(x)


def _no_controls(value: str) -> str:
    if plain_text(value) != value or "\n" in value:
        raise ValueError(_("an id holds no control characters (escapes, tabs, newlines), not {id}").format(id=named(value)))
    return value


Id = Annotated[str, AfterValidator(_no_controls), Field(min_length=1, max_length=64)]
LEVEL_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")


def fresh_id(prefix: str, taken: set[str]) -> str:
    """`prefix`1, `prefix`2, …: the first id not among `taken` (a node the player adds, N1; a cut joint's stub end, A1)."""
    k = 1
    while f"{prefix}{k}" in taken:
        k += 1
    return f"{prefix}{k}"


def _level_id(value: str) -> str:
    if not LEVEL_ID.fullmatch(value):
        raise ValueError(
            _("a level id is up to 64 letters, digits, - and _, starting with a letter or digit (it names the level's file), not {id}").format(id=named(value))
        )
    return value


LevelId = Annotated[str, AfterValidator(_level_id), Field(description="letters, digits, - and _: the level's file is levels/<id>.json")]
COURSE_CODE = re.compile(r"[A-Z2-7]{5}(-[A-Z2-7]{5}){3}")  # a course's code (game/course/homework.py): 100 bits in base32, four groups of five


def _course_code(value: str) -> str:
    if not COURSE_CODE.fullmatch(value):
        raise ValueError(_("a course code has the form ABCDE-FGHIJ-KLMNO-PQRST (capitals and the digits 2 to 7)"))
    return value


CourseCode = Annotated[str, AfterValidator(_course_code), Field(description="a course's code, as its course file gives it: ABCDE-FGHIJ-KLMNO-PQRST")]
Dof = Literal[DOF_NAMES]
History = Annotated[
    list[tuple[bounded(-MAX_TIME, MAX_TIME), bounded(-MAX_FACTOR, MAX_FACTOR)]],
    Field(min_length=1, max_length=10_000, description="piecewise-linear [[time s, value], ...], times increasing; held at the ends"),
]


class _Strict(BaseModel):
    # serialize_by_alias: a field whose name is not the file's key (`title_` holds "title") is
    # dumped under the file's key, so that a dumped level reads back as a level
    model_config = ConfigDict(extra="forbid", serialize_by_alias=True)


def _increasing(points: list[tuple[float, float]] | None) -> list[tuple[float, float]] | None:
    if points is not None and any(b[0] <= a[0] for a, b in itertools.pairwise(points)):
        raise ValueError(_("times must increase"))
    return points


class Material(_Strict):
    E: bounded(MIN_E, MAX_E) = Field(description="Young's modulus [Pa]")
    density: bounded(0.0, MAX_DENSITY) = Field(0.0, description="[kg/m³]")
    nu: Annotated[float, Field(strict=True, ge=0, lt=POISSON_LIMIT)] = Field(0.3, description="Poisson's ratio")
    strength: bounded(None, MAX_STRENGTH, above=0.0) | None = Field(None, description="yield strength [Pa]")


class Node(_Strict):
    id: Id
    x: Coord = Field(description="[m]")
    y: Coord = Field(description="[m], y up")
    mass: bounded(0.0, MAX_MASS) = Field(0.0, description="extra lumped mass [kg]")
    inertia: bounded(0.0, MAX_MASS) = Field(0.0, description="extra rotational inertia [kg m²]")
    vx: bounded(-MAX_SPEED, MAX_SPEED) = Field(0.0, description="initial velocity [m/s] (a free vibration needs no load pulse)")
    vy: bounded(-MAX_SPEED, MAX_SPEED) = Field(0.0, description="initial velocity [m/s], y up")
    vrot: bounded(-MAX_SPEED, MAX_SPEED) = Field(0.0, description="initial angular velocity [rad/s], counter-clockwise; only where a beam meets the node")


class Contact(_Strict):
    normal: tuple[Finite, Finite] = Field(description="[nx, ny]: out of the surface, toward the body (need not be unit length)")
    mu: bounded(0.0, MAX_MU) = Field(description="friction coefficient, static and kinetic (0: smooth)")

    @field_validator("normal")
    @classmethod
    def _not_zero(cls, normal):
        if normal[0] == 0 and normal[1] == 0:
            raise ValueError(_("must not be [0, 0]"))
        return normal


class Roller(_Strict):
    angle: bounded(-360.0, 360.0) = Field(
        description="the line the node rolls along: its angle from the x axis [degrees], counter-clockwise (0: level ground, 30: a slope rising to the right)"
    )


SupportKey = tuple  # ("x", "y") a support by its sorted fixed DOFs, or ("roller", angle)


def support_key(support: Any) -> SupportKey:
    """One key per kind of support, whatever holds it: a support of a level file (a
    dict), a support the player is offered (`player.supports`: DOFs, or a Roller)."""
    if isinstance(support, Roller):
        return ("roller", float(support.angle))
    if isinstance(support, tuple) and support[:1] == ("roller",):
        return support  # a key already
    if isinstance(support, dict):
        return ("roller", float(support["roller"]["angle"])) if "roller" in support else tuple(sorted(support.get("fix", [])))
    return tuple(sorted(support))


def support_fields(key: SupportKey) -> dict[str, Any]:
    """What a support of that key says in a level file (all but its node)."""
    return {"fix": [], "roller": {"angle": key[1]}} if key[:1] == ("roller",) else {"fix": list(key)}


def support_words(key: SupportKey) -> str:
    """A support's name, for a student: pin, roller, wall roller, fixed, roller on a 30° slope."""
    if key[:1] == ("roller",):
        return _("roller on a {angle}° slope").format(angle=f"{key[1]:g}".replace(".", decimal_mark()).replace("-", "−"))
    words = {("x", "y"): N_("pin"), ("y",): N_("roller"), ("x",): N_("wall roller"), ("rot", "x", "y"): N_("fixed")}.get(tuple(sorted(key)))
    return _(words) if words else "+".join(key)


class Support(_Strict):
    node: Id
    fix: list[Dof] = Field([], description='locked DOFs: any of "x", "y", "rot"')
    motion: dict[Dof, History] | None = Field(None, description="imposed displacement of a fixed DOF over time [m or rad] (settlement)")
    contact: Contact | None = Field(None, description="the node rests on a surface through its starting point: pushed, never pulled, with friction up to mu N")
    roller: Roller | None = Field(
        None, description="a roller on a line at any angle: the node is held across the line, free along it, pushed or pulled along its normal"
    )

    @model_validator(mode="after")
    def _holds_something(self) -> Self:
        if not self.fix and self.contact is None and self.roller is None:
            raise ValueError(_('a support fixes some of "x", "y", "rot", or is a contact or a roller'))
        if self.contact is not None and {"x", "y"} & set(self.fix):
            raise ValueError(_('a contact support cannot also fix "x" or "y"'))
        if self.roller is not None and ({"x", "y"} & set(self.fix) or self.contact is not None):
            raise ValueError(_('a roller support cannot also fix "x" or "y" or be a contact'))
        return self

    @field_validator("motion")
    @classmethod
    def _motion_times(cls, motion):
        for points in (motion or {}).values():
            _increasing(points)
        return motion


BeamFormulation = Literal[BEAM_FORMULATIONS]
FORMULATION_HELP = (
    "beams only: 'arcade', the beam-column of Martini's Arcade, whose bending stiffness ignores the axial force "
    "(the default for a level's own members), or 'stability', with stability functions, which buckles "
    "at Euler's load with one element per member (the default for members the player builds)"
)
BUILT_BEAM = "stability"  # the formulation of a beam the player builds, unless the section names one


def pinned_fields(fields: dict[str, Any], ends: list[str] | None) -> dict[str, Any]:
    """A member's level-file fields (all but id, i, j) with the ends `ends` ("i", "j")
    pinned to their nodes, `release` (none: left out)."""
    out = {k: v for k, v in fields.items() if k != "release"}
    if ends:
        out["release"] = sorted(set(ends))
    return out


class Member(_Strict):
    id: Id
    i: Id
    j: Id
    kind: Literal[MEMBER_KINDS] = DEFAULT_MEMBER_KIND
    material: Id
    A: bounded(None, MAX_AREA, above=0.0) = Field(description="cross-section area [m²]")
    I: bounded(0.0, MAX_I) | None = Field(
        None, description="second moment of area [m⁴]; beams need it (more than 0), and a bar's buckling check where members break; 0 where nothing uses it"
    )
    formulation: BeamFormulation | None = Field(None, description=FORMULATION_HELP)
    release: list[Literal[RELEASE_ENDS]] | None = Field(
        None,
        description='beams only: the ends pinned to their node (a hinge: no moment passes), any of "i" and "j"',
    )


def member_model(numbers: dict[str, tuple[tuple[str, ...], float, str]]) -> type[Member]:
    """The member entry with each kind's own numbers (engine/vocabulary.py KIND_NUMBERS):
    {field: (the kinds that carry it, its largest value, what it is)}, each an optional
    number above 0, refused on a member of any other kind."""
    if not numbers:
        return _MEMBER

    def _own_numbers(member):
        for name, (kinds, _most, _what) in numbers.items():
            if getattr(member, name) is not None and member.kind not in kinds:
                raise ValueError(_("{field}: only a {kinds} member carries it").format(field=name, kinds=" or ".join(kinds)))
        return member

    fields = {name: (bounded(None, most, above=0.0) | None, Field(None, description=what)) for name, (_kinds, most, what) in numbers.items()}
    return create_model("Member", __base__=_MEMBER, __validators__={"_own_numbers": model_validator(mode="after")(_own_numbers)}, **fields)


_MEMBER = Member  # the entry every kind has; member_model adds the kinds' own numbers
Member = member_model(KIND_NUMBERS)


class Triangle(_Strict):
    id: Id
    nodes: tuple[Id, Id, Id]
    material: Id
    t: bounded(None, MAX_THICKNESS, above=0.0) = Field(description="thickness [m]")
    model: Literal[TRIANGLE_MODELS] = DEFAULT_TRIANGLE_MODEL


class Load(_Strict):
    node: Id
    fx: Force = Field(0.0, description="[N]")
    fy: Force = Field(0.0, description="[N]")
    m: Moment = Field(0.0, description="moment [N m], counter-clockwise")
    history: History | None = Field(None, description="scale factor over time; absent: constant")

    @field_validator("history")
    @classmethod
    def _history_times(cls, history):
        return _increasing(history)


class MemberLoad(_Strict):
    """A distributed load on a member (engine/member_loads.py): uniform `w`, or linear
    from `wi` at end i to `wj` at end j [N/m], per metre of the member."""

    member: Id
    w: Force | None = Field(None, description="uniform load [N/m] (give w, or wi and wj)")
    wi: Force | None = Field(None, description="linear load: its value at end i [N/m]")
    wj: Force | None = Field(None, description="linear load: its value at end j [N/m]")
    direction: Literal[LOAD_DIRECTIONS] = Field(
        LOAD_DIRECTIONS[0], description="global y (up, the default) or x, or the member's normal (i to j turned 90° ccw)"
    )
    history: History | None = Field(None, description="scale factor over time; absent: constant")

    @field_validator("history")
    @classmethod
    def _history_times(cls, history):
        return _increasing(history)

    def ends(self) -> tuple[float, float]:
        """(w at end i, w at end j) [N/m]."""
        return (self.w, self.w) if self.w is not None else (self.wi or 0.0, self.wj or 0.0)


class GroundMotion(_Strict):
    ax: History | None = Field(None, description="ground acceleration [m/s²] over time")
    ay: History | None = None

    @field_validator("ax", "ay")
    @classmethod
    def _history_times(cls, history):
        return _increasing(history)


class World(_Strict):
    gravity: bounded(-MAX_GRAVITY, MAX_GRAVITY) = Field(9.81, description="[m/s²]")
    damping: bounded(0.0, MAX_DAMPING) = Field(0.05, description="damping ratio of the lowest elastic mode")
    mass_damping: bounded(0.0, MAX_DAMPING) | None = Field(None, description="mass-proportional damping α [1/s], instead of damping")
    element_damping: bounded(0.0, MAX_ELEMENT_DAMPING) = Field(0.0, description="stiffness-proportional damping β [s]")
    ground: list[tuple[Coord, Coord]] | None = Field(None, min_length=2, max_length=10_000, description="ground polyline [[x, y], ...] [m]")
    ground_motion: GroundMotion | None = None
    breakable: bool = Field(False, description="members break past their strength or buckling load")


class MovingLoad(_Strict):
    """A point load that travels along a path of nodes (a vehicle crossing a bridge)."""

    path: list[Id] = Field(min_length=2, max_length=10_000, description="node ids in the order the load visits them")
    fx: Force = Field(0.0, description="[N]")
    fy: Force = Field(0.0, description="[N]")
    speed: bounded(1e-2, MAX_SPEED) = Field(description="[m/s] along the path")
    start: bounded(None, MAX_TIME, above=0.0) = Field(1.0, description="time the load reaches the first node [s]; it ramps on over the last 0.5 s before")

    def loads(self, where: dict[str, tuple[float, float]]) -> list[dict]:
        """The moving load as nodal loads with piecewise-linear histories: between two
        path nodes it is shared in proportion to the distance covered (a hat function of
        time per node), which is exact for a load rolling along a straight member."""
        s = [0.0]
        for a, b in itertools.pairwise(self.path):
            s.append(s[-1] + math.dist(where[a], where[b]))
        t = [self.start + d / self.speed for d in s]
        ramp = min(0.5, self.start)
        out = []
        for k, node in enumerate(self.path):
            before = t[k - 1] if k else t[0] - ramp
            after = t[k + 1] if k + 1 < len(t) else t[-1] + ramp
            out.append({"node": node, "fx": self.fx, "fy": self.fy, "history": [[before, 0.0], [t[k], 1.0], [after, 0.0]]})
        return out


class Goal(_Strict):
    hold: bounded(None, MAX_HOLD, above=0.0) = Field(3.0, description="time the body must stay at rest [s]")
    max_displacement: bounded(None, MAX_COORD, above=0.0) | None = Field(None, description="largest node displacement allowed [m]")
    moving_load: MovingLoad | None = Field(None, description="a load that crosses the structure before the hold begins")
    tolerance: Annotated[float, Field(strict=True, gt=0, le=0.2)] | None = Field(
        None,
        description="balance, free_body: how far from balance still counts as balanced, a fraction of the largest given load, for ΣFx,"
        " ΣFy and (times the largest distance from the moment point to the body) ΣM (default 0.02)",
    )
    moment_about: Id | None = Field(
        None,
        description="balance, free_body: the node moments are taken about in the verdict and on the screen"
        " (default: the first cut's node, else the first support's, else the first load's)",
    )


class Cut(_Strict):
    """Where a free body was cut from what held it (free_body levels). The student's force,
    and moment where the cut carries one, replace the cut at its node."""

    node: Id = Field(description="the body's node at the cut, where the force replacing it acts")
    what: Literal["support", "bar", "beam", "pin"] = Field(
        description="what was cut: a support removed, a bar (two-force member) cut, a beam cut, or a pin of a frame taken apart"
    )
    carries: list[Dof] | None = Field(
        None,
        description='what the cut transmits: "x", "y" (force components), "rot" (a moment). A support: the DOFs it fixed (required);'
        " a pin: x, y (the default); a beam: x, y, rot (the default); a bar: not given (its force lies along `member`)",
    )
    member: Id | None = Field(
        None,
        description="a bar: the body's member ending at `node`, along which the cut bar's force lies; a beam: the beam cut;"
        " a pin with `along`: the two-force member taken away (its name)",
    )
    along: tuple[Finite, Finite] | None = Field(
        None,
        description="[dx, dy] a line the cut's force lies along: a roller on an incline (the normal to its surface), or a pin that joined a"
        ' two-force member taken away (that member\'s line), pointing from what was taken away toward the body; give carries ["x", "y"] with it',
    )


class Section(_Strict):
    """A member the player may build: its kind, material and cross-section, and price; the
    name a student reads (its key in `player.sections` where it has none)."""

    name: localized_text(40, min_length=1) | None = Field(None, description=f"what the student reads for this section (default: its key); {TEXTS_HELP}")
    kind: Literal[MEMBER_KINDS] = DEFAULT_MEMBER_KIND
    material: Id
    A: bounded(None, MAX_AREA, above=0.0) = Field(description="cross-section area [m²]")
    I: bounded(None, MAX_I, above=0.0) | None = Field(None, description="second moment of area [m⁴]; beams need it, and a bar's buckling load uses it")
    formulation: BeamFormulation | None = Field(None, description=FORMULATION_HELP)
    cost: NonNegative = Field(0.0, description="price per metre of member")

    def member_fields(self) -> dict[str, Any]:
        """What a member built of this section says in a level file (all but id, i, j):
        a beam the player builds has stability functions unless the section says
        otherwise, so that its buckling is Euler's (engine/elements/beam_stability.py)."""
        fields = self.model_dump(exclude={"cost", "name"}, exclude_none=True)
        if self.kind == "beam":
            fields.setdefault("formulation", BUILT_BEAM)
        return fields

    def shown(self, key: str) -> str:
        """The section's name as the student reads it, in their language (`key`, the
        level file's own name for it, where the level gives no name)."""
        return localized(self.name) if self.name else key


class Player(_Strict):
    """What the student may do. Each field belongs to the kinds named in its description;
    a field set on a level of another kind is an error."""

    forces: Annotated[int, Field(ge=1, le=10)] | None = Field(
        None, description="balance, free_body: how many forces the player adds (default: balance 2, free_body one per cut)"
    )
    moments: Annotated[int, Field(ge=0, le=10)] | None = Field(
        None, description="free_body: how many moments the player adds (default: one per cut that carries a moment)"
    )
    max_force: bounded(None, MAX_FORCE, above=0.0) | None = Field(None, description="balance: the largest force allowed [N]")
    nodes: list[Id] | None = Field(
        None,
        description="balance: nodes where forces may act; free_body: the cuts' nodes where they may (default: all cuts);"
        " build, stability: nodes where supports may go (absent: any)",
    )
    asked: list[Id] | None = Field(
        None, min_length=1, max_length=3, description="section: the members whose forces are asked; the student's section must cut each"
    )
    mode: Literal["mark", "remove"] | None = Field(None, description="zero_force: mark the zero-force members, or remove all the truss can spare")
    load_choices: list[Annotated[list[Load], Field(max_length=50_000)]] | None = Field(
        None, max_length=MAX_CHOICES, description="zero_force: sets of loads drawn from at random, one per attempt"
    )
    zone: list[tuple[Coord, Coord]] | None = Field(
        None, min_length=3, max_length=1000, description="build: polygon [[x, y], ...] [m] the player's new nodes must lie in"
    )
    sections: dict[Id, Section] | None = Field(None, max_length=100, description="build, stability, sandbox: the members the player may build, by name")
    budget: Positive | None = Field(None, description="build, stability: the most the player's additions may cost")
    node_cost: NonNegative | None = Field(None, description="build: price of each new node")
    supports: list[list[Dof] | Roller] | None = Field(
        None, description='build, stability: the supports the player may add, e.g. [["x", "y"], ["y"], {"angle": 30}] (a roller on a 30° slope)'
    )
    support_cost: NonNegative | None = Field(None, description="build, stability: price of each new support")
    fixed_support_cost: NonNegative | None = Field(
        None, description="build, stability: price of each new support that also fixes the rotation (a fixed base; default: support_cost)"
    )
    max_members: Annotated[int, Field(ge=0)] | None = Field(None, description="build, stability: most members the player may add")
    max_supports: Annotated[int, Field(ge=0)] | None = Field(None, description="build, stability: most supports the player may add")
    max_length: bounded(None, 2 * MAX_COORD, above=0.0) | None = Field(None, description="build: the longest member allowed [m]")


# Units a drawn number may be shown in: the factor from the SI value the level holds.
UNITS: dict[str, float] = {
    "": 1.0, "N": 1.0, "kN": 1e3, "N·m": 1.0, "kN·m": 1e3, "N/m": 1.0, "kN/m": 1e3,
    "m": 1.0, "cm": 1e-2, "mm": 1e-3, "kg": 1.0, "°": 1.0,
}  # fmt: skip
Unit = Literal[tuple(UNITS)]
NumberName = Annotated[str, Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]{0,31}$", description="a name the texts use as {name}")]
MAX_STEPS = 10_000  # values a drawn number may take


class Number(_Strict):
    """A number drawn for each student from min, min + step, …, max (game/rules/variants.py)."""

    min: Finite = Field(description="the least value, in the level's SI units (N, m, N m, N/m)")
    max: Finite = Field(description="the greatest value; max − min a whole number of steps")
    step: Positive = Field(description="the values go up by this much, so that texts show clean numbers")
    unit: Unit = Field("", description="how texts show it: the SI value divided by the unit's size (8000 N shown in kN is '8 kN')")
    default: Finite | None = Field(None, description="the level's own value, for a player who gave no student id (absent: the step nearest the middle)")
    words_: localized_text(60) | None = Field(
        None, alias="words", description="what it is, for the student's list of their numbers ('the load at C'); absent: its name"
    )

    @property
    def words(self) -> str:
        """What the number is, in the current language ("" where the level gives no words)."""
        return localized(self.words_)

    @model_validator(mode="after")
    def _a_range_of_steps(self) -> Self:
        if self.max < self.min:
            raise ValueError(_("max ({max}) is less than min ({min})").format(max=_g(self.max), min=_g(self.min)))
        count = (self.max - self.min) / self.step
        if abs(count - round(count)) > 1e-6 * max(1.0, count):
            raise ValueError(_("max − min ({span}) is not a whole number of steps of {step}").format(span=_g(self.max - self.min), step=_g(self.step)))
        if round(count) + 1 > MAX_STEPS:
            raise ValueError(_("{count} values from min to max; at most {most}").format(count=decimal(round(count) + 1, 0), most=decimal(MAX_STEPS, 0)))
        if self.default is not None:
            k = (self.default - self.min) / self.step
            if not (self.min <= self.default <= self.max) or abs(k - round(k)) > 1e-6 * max(1.0, k):
                raise ValueError(_("default {default} is not one of min, min + step, …, max").format(default=_g(self.default)))
        return self


class Derived(_Strict):
    """A number worked out from the drawn ones, for the texts ('the resultant w·L')."""

    value: Annotated[str, Field(min_length=1, max_length=200)] = Field(
        description="an expression of the numbers (and derived numbers before it): + − × / ^, parentheses, sqrt(), abs(), hypot(a, b)"
    )
    unit: Unit = Field("", description="how texts show it")


class Vary(_Strict):
    """Numbers of its own for every student (docs/level-format.md, "Numbers of their own")."""

    numbers: dict[NumberName, Number] = Field(min_length=1, max_length=20, description="the numbers drawn for each student, by name")
    derived: dict[NumberName, Derived] = Field(default_factory=dict, max_length=20, description="numbers the texts show, worked out from those drawn")
    set: dict[Annotated[str, Field(min_length=1, max_length=200)], Annotated[str, Field(min_length=1, max_length=200)]] = Field(
        default_factory=dict,
        max_length=200,
        description='field → expression: each field of the level set from the numbers, e.g. {"loads[0].fy": "-P", "nodes.B.x": "L"};'
        " the file holds what the default numbers give",
    )
    follows: LevelId | None = Field(
        None,
        description="a chain's first level: this level's numbers are drawn as that level's are, so a number of the same name and range"
        " takes the same value for the same student (truss-02 follows truss-01)",
    )


class BaseLevel(_Strict):
    """A level as the format defines it, whatever its kind: the structure, the world,
    the goal and what the player may do. `equilibria.course.level.Level` narrows `kind` to the kinds
    the registry lists and checks the kind's own fields."""

    schema_: str | None = Field(None, alias="$schema", exclude=True, description="where an editor finds the schema (levels/level.schema.json); ignored")
    format: Literal[1] = Field(description="level format version")
    id: LevelId
    title_: localized_text(120, min_length=1) = Field(alias="title", description=f"the level's name; {TEXTS_HELP}")
    kind: str = Field(description="what is asked: one of the kinds in game/rules/kinds.py")
    brief_: localized_text(MAX_TEXT) = Field("", alias="brief", description=f"shown before the level starts; {TEXTS_HELP}")
    hints_: list[localized_text(MAX_TEXT)] = Field(default_factory=list, alias="hints", max_length=50, description=f"shown one by one; {TEXTS_HELP}")
    explanation_: localized_text(MAX_TEXT) = Field("", alias="explanation", description=f"shown after the level is won; {TEXTS_HELP}")
    world: World = Field(default_factory=World)
    materials: dict[Id, Material] = Field(default_factory=dict)
    nodes: list[Node] = Field(min_length=1, max_length=50_000)
    supports: list[Support] = Field(default_factory=list, max_length=50_000)
    members: list[Member] = Field(default_factory=list, max_length=100_000)
    triangles: list[Triangle] = Field(default_factory=list, max_length=100_000)
    loads: list[Load] = Field(default_factory=list, max_length=50_000)
    member_loads: list[MemberLoad] = Field(default_factory=list, max_length=50_000, description="distributed loads on members [N/m]")
    goal: Goal | None = None
    player: Player = Field(default_factory=Player, description="what the student may do in this kind of level")
    cut: list[Cut] | None = Field(None, max_length=1000, description="free_body: where the body was cut from what held it")
    vary: Vary | None = Field(None, description="numbers of its own for every student, drawn from ranges by the student id; texts use them as {name}")

    # A level drawn for one student (game/rules/variants.py `version`): the level as written
    # (its template), the student and the numbers drawn. Unset on a level as written.
    _template: BaseLevel | None = PrivateAttr(None)
    _student: str | None = PrivateAttr(None)
    _course: str | None = PrivateAttr(None)  # the course code the numbers were drawn with (game/course/homework.py)
    _numbers: dict[str, float] = PrivateAttr(default_factory=dict)

    @property
    def title(self) -> str:
        """The level's name in the current language (docs/level-format.md, "Languages")."""
        return localized(self.title_)

    @property
    def brief(self) -> str:
        """The brief in the current language."""
        return localized(self.brief_)

    @property
    def hints(self) -> list[str]:
        """The hints in the current language."""
        return [localized(h) for h in self.hints_]

    @property
    def explanation(self) -> str:
        """The explanation in the current language."""
        return localized(self.explanation_)

    def texts(self) -> list[tuple[str, LevelText]]:
        """The level's texts a student reads as the file writes them, by field ("hints[1]")."""
        texts: list[tuple[str, LevelText]] = [("title", self.title_), ("brief", self.brief_)]
        texts += [(f"hints[{k}]", h) for k, h in enumerate(self.hints_)] + [("explanation", self.explanation_)]
        numbers = self.vary.numbers.items() if self.vary else ()
        texts += [(f"vary.numbers.{name}.words", n.words_) for name, n in numbers if n.words_]
        sections = (self.player.sections or {}).items() if self.player else ()
        return texts + [(f"player.sections.{key}.name", s.name) for key, s in sections if s.name]

    @property
    def student(self) -> str | None:
        """The student whose numbers this level holds (None: the level's own numbers)."""
        return self._student

    @property
    def course(self) -> str | None:
        """The course code this level's numbers were drawn with (None: no course)."""
        return self._course

    @property
    def numbers(self) -> dict[str, float]:
        """The numbers this version of the level was drawn with ({}: it draws none)."""
        return dict(self._numbers)

    def model_data(self) -> dict:
        """The engine's model: this level without goal, player, cut and vary; a moving load
        in the goal becomes nodal loads with histories."""
        data = self.model_dump(mode="json", exclude={"goal", "player", "cut", "vary"}, exclude_none=True)
        if self.goal and self.goal.moving_load:
            where = {n.id: (n.x, n.y) for n in self.nodes}
            data["loads"] = data.get("loads", []) + self.goal.moving_load.loads(where)
        return data

    def load_choices(self) -> list[list[Load]]:
        """`player.load_choices`: sets of loads a level draws from at random, so that the
        answer changes between attempts (empty: the level's own loads, always)."""
        return self.player.load_choices or []

    def drawn(self, draw: int | None) -> Self:
        """This level with its loads replaced by load choice `draw` (None: as it is).
        ValueError when the level has choices and no valid draw is given."""
        choices = self.load_choices()
        if not choices:
            if draw is not None:
                raise ValueError("draw: " + _("level {id} does not draw its loads").format(id=named(self.id)))
            return self
        if draw is None or not 0 <= draw < len(choices):
            raise ValueError("draw: " + _("level {id} draws its loads; give a draw from 0 to {last}").format(id=named(self.id), last=len(choices) - 1))
        return self.model_copy(update={"loads": choices[draw]})


def field_path(loc: tuple) -> str:
    """('members', 3, 'i') → 'members[3].i'."""
    out = ""
    for part in loc:
        if part in TEXT_FORMS or part == "[key]":  # a level text's form, a mapping's key: not a part of the file's path
            continue
        out += f"[{part}]" if isinstance(part, int) else (f".{cut(str(part))}" if out else cut(str(part)))  # an unknown key may be 9 MB
    return out or _("(top level)")


def error_said(error: dict) -> str:
    """What is wrong, as one of pydantic's errors (`ValidationError.errors()`) tells it, in
    the reader's language: our own validators' messages are translated where raised;
    pydantic's own are said again by their type (`_SAID`), a large bound (told in
    docs/level-format.md) written as a reader takes it in: 10,000,000,000,000, not
    10000000000000. A type not listed keeps pydantic's English (an unknown field: the
    caller says which name was meant, game/words/suggest.py)."""
    kind, ctx = error["type"], error.get("ctx") or {}
    if kind == "value_error":
        return quotes_cut(error["msg"].removeprefix("Value error, "))  # a validator's words quote what it refuses
    if kind == "level_text":
        return _(TEXT_FORM_ERROR)
    if kind in ("too_short", "too_long", "string_too_short", "string_too_long"):
        limit = ctx.get("min_length", ctx.get("max_length", 0))
        text = isinstance(error.get("input"), str)
        if kind.endswith("short") and text:
            said = ngettext("at least {limit} character", "at least {limit} characters", limit)
        elif kind.endswith("short"):
            said = ngettext("at least {limit} item", "at least {limit} items", limit)
        elif text:
            said = ngettext("at most {limit} character", "at most {limit} characters", limit)
        else:
            said = ngettext("at most {limit} item", "at most {limit} items", limit)
        return said.format(limit=decimal(limit, 0))
    said = _SAID.get(kind)
    if said is None:
        return quotes_cut(error["msg"])  # pydantic's words quote what they refuse: "Input tag '…' found"
    bound = next((ctx[k] for k in ("gt", "ge", "lt", "le") if k in ctx), None)
    expected = ", ".join(re.split(r", | or ", str(ctx.get("expected", ""))))  # pydantic's "'en' or 'de'": its "or" is English
    return _(said).format(bound=_bound(bound) if bound is not None else "", expected=expected, pattern=ctx.get("pattern", ""))


def _bound(bound: float) -> str:
    if isinstance(bound, int | float) and abs(bound) >= 1e4 and bound == int(bound):
        return decimal(bound, 0)
    return plain(bound)


# pydantic's errors, said in our words and translated (N_: marked here, translated where said)
_SAID = {
    "missing": N_("required, and missing"),
    "greater_than": N_("must be more than {bound}"),
    "greater_than_equal": N_("must be at least {bound}"),
    "less_than": N_("must be less than {bound}"),
    "less_than_equal": N_("must be at most {bound}"),
    "literal_error": N_("must be one of: {expected}"),
    "float_type": N_("must be a number"),
    "float_parsing": N_("must be a number"),
    "finite_number": N_("must be a finite number"),
    "int_type": N_("must be a whole number"),
    "int_parsing": N_("must be a whole number"),
    "int_from_float": N_("must be a whole number"),
    "bool_type": N_("must be true or false"),
    "bool_parsing": N_("must be true or false"),
    "string_type": N_("must be a text in quotes"),
    "string_pattern_mismatch": N_("must have the form {pattern}"),
    "dict_type": N_("must be an object {{…}}"),
    "model_type": N_("must be an object {{…}}"),
    "model_attributes_type": N_("must be an object {{…}}"),
    "list_type": N_("must be a list […]"),
    "tuple_type": N_("must be a list […]"),
}
