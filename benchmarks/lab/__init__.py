"""Research code that serves only the benchmark scripts and their tests, kept out of the
library: the derivability ceiling of a fidelity benchmark (:mod:`.ceiling`), fault injection
into finished transcripts (:mod:`.transcript_faults`), the rule-based ``meu_v1`` claim baseline
(:mod:`.rulejudge`), scoring of user-error judges against injected faults (:mod:`.judgeval`),
and a raw HTTP/1.1 client for the serving benchmark (:mod:`.rawhttp`).

Imported as ``lab.X`` with ``benchmarks/`` on ``sys.path`` (a script run as
``python benchmarks/NAME.py`` has it there; tests insert it). Nothing under ``src/`` imports it.
"""
