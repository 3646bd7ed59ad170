"""Vocabularies as data: word lists and pattern tables, loaded once at import."""
