"""``python -m autoforge.rl.verl.main [hydra overrides]``: verl's ``main_ppo`` with autoforge's
plugins registered first (in this process; Ray workers register through the setup hook)."""

from __future__ import annotations


def main() -> None:
    """Register, then hand over to verl's Hydra entry point (it reads ``sys.argv``)."""
    from autoforge.rl.verl.register import setup

    setup()
    from verl.trainer.main_ppo import main as verl_main

    verl_main()


if __name__ == "__main__":
    main()
