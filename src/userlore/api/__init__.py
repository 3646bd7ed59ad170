"""The namespaces of :class:`~userlore.Userlore` (``lore.records``, ``lore.consent``, ...).

Each namespace is a small class over the parts the facade wires; every sync method has an async
twin made by :func:`userlore.api.twins.twin`.
"""
