"""The play scene's state without pygame: what a scene shows (stage), the play session
and its run (play), pacing, the view and camera, the integrator's choice, the static
answer shown first, hit-testing (shapes), the words for a level's keys (terms) and the
engine's warm-up. No pygame here (a test holds it)."""
