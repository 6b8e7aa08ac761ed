"""The networks marlmap ships as linalg on tensors, written by code.

`python3 -m marlmap.networks.examples --out examples` writes ResNet-50 and
a BERT-base encoder layer (examples/); `python3 -m marlmap.networks.heldout
--out benchmarks/heldout` writes the held-out networks no searcher is
trained or tuned on. The output is deterministic: test/Examples checks the
committed files against a fresh run.
"""
