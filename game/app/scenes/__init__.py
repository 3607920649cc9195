"""One scene per screen: the menu (level select, menu.py), play (play.py), the loading
screen (loading.py), and the parts and boxes of the play screen (parts.py, boxes.py)."""
