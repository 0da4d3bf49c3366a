"""Searches over play states: the pure-Python reference solver and perft."""
