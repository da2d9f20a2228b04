"""The table wing: the table held against the rules.

A picture's path (``picture_path``), the ways out of a disagreement (``wayout``), sync's plain values
and the step words, what the camera can see from where (``sight``), what a settled picture witnessed
and secrecy (who may read what). It imports only ``companion.errors`` and ``companion.games``: the
session imports it, it imports no other wing.
"""
