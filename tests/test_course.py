"""The course index: every shipped level exactly once, in topics, in teaching order,
and the shape of the course the levels issue asks for."""

from equilibria.course.level import load_level
from equilibria.course.syllabus import LEVELS_DIR, level_files, load_course
from equilibria.files.store import read_json


def test_every_shipped_level_is_in_the_course_exactly_once():
    course = load_course()
    ids = course.level_ids()
    assert len(ids) == len(set(ids)), "a level is listed twice"
    shipped = {p.stem for p in level_files([str(LEVELS_DIR)])}
    assert set(ids) == shipped
    for lid in ids:
        assert load_level(read_json(course.path(lid))).id == lid  # id matches file name


def test_the_course_has_the_topics_and_counts_asked_for():
    course = load_course()
    kinds = {lid: read_json(course.path(lid))["kind"] for lid in course.level_ids()}
    by_topic = {t.title: t.levels for t in course.topics}
    assert len(kinds) >= 24
    assert course.topics[0].title == "Getting started" and len(by_topic["Getting started"]) == 4
    assert sum(k == "zero_force" for k in kinds.values()) >= 6
    assert len(by_topic["Bridges on a budget"]) >= 6 and all(kinds[b] == "build" for b in by_topic["Bridges on a budget"])
    assert {"demo-portal-unbraced", "demo-portal-braced", "demo-beam-vibration", "demo-plate-pendulum", "demo-ground-motion"} <= set(kinds)
    for lid in course.level_ids():
        level = load_level(read_json(course.path(lid)))
        assert level.brief and level.hints and level.explanation, f"{lid}: brief, hints and explanation are all needed"
