"""Files a user names: read safely (``reading``: only a regular file, only up to a size
limit, never blocking on a FIFO or device) and written whole or not at all (``atomic``).

Imports only the foundation (``core.errors``); every package that reads or writes a
user's file goes through here.
"""
