"""The tree: the nodes the combinators build, one type per combinator, with
their parameters (see ``ARCHITECTURE.md``)."""
