"""Samba Scorekeeper: keeps score at the Samba table and explains every point.

The rules engine is `scorekeeper.rules` (pure Python, no web); the web app is `scorekeeper.web`.
"""
