"""The sweep progress line: rows done, rate (resumed rows left out) and time left."""

import io

from oddsim._runtime.progress import ProgressBar


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_progress_line_shows_rows_rate_and_time_left():
    now = [100.0]
    stream = Terminal()
    bar = ProgressBar(total=1000, unit="rows", already_done=100, stream=stream, width=10,
                      show_percent=False, show_rate=True, clock=lambda: now[0])
    now[0] = 110.0
    bar.advance(200)  # 200 fresh rows in 10 s: 20 rows/s, 700 left: 35 s
    assert stream.getvalue() == "\r[###-------] 300/1,000 rows  20.0 rows/s  35s left "
    bar.close()
    assert stream.getvalue().endswith("\n")


def test_progress_draws_nothing_off_a_terminal():
    stream = io.StringIO()
    bar = ProgressBar(total=10, unit="rows", stream=stream)
    bar.advance(10)
    bar.close()
    assert stream.getvalue() == ""
