"""Helpers for testing applications that use userlore (and userlore itself)."""
