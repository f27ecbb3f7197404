"""The Paston web server: tables, seats, live play over WebSockets, storage.

The action log in the database is the truth: every accepted action is committed
before it is broadcast, and a restarted server rebuilds every table from it.
"""
