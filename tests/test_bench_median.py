"""The bench's median of the shipped games' cold builds (pipeline.build.bench.median_run).

Reference: the median as statistics.median_low defines it, over the wall times; the whole run it
comes from is kept, so the CPU and peak printed beside the wall belong to the same build.
"""

import statistics

from pipeline.build.bench import median_run


def test_the_run_of_median_wall_is_returned_whole():
    runs = [(2.0, 3.1, 104.0, 0), (1.7, 2.8, 106.0, 0), (2.4, 3.9, 105.0, 0)]
    assert median_run(runs) == (2.0, 3.1, 104.0, 0)
    assert median_run(runs)[0] == statistics.median_low(r[0] for r in runs)


def test_a_failed_run_is_reported_not_hidden_by_the_median():
    runs = [(1.6, 2.8, 104.0, 0), (0.4, 0.5, 60.0, 1), (1.8, 3.0, 105.0, 0)]
    assert median_run(runs) == (0.4, 0.5, 60.0, 1)
