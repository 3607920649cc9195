"""One scene per screen: the menu (level select) and play."""

from equilibria.app.scenes.menu import MenuScene
from equilibria.app.scenes.play import PlayScene

__all__ = ["MenuScene", "PlayScene"]
