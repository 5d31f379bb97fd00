"""What follows a choice, copied into its branches: one rewrite of a
lowered block, before it is rendered.

A *joining* :class:`~.ops.Choice` (a union's cases, an option's or an
optional field's presence byte, marked ``joins`` by the lowering:
:meth:`.lowering.Lowering.choice`) takes the ops that follow it, to the end
of its block, into each of its branches but those that fail, within two
bounds: at most :data:`COPIES` copies of any op (the joining choices around
it multiply), and none once the function has ``budget`` ops (those before
the choice, copies counted). So the fields after a union join each case's ``struct`` run:
``{uid, state: union, parent: option}`` becomes one ``pack`` (and one
``unpack``) per wire variant, as a hand-written codec would do it. The
copies are rewritten in turn: a joining choice among them takes what follows
it there.

A :class:`~.ops.Scope` holds ops lowered apart from those that follow them
(a list's element, a frame's content, a conversion's inner value, a variable
field read in a frame of its own): a choice among them takes nothing after
the scope. The rewrite leaves no scope and no joining mark: the renderer
sees plain blocks.

>>> from .ops import Let, show
>>> taken = Branch("t", (Let("a", "1"),))
>>> failing = Branch(None, (Fail(None, "error", ()),))
>>> print(show(join((Choice((taken, failing), joins=True), Let("b", "2")), budget=10)))
Choice()
    Branch(test='t')
        Let(target='a', expr='1')
        Let(target='b', expr='2')
    Branch(test=None)
        Fail(test=None, error='error', path=())
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from .ops import Block, Branch, Choice, Fail, Framed, Loop, Op, Scope

__all__ = ["COPIES", "fails", "join"]

#: At most this many copies of the ops that follow a choice.
COPIES = 16


def join(block: Block, budget: int) -> Block:
    """``block`` with the ops after each joining choice copied into its
    branches (but those that fail), within the bounds, and its scopes
    flattened."""
    return _Joining(budget).block(block, copies=1)


def fails(body: Block) -> bool:
    """Whether a branch ends by raising (an unknown tag, a bad presence
    byte, JSON mode giving up): nothing after its choice runs there."""
    return bool(body) and isinstance(body[-1], Fail) and body[-1].test is None


class _Joining:
    """One rewrite: the ops emitted so far (the budget's count)."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.count = 0

    def block(self, ops: Sequence[Op], copies: int) -> Block:
        """``ops`` rewritten, themselves copied ``copies`` times so far."""
        out: list[Op] = []
        for i, op in enumerate(ops):
            if isinstance(op, Scope):
                out.extend(self.block(op.body, copies))
                continue
            if isinstance(op, Choice):
                rest = ops[i + 1 :] if op.joins else ()
                within = copies * sum(not fails(b.body) for b in op.branches)
                copy = bool(rest) and within <= COPIES and self.count < self.budget
                if not copy:  # each branch a block of its own
                    rest, within = (), copies
                out.append(Choice(self._branches(op.branches, rest, within), op.peek))
                self.count += 1
                if copy:
                    break  # the rest went into the branches
                continue
            if isinstance(op, Framed | Loop):
                op = replace(op, body=self.block(op.body, copies))
            out.append(op)
            self.count += 1
        return tuple(out)

    def _branches(
        self, branches: tuple[Branch, ...], rest: Sequence[Op], copies: int
    ) -> tuple[Branch, ...]:
        """``branches`` rewritten, each but those that fail followed by ``rest``."""
        return tuple(
            replace(b, body=self.block(b.body if fails(b.body) else (*b.body, *rest), copies))
            for b in branches
        )
