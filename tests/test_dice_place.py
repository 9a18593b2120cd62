"""The dice plan's vectorised fit test (pipeline.dice.plan._inside) says what contains() says, point by point,
and the net's shared edges are the vertices np.allclose pairs."""

from __future__ import annotations

import numpy as np

from engine.model import Die
from pipeline.dice.net import _shared_edge
from pipeline.dice.plan import _inside, contains
from pipeline.dice.solids import solid


def test_inside_agrees_with_contains_on_random_points():
    rng = np.random.default_rng(22)
    pentagon = tuple((8 * np.cos(a), 8 * np.sin(a)) for a in np.linspace(0, 2 * np.pi, 6)[:-1])
    for polygon in (pentagon, pentagon[::-1], ((0.0, -4.3), (3.0, 0.87), (0.0, 2.6), (-3.0, 0.87))):
        xs, ys = rng.uniform(-9, 9, (40, 12)), rng.uniform(-9, 9, (40, 12))
        for inset in (0.0, 1.0):
            got = _inside(polygon, xs, ys, inset)
            want = np.array([[contains(polygon, float(x), float(y), inset) for x, y in zip(rx, ry)] for rx, ry in zip(xs, ys)])
            assert got.any() and not got.all() and np.array_equal(got, want)


def test_shared_edges_of_a_cube():
    cube = solid(Die(id="d6", name="D6", shape="d6-cube", faces=6, size="25mm", encoding="letters"))
    pairs = {(a.index, b.index) for a in cube.faces for b in cube.faces if a is not b and _shared_edge(a, b) is not None}
    assert len(pairs) == 24  # every face meets four others, not itself nor its opposite
    for a in cube.faces:
        for b in cube.faces:
            edge = _shared_edge(a, b)
            if edge is not None:
                want = [v for v in a.vertices if any(np.allclose(v, w, atol=1e-6) for w in b.vertices)]
                assert [tuple(p) for p in edge] == [tuple(v) for v in want]
