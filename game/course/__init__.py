"""The course: a level read and built (level), the shipped course in its order
(syllabus), the teacher's levels (teacher), the student's progress (progress) and what
the game keeps on a computer (cleanup). Imports rules/ and the rooms below it."""
