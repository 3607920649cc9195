"""Fixed-timestep pacing: frames of wall time in, whole engine sub-steps out. No pygame.

The engine integrates at a constant step dt, far below a frame (about 1 ms against
16.7 ms at 60 Hz). Each frame owes the simulation `speed × frame time` of simulated
time; the pacer turns that into a whole number of sub-steps, carries the remainder
(less than one step) to the next frame, and caps the count so that the simulation takes
at most `budget` of a 60 Hz frame: what drawing leaves of it (`share_frame`). Time beyond the cap is dropped, not carried (no
spiral of death), and shows as slow motion: `rate`, simulated seconds per wall second,
falls below the speed the player chose.

Headless runs (`fixed=True`) never cap by measured cost, so that they repeat exactly.
"""

from __future__ import annotations

from dataclasses import dataclass

SPEEDS = (1 / 16, 1 / 8, 1 / 4, 1 / 2, 1.0, 2.0, 4.0)  # the player's choices, [ and ]
FRAME = 1 / 60  # [s] the display frame the loop aims for
MAX_STEPS = 200_000  # sub-steps per frame, in any mode
SMOOTH = 0.1  # weight of the newest frame in the running averages
BUDGET = (0.2, 0.75)  # least and most of a frame the simulation may take


@dataclass
class Pacer:
    """dt: the engine step [s]; fixed: headless (no cost-based cap); budget: the share of
    a frame the simulation may use. step_cost [s per sub-step] and rate [-] are running
    averages; owed [s] is the simulated time carried to the next frame."""

    dt: float
    fixed: bool = False
    budget: float = 0.6
    speed_index: int = SPEEDS.index(1.0)
    owed: float = 0.0
    step_cost: float = 0.0
    rate: float = 1.0
    last_steps: int = 0
    limited: bool = False  # the last frame was cut short by the cap
    _warm: bool = False  # the first measurement (a numba compile, perhaps) is skipped

    @property
    def speed(self) -> float:
        """The slow-motion factor the player chose (simulated s per wall s)."""
        return SPEEDS[self.speed_index]

    def slower(self) -> None:
        self.speed_index = max(0, self.speed_index - 1)
        self.restart()

    def faster(self) -> None:
        self.speed_index = min(len(SPEEDS) - 1, self.speed_index + 1)
        self.restart()

    def share_frame(self, draw_seconds: float) -> None:
        """Let the simulation take what a frame leaves after drawing (and a margin)."""
        self.budget = min(BUDGET[1], max(BUDGET[0], 0.9 - draw_seconds / FRAME))

    def cap(self) -> int:
        """Most sub-steps this frame may take."""
        if self.fixed or self.step_cost <= 0.0:
            return MAX_STEPS
        return max(1, min(MAX_STEPS, int(self.budget * FRAME / self.step_cost)))

    def steps_for(self, frame_seconds: float) -> int:
        """Sub-steps to run for a frame of `frame_seconds` of wall time."""
        self.owed += self.speed * frame_seconds
        steps = int(self.owed / self.dt + 1e-9)
        cap = self.cap()
        self.limited = steps > cap
        if self.limited:
            steps, self.owed = cap, 0.0  # drop the debt: slow motion, not a spiral
        else:
            self.owed = max(self.owed - steps * self.dt, 0.0)
        return steps

    def record(self, steps: int, wall_seconds: float, frame_seconds: float) -> None:
        """What the frame's sub-steps cost, to cap the next frames and report the rate."""
        self.last_steps = steps
        if steps > 0:
            cost = wall_seconds / steps
            if not self._warm:
                self._warm = True
            elif self.step_cost <= 0.0:
                self.step_cost = cost
            else:
                self.step_cost += SMOOTH * (cost - self.step_cost)
        if frame_seconds > 0.0:
            self.rate += SMOOTH * (steps * self.dt / frame_seconds - self.rate)

    def restart(self) -> None:
        """Forget owed time (after a reset or a pause); keep the speed and the cost."""
        self.owed = 0.0
        self.rate = self.speed
        self.limited = False

    @property
    def slowed(self) -> bool:
        """The model is too heavy for the chosen speed: it runs visibly slower."""
        return self.limited or self.rate < 0.9 * self.speed
