"""Environment synthesis: tool docs (and optionally data) in, a checked environment out.

```python
from autoforge.synth import SynthOptions, synthesize, run_fidelity
report = await synthesize(docs, Path("envs/retail"), client, data=db, options=SynthOptions())
fid = run_fidelity(Path("envs/retail"), bench)   # bench: a recording, e.g. adapters.tau.load_bench
```

Stages: ``state_design`` (LLM, docs mode) or ``infer`` (data mode) for the state schema;
``classify`` + ``templates`` for deterministic scaffolding; ``functions`` + ``checks`` for the
per-tool LLM loop with check and repair; ``pipeline`` for resumable orchestration and the
environment directory; ``fidelity`` for replaying a benchmark's ground truth.
"""

from autoforge.synth.classify import Classification, classify_tool
from autoforge.synth.fidelity import FidelityReport, run_fidelity
from autoforge.synth.infer import data_to_state, infer_schema
from autoforge.synth.options import SynthOptions
from autoforge.synth.pipeline import synthesize
from autoforge.synth.report import SynthesisReport, ToolReport
from autoforge.synth.state_design import design_state, rule_based_schema

__all__ = [
    "Classification",
    "FidelityReport",
    "SynthOptions",
    "SynthesisReport",
    "ToolReport",
    "classify_tool",
    "data_to_state",
    "design_state",
    "infer_schema",
    "rule_based_schema",
    "run_fidelity",
    "synthesize",
]
