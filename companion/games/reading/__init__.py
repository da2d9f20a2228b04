"""The framework reads pictures: what a stable camera picture means, written once for every game.

A hand makes a move on the table; the camera settles on a picture; the companion must say which
legal play of the player to move leaves the table so (log it), whether the picture is part-way
through one (wait, calm), whether another player's piece moved (out of turn), or which rule a piece
where it is seen breaks (refuse, in the rules' words). The same algorithm for every game:

1. :func:`search` -- one bounded search over the rules' legal actions of the player to move
   (pruned by the pieces that changed, each state reached looked at once); every end state that
   looks like the picture is a reading, and several are a question for the players.
2. :func:`part_way` -- every place of the picture lies between the table as it was and as a
   reached state leaves it (a piece still in a hand, or resting on the way: the optional ``path``
   hint), so the move is under way: a step.
3. :func:`out_of_turn` -- every piece that changed is another player's: one answer, in the game's words.
4. :func:`refuse` -- the action the picture would be (``read_as``), and the rules' ``why_not``.

A game supplies :class:`Hints` (which actions are worth trying, how a position is told apart, the
words), never the algorithm; one :class:`Budget` from the config bounds it. A game with a search of
its own (The FOG's A*) overrides its table's ``reconcile``. Pure: standard library only.
"""

from companion.games.reading.budget import Budget
from companion.games.reading.hints import Hints, Picture
from companion.games.reading.part_way import part_way
from companion.games.reading.read import read
from companion.games.reading.refusal import out_of_turn, refuse
from companion.games.reading.search import Found, Reached, search

__all__ = ["Budget", "Found", "Hints", "Picture", "Reached", "out_of_turn", "part_way", "read", "refuse", "search"]
