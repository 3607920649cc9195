"""The play screen's parts: the overlay's boxes and lines, the answer box, the member
table, the panels' words, graphs, the toolbar and tools, the key table, the picture and
its marks, the student-id box."""
