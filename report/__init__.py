"""What a fight says to people: narration, state tables and JSON views, from events and states."""
