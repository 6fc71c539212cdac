"""What the web app does to games, as functions of plain values, by subject; each write is one
transaction (`database.writing()`) holding the game's write lock.

- `errors`: what the services refuse with; the web layer answers each with its HTTP status.
- `engine`: the bridge to the rules engine (a game's rules, its rows as the engine's values,
  the replay) and the replays cached under each game's revision.
- `loading`: a game as the services and the pages load it, and locked for a write.
- `figures`: the copies of the replay on the rows (totals, winner, hand scores, side tallies)
  that lists and statistics read, and their repair.
- `games`, `hands`, `players`, `house_rules`, `game_files`, `backup`: the writes, by subject.
"""
