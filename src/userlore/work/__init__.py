"""Work handed off the user's turn: observations and reviews, queued and run by a worker.

:class:`WorkQueue` is the durable table (``work_items``) that ``userlore worker`` drains;
:class:`WorkRunner` runs jobs in-process from a bounded queue (falling back to the table when
full) for apps without a worker. ``UserloreMiddleware`` hands its writes and reviews to one.
"""

from userlore.work.jobs import Job, observe_job, review_job, run_job
from userlore.work.queue import ClaimedJob, WorkQueue
from userlore.work.runner import WorkRunner

__all__ = ["ClaimedJob", "Job", "WorkQueue", "WorkRunner", "observe_job", "review_job", "run_job"]
