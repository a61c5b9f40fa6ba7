"""The command line: reads input, calls the core, formats output. Nothing else lives here."""
