"""What the database keeps and how it is read: the models, the schema every write passes, the
connection's settings and the history's reads."""
