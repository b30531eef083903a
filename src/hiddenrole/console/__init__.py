"""A host console: host a game at the terminal, or play one seat against bots.

Needs the ``cli`` extra (``rich``). Entry point: ``hiddenrole play <game>``.
"""

from .app import Console, main
from .games import GAMES, GameEntry, Setup

__all__ = ["Console", "GAMES", "GameEntry", "Setup", "main"]
