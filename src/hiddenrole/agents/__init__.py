"""Automatic players. They act only on what their seat may see (its player view) and the
public rules (the phase configuration)."""

from .random_agent import RandomAgent, TargetChooser, legal_step

__all__ = ["RandomAgent", "TargetChooser", "legal_step"]
