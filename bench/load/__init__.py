"""Load, soak, fault and hostile-input harness: bots over real websockets against the production stack.

Run ``python -m bench.load --help`` from the repository root; see bench/load/README.md.
"""
