"""One scene per screen: the menu (level select) and play."""

from game.app.scenes.menu import MenuScene
from game.app.scenes.play import PlayScene

__all__ = ["MenuScene", "PlayScene"]
