"""The app wing: what starts and serves the program.

The command line (``cli``), the wiring of session, camera, LEDs and panel (``run``, ``commands``), the
checks (``doctor``), the console and terminal, the config, the service's log lines, systemd's
notifications, memory tuning and the data directory. It is the top wing: it imports the session, table
and store wings, and none of them imports it (tests/test_purity.py holds the order).
"""
