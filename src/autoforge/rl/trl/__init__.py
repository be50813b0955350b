"""ERPO on one machine with TRL (the ``[train]`` extra): see ``docs/verl.md``.

* :mod:`.tokens` -- token traces and chat-template rendering (exact sampled tokens, masks);
* :mod:`.policy` -- batched sampling from the policy, the token-recording agent client;
* :mod:`.episodes` -- autoforge episodes as training rollouts (users, MEU hooks);
* :mod:`.batch` -- one step's dynamic sampling and ERPO advantages (no trainer);
* :mod:`.trainer` -- ``ERPOTrainer``, the ``GRPOTrainer`` subclass (imports trl);
* :mod:`.run` -- ``train_trl``: from files to a trained policy;
* :mod:`.model` -- the embedded GGUF tokenizer, the tiny test model, policy loading.

Importing this package imports neither torch nor trl.
"""
