"""What pages show, worked out from games and replays, so that templates only place values."""
