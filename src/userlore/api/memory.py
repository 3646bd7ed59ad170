"""``lore.memory``: the seed 003 operations (remember, recall, update, forget...) with receipts."""

from __future__ import annotations

from userlore.api.twins import twin
from userlore.memory import MemoryService


class Memory(MemoryService):
    """:class:`~userlore.memory.MemoryService` with an async twin for each operation."""

    aremember = twin(MemoryService.remember)
    aupdate = twin(MemoryService.update)
    aforget = twin(MemoryService.forget)
    arestore = twin(MemoryService.restore)
    areceipt = twin(MemoryService.receipt)
    atrash = twin(MemoryService.trash)
    ahistory = twin(MemoryService.history)
    arecall = twin(MemoryService.recall)
