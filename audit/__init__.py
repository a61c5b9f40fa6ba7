"""The audit: what a fight's log says happened, checked against the posting order, the
ruleset and the dice (``fightlog audit``), and what-if forks of a fight (``fightlog
dispute``). See ``docs/audit.md``."""
