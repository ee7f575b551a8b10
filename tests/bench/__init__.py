"""Per-move latency and image-size benchmark: ``python -m tests.bench`` prints a markdown table.

`harness` holds the generic parts (timing, the floor, the table); one ``bench_*.py`` module per pipeline
step returns rows. Files are named ``bench_*.py`` so that pytest never collects them: timings are reported,
never asserted.
"""
