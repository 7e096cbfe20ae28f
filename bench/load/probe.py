"""The production ASGI application, plus a count of the SQL statements this process runs.

``daphne bench.load.probe:application`` serves exactly ``config.asgi.application``
(see ``query_counter``).
"""

from config.asgi import application  # noqa: F401  (sets Django up)

from .query_counter import start_counting

start_counting("web")
