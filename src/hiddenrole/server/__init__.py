"""The game server (``hiddenrole serve``): durable storage, lobby, WebSocket and TCP play.

Installed with the ``server`` extra. Its storage lives in :mod:`hiddenrole.server.storage`.
"""
