"""Benchmarks: scripts that time parts of Dashain beside a reference measured in the same run.

Run each as a script, e.g. ``.venv/bin/python benchmarks/engine.py``. They are not tests:
no timing is ever asserted.
"""
