"""The detector families behind :func:`userlore.policy.sensitivity.classify`, one module each.

Pattern tables and word lists are data at the top of each module (``special_vocab`` is only
that), compiled once at import.
"""
