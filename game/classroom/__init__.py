"""The class tools: grading a class from its hand-ins (grade) and handing work in
(handin). No pygame; imports course/ and the rooms below it."""
