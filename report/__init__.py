"""What a fight says to people, from events and states, without reading or writing files:
``narration`` (each event and the changes it caused, in words), ``replay_text`` (a replay's
lines and JSON documents), ``state_text`` (the state tables), ``state_data`` (the state as
plain data), ``audit_text`` (an audit's report as text), ``wording`` (counts and values in
words), ``page`` (the fight as one HTML page: ``fightlog report``). The CLI prints or writes
what these build; ``fightlog.api`` hands them to users' code."""
