"""The networks marlmap ships as linalg on tensors, written by code.

`python3 -m marlmap.networks.examples --out examples` writes the BERT-base
encoder layer of examples/ (torchvision has no BERT; examples/resnet50.mlir
is marlmap-import's); `python3 -m marlmap.networks.heldout
--out benchmarks/heldout` writes the held-out networks no searcher is
trained or tuned on. The output is deterministic: test/Examples checks the
committed files against a fresh run.
"""
