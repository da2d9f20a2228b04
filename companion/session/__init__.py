"""The session wing: the game in play.

The session (log first, undo, turns, timers), the events it publishes with each snapshot, the reader
thread that hands it settled pictures, the log's replay and the LEDs' roles. It imports the table wing
(a picture's path and the ways out are the session's) and the store wing (the log), never the app.
"""
