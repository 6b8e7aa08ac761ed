"""What the studies search: the study's layers and the networks.

The layers are marlmap-explore --layer shorthands; the networks are MLIR
files of examples/, ../shared/corpus, benchmarks/heldout and
benchmarks/awkward (paths.py says where those are).
"""

from .paths import AWKWARD_FOLDER, CORPUS, EXAMPLES, HELD_OUT_FOLDER

# The ten layers of the search study (search_study), which median_edp's
# --study-cases and benchmarks/optimal_proofs.py take too.
LAYERS = {
    "resnet50_conv1": "conv:N=1,K=64,C=3,P=112,Q=112,R=7,S=7,stride=2",
    "resnet50_res2_1x1": "conv:N=1,K=256,C=64,P=56,Q=56,R=1,S=1",
    "resnet50_res2_3x3": "conv:N=1,K=64,C=64,P=56,Q=56,R=3,S=3",
    "resnet50_res5_3x3": "conv:N=1,K=512,C=512,P=7,Q=7,R=3,S=3",
    "vgg16_conv1_1": "conv:N=1,K=64,C=3,P=224,Q=224,R=3,S=3",
    "vgg16_conv3_2": "conv:N=1,K=256,C=256,P=56,Q=56,R=3,S=3",
    "mbv2_dw3x3_144": "dwconv:N=1,C=144,P=56,Q=56,R=3,S=3",
    "mbv2_pw_144_24": "conv:N=1,K=24,C=144,P=56,Q=56,R=1,S=1",
    "bert_base_qkv": "gemm:M=512,N=768,K=768",
    "bert_base_ffn1": "gemm:M=512,N=3072,K=768",
}

# The factor space of the studies that compare searchers: the perfect one,
# where the exact searcher proves its optima and where their reports were
# measured (the default, `auto`, gives some problems partial tiles).
COMPARED_FACTORS = "perfect"

# The whole networks the races run by default.
NETWORKS = {
    "resnet50": EXAMPLES / "resnet50.mlir",
    "mobilenet_v2": CORPUS / "torchvision_mobilenet_v2.mlir",
    "vgg16": CORPUS / "torchvision_vgg16.mlir",
    "bert_base_encoder": EXAMPLES / "bert_base_encoder.mlir",
    "hf_bert_tiny": CORPUS / "hf_bert_tiny.mlir",
}
# Networks in neither examples/ nor the corpus: never trained or tuned on,
# so they say how a searcher does on networks it has not seen. Raced only
# when named.
HELD_OUT = {
    name: HELD_OUT_FOLDER / f"{name}.mlir"
    for name in ("googlenet", "densenet121", "vit_b16", "mobilenet_v3_large")
}

# Networks whose loop bounds few factors divide, for the imperfect factor
# spaces: Inception v3 (149, 73, 35, 17; never trained on), and the
# corpus's AlexNet (55, 27, 13) and SqueezeNet 1.1 on a 32x32 image (15,
# 7, 3).
AWKWARD = {
    "inception_v3": AWKWARD_FOLDER / "inception_v3.mlir",
    "squeezenet1_1": CORPUS / "torchvision_squeezenet1_1.mlir",
    "alexnet": CORPUS / "torchvision_alexnet.mlir",
}

# What train_policy trains on by default, in order: examples/ and the
# corpus, never the held-out networks.
TRAINING = [
    EXAMPLES / "resnet50.mlir",
    EXAMPLES / "bert_base_encoder.mlir",
    CORPUS / "torchvision_resnet18.mlir",
    CORPUS / "torchvision_resnet50.mlir",
    CORPUS / "torchvision_mobilenet_v2.mlir",
    CORPUS / "torchvision_efficientnet_b0.mlir",
    CORPUS / "torchvision_squeezenet1_1.mlir",
    CORPUS / "torchvision_vgg16.mlir",
    CORPUS / "torchvision_alexnet.mlir",
    CORPUS / "torchvision_convnext_tiny.mlir",
    CORPUS / "hf_bert_tiny.mlir",
]


def network_file(name):
    """The MLIR file of a network of NETWORKS, HELD_OUT or AWKWARD."""
    return NETWORKS.get(name) or HELD_OUT.get(name) or AWKWARD[name]


def network_text(name):
    """The path and MLIR text of a network of NETWORKS, HELD_OUT or
    AWKWARD; a missing file stops the study."""
    path = network_file(name)
    if not path.is_file():
        raise SystemExit(f"no {path}")
    return path, path.read_text()
