"""The fight as one self-contained HTML page (``fightlog report``, ``fightlog dispute
--report``): ``model`` (the page as plain data), ``timeline`` (the rounds, their events and
the posting order, from the fold and the replay's narration), ``chart`` (the pools over the
fight, as data and as inline SVG), ``build`` (a log held in memory -> the page's data, with
the audit and the chain and dice verdicts), ``dispute_page`` (a dispute's two fights side by
side) and ``render`` (the data through Jinja2 templates with autoescaping, the templates
shipped in ``templates/``). Nothing here reads or writes files but the templates (and
their compiled form, kept in the user's cache folder)."""
