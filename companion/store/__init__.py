"""The store wing: the games kept on disk.

The store (``store``), its SQLite file (``storefile``), salvage and recovery of a damaged file, the
rows' damage, the journal of watched files, the high-water records and saved state files. It imports
only ``companion.errors``: every other wing may import it, it imports none.
"""
